package gh

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Exec tells gh missing and gh logged out (the poller goes off) from a
// failure worth a retry, and says what gh said.
func TestRunGHSaysWhy(t *testing.T) {
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	if _, err := Exec(context.Background(), bin, Args...); !errors.Is(err, ErrOff) || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("no gh on PATH: %v", err)
	}
	for _, c := range []struct {
		script string
		off    bool
		says   string
	}{
		{"echo 'To get started with GitHub CLI, please run:  gh auth login' >&2; exit 4", true, "not logged in"},
		{"echo 'HTTP 403: API rate limit exceeded for user ID 1.' >&2; exit 1", false, "API rate limit exceeded"},
		{"echo '[]'", false, ""},
		{"/bin/sleep 600", false, "gave no answer in time"}, // a wrapper whose child holds the pipe
	} {
		if err := os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\n"+c.script+"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		_, err := Exec(ctx, bin, Args...)
		cancel()
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("gh doing %q: Exec took %v", c.script, took)
		}
		if errors.Is(err, ErrOff) != c.off || c.says == "" && err != nil || c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)) {
			t.Errorf("gh doing %q: %v", c.script, err)
		}
	}
}
