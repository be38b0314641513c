package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"lanes/state"
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

// A payload over the bound (a Write of a large file) keeps the members
// that ended before the cut: the dialog it opens shows, without the
// oversized content (issue 30, item 8: it was dropped whole, and the card
// stayed idle while the agent asked).
func TestOversizedPayloadOpensTheDialog(t *testing.T) {
	t.Parallel()
	payload := `{"session_id":"s1","hook_event_name":"PermissionRequest","tool_name":"Write",` +
		`"tool_input":{"file_path":"/p/big.txt","content":"` + strings.Repeat("x", 20<<20) + `"},"tool_use_id":"toolu_1"}`
	raw, err := readPayload(strings.NewReader(payload), time.Second)
	if err != nil {
		t.Fatalf("readPayload: %v", err)
	}
	var p hookPayload
	if err := json.Unmarshal(raw, &p); err != nil || len(raw) > 1<<10 {
		t.Fatalf("salvaged %d bytes: %v", len(raw), err)
	}
	if p.HookEventName != "PermissionRequest" || p.ToolName != "Write" || state.ToolSummary(p.ToolInput) != "/p/big.txt" {
		t.Errorf("salvaged %s", raw)
	}

	e := newEnv(t)
	e.newAs("api", state.AgentClaude, "sleep", "600")
	e.stdin = payload
	e.must("hook", "claude", "--session", "api")
	e.stdin = ""
	if a := e.record("api").Activity; !a.Dialog || a.Tool != "Write" || a.ToolInput != "/p/big.txt" {
		t.Errorf("after a 20 MiB PermissionRequest: %+v", a)
	}
}
