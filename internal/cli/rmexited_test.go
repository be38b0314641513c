package cli

import (
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// An agent that exited in its pane is removed in one step: rm ends its
// tmux session and deletes the record, no kill first. One whose agent
// runs is refused, and keeps running.
func TestRmOfAnExitedAgentInOneStep(t *testing.T) {
	e := newEnv(t)
	e.must("new", "crash", "--", "sh", "-c", "exit 3")
	e.must("new", "live", "--", "sleep", "600")
	for deadline := time.Now().Add(30 * time.Second); e.record("crash").Activity.State != state.ActivityExited; e.run("ls") {
		if time.Now().After(deadline) {
			t.Fatal("crash never exited")
		}
	}
	if out, errs, code := e.run("rm", "crash"); code != exitOK || !strings.HasPrefix(out, "removed crash (") {
		t.Fatalf("rm crash: exit %d %q %q, want it removed in one step", code, out, errs)
	}
	if _, ok := e.ls()["crash"]; ok {
		t.Error("crash still listed after rm")
	}
	if has, err := e.tc.HasSession(t.Context(), "lanes-crash"); has || err != nil {
		t.Errorf("crash's tmux session outlived its rm (%v)", err)
	}
	if _, errs, code := e.run("rm", "live"); code == exitOK || !strings.Contains(errs, "live is live; `lanes kill live` first") {
		t.Errorf("rm live: exit %d %q, want a refusal", code, errs)
	}
	if s := e.ls()["live"]; s.IsTerminated {
		t.Error("the refused rm ended live")
	}
}

// rm --done clears the Done lane in one step: it asks first (with no
// terminal it refuses, removing nothing), --yes goes ahead, and a live
// session stays.
func TestRmDone(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"a", "b", "live"} {
		e.must("new", n, "--", "sleep", "600")
	}
	e.must("kill", "a")
	e.must("kill", "b")
	if _, errs, code := e.run("rm", "--done"); code == exitOK || !strings.Contains(errs, "2 done session(s): rm --done asks first") {
		t.Fatalf("rm --done with no terminal: exit %d %q, want a refusal", code, errs)
	}
	if n := len(e.ls()); n != 3 {
		t.Fatalf("the refused rm --done left %d sessions, want 3", n)
	}
	if out := e.must("rm", "--done", "--yes"); out != "removed 2 done session(s)\n" {
		t.Errorf("rm --done --yes said %q", out)
	}
	if got := e.ls(); len(got) != 1 || got["live"].IsTerminated {
		t.Errorf("after rm --done: %v, want live alone", got)
	}
	if out := e.must("rm", "--done"); out != "nothing in Done\n" {
		t.Errorf("rm --done again said %q", out)
	}
}
