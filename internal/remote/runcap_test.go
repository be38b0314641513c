package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The seventh hostile re-run: a host answering `ls --json` without end
// (326 MB, 200,000 sessions) took `lanes ls --all-hosts` to 928 MB of
// memory. One answer is read up to AnswerMax, and the rest refused.
func TestRunReadsAnAnswerUpToItsCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ssh := filepath.Join(dir, "ssh")
	// Writes forever; the pipe closing ends it.
	if err := os.WriteFile(ssh, []byte("#!/bin/sh\nexec yes '{\"id\":\"aaaaaaaa\",\"name\":\"flood\"}'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	out, err := SSH{Program: ssh}.Run(context.Background(), Host{Name: "flood", Dest: "x"}, nil, "ls", "--json")
	if err == nil || !strings.Contains(err.Error(), "host flood: its answer was over 32 MiB") || out != nil {
		t.Fatalf("Run = %d bytes, %v; want the answer refused at its cap", len(out), err)
	}
}
