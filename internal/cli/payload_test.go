package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// runHookWithStdin runs `lanes hook ARGS` with stdin a pipe the test feeds
// (and never closes until the hook returned), and says how long the hook
// took on the bubble's clock.
func runHookWithStdin(t *testing.T, e *env, feed func(w *io.PipeWriter), args ...string) time.Duration {
	t.Helper()
	r, w := io.Pipe()
	defer w.Close() // lets a reader still blocked on stdin end with the test
	go feed(w)
	var out, errb bytes.Buffer
	a := newApp(r, &out, &errb, e.getenv)
	start := time.Now()
	if code := a.main(context.Background(), append([]string{"hook"}, args...)); code != 0 || out.Len()+errb.Len() != 0 {
		t.Fatalf("hook must exit 0 silently: %d %q %q", code, out.String(), errb.String())
	}
	return time.Since(start)
}

// TestHookDoesNotWaitOnSilentStdin: a caller that leaves stdin open and
// silent does not hang the hook; a payload being written is still read
// whole, without waiting for EOF.
func TestHookDoesNotWaitOnSilentStdin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := hookEnv(t)
		took := runHookWithStdin(t, e, func(*io.PipeWriter) {}, "claude", "Stop")
		if l := spoolLines(t, e.state, "abcd1234"); len(l) != 1 || l[0].Event != "Stop" {
			t.Fatalf("EVENT given, stdin silent: %+v", l)
		}
		if took != payloadFirstByte {
			t.Errorf("waited %v on a silent stdin, want %v", took, payloadFirstByte)
		}

		// Written in two parts 5 s apart, stdin left open: kept whole.
		runHookWithStdin(t, e, func(w *io.PipeWriter) {
			io.WriteString(w, `{"hook_event_name":"PreToolUse","tool_name":"Ba`)
			time.Sleep(5 * time.Second)
			io.WriteString(w, `sh","tool_use_id":"toolu_9"}`)
		}, "claude", "PreToolUse")
		if l := spoolLines(t, e.state, "abcd1234"); len(l) != 2 || l[1].ToolName != "Bash" || l[1].ToolUseID != "toolu_9" {
			t.Fatalf("a payload written slowly: %+v", l)
		}

		// No EVENT and nothing on stdin: given up on, and said so.
		took = runHookWithStdin(t, e, func(*io.PipeWriter) {}, "claude")
		log, _ := os.ReadFile(filepath.Join(e.state, "hook-errors.log"))
		if took != payloadWhole || !strings.Contains(string(log), "no payload") {
			t.Errorf("no EVENT, stdin silent: took %v; log %q", took, log)
		}
	})
}
