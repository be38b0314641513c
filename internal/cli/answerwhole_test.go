package cli

import (
	"os"
	"strings"
	"testing"
	"time"
)

// The 26th hostile re-run: --dialog with dialog_at cut to the second also
// named a newer dialog opened in that second, and approved it. Only
// dialog_at whole names a dialog; nothing is sent for the cut one.
func TestAnswerDialogTakesTheTimeWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	received := claudeAsking(t, e)
	// (dialog_at is the hook's clock, to the nanosecond: never whole.)
	cut := e.record("api").Activity.DialogAt.UTC().Truncate(time.Second).Format(time.RFC3339)
	if _, errs, code := e.run("answer", "api", "yes", "--dialog", cut); code != exitError || !strings.Contains(errs, "dialog is gone") {
		t.Errorf("answer --dialog cut to the second: exit %d %q", code, errs)
	}
	if got, _ := os.ReadFile(received); len(got) != 0 {
		t.Errorf("the pane got %q", got)
	}
}

// claudeAsking is a stand-in Claude Code as session api, asking about the
// recorded call with the real hooks fired (fakeClaude's received file).
func claudeAsking(t *testing.T, e *env) (received string) {
	t.Helper()
	received = fakeClaude(t, e, "api")
	waitPane(t, e.tc, "lanes-api", "Do you want to proceed?")
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		e.stdin = firstRealPayload(t, "claude", "permission-approve", ev)
		e.must("hook", "claude", "--session", "api")
	}
	e.stdin = ""
	return received
}
