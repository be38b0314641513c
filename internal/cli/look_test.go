package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// What the board shows and marks of a session, as commands (a board on
// another host runs them over ssh): peek prints the pane, its sequences
// dropped unless --color keeps tmux's; history its transitions, as text or
// JSON; mute and mute --off store the mark ls --json shows; seen is quiet.
func TestPeekHistoryMuteSeen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "p", "--dir", t.TempDir(), "--", "sh", "-c", `printf '\033[31mred\033[0m hi\n'; exec sleep 600`)
	var plain string
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(plain, "red hi") && time.Now().Before(deadline) {
		plain = e.must("peek", "p")
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(plain, "red hi") || strings.Contains(plain, "\x1b") {
		t.Fatalf("peek: %q", plain)
	}
	if !strings.HasSuffix(plain, "red hi\n") {
		t.Errorf("peek prints the pane's blank rows below its last line: %q", plain)
	}
	if color := e.must("peek", "p", "--color"); !strings.Contains(color, "\x1b[31mred") {
		t.Errorf("peek --color: %q", color)
	}
	if out := e.must("history", "p"); !strings.Contains(out, "p: no status changes yet") {
		t.Errorf("history of a new session: %q", out)
	}
	var trs []state.Transition
	if err := json.Unmarshal([]byte(e.must("history", "p", "--json", "--last", "5")), &trs); err != nil || len(trs) != 0 {
		t.Errorf("history --json: %v, %v", trs, err)
	}
	if _, errs, code := e.run("history", "p", "--last", "0"); code == exitOK || !strings.Contains(errs, "--last is from 1") {
		t.Errorf("history --last 0: exit %d, %q", code, errs)
	}
	e.must("mute", "p")
	if !e.ls()["p"].Muted {
		t.Error("mute did not store the mark")
	}
	e.must("mute", "p", "--off")
	if e.ls()["p"].Muted {
		t.Error("mute --off did not clear the mark")
	}
	if out := e.must("seen", "p"); out != "" {
		t.Errorf("seen printed %q", out)
	}
	if _, errs, code := e.run("diff", "p"); code == exitOK || !strings.Contains(errs, "does not run in a git checkout") {
		t.Errorf("diff outside git: exit %d, %q", code, errs)
	}
	e.must("kill", "p")
	if _, errs, code := e.run("peek", "p"); code != exitTerminated || !strings.Contains(errs, "no pane to look at") {
		t.Errorf("peek of a killed session: exit %d, %q", code, errs)
	}
}
