package cli

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
)

// putStarting stores a record the way an interrupted `lanes new` leaves it:
// written, starting, no tmux session seen.
func putStarting(t *testing.T, e *env, name string) *state.Record {
	t.Helper()
	r := &state.Record{ID: state.NewID(), Name: name, Agent: state.AgentCustom, Dir: t.TempDir(), Command: []string{"cat"},
		CreatedAt: time.Now().UTC(),
		Activity:  state.ActivityFacts{State: state.ActivityIdle, Since: time.Now().UTC(), Source: "user"},
		Runtime: state.Runtime{Socket: e.tc.Socket, TmuxSession: state.TmuxSessionName(name), Launch: "L1",
			StartingAt: time.Now().UTC()}}
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, e.getenv)
	st, err := a.store()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(tx *store.Tx) error { return tx.Put(r) }); err != nil {
		t.Fatal(err)
	}
	return r
}

// A session lanes wrote but tmux has not shown yet reads as starting, and
// the commands that need its pane refuse plainly instead of failing on an
// empty pane target; restart never loses the record (trial item 3).
func TestStartingSessionRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	putStarting(t, e, "zz")
	s := e.ls()["zz"]
	if !slices.Contains(s.Marks, state.MarkStarting) {
		t.Fatalf("a starting session's marks = %v, want %q", s.Marks, state.MarkStarting)
	}
	if out := e.must("ls"); !strings.Contains(out, "starting") {
		t.Fatalf("lanes ls does not show the session as starting:\n%s", out)
	}
	for _, args := range [][]string{{"send", "zz", "hi"}, {"attach", "zz"}, {"restart", "zz"}} {
		_, errs, code := e.run(args...)
		if code != exitError || !strings.Contains(errs, "still starting (no tmux session seen yet)") ||
			!strings.Contains(errs, "`lanes kill zz`") {
			t.Errorf("lanes %s on a starting session: exit %d, %q", strings.Join(args, " "), code, errs)
		}
	}
	if _, ok := e.ls()["zz"]; !ok {
		t.Fatal("the starting record is gone after the refusals (restart deleted it)")
	}
	_, errs, code := e.run("new", "zz", "--", "cat")
	if code != exitError || !strings.Contains(errs, "still starting") {
		t.Errorf("lanes new zz while zz starts: exit %d, %q", code, errs)
	}
	e.must("kill", "zz")
	if s := e.ls()["zz"]; !s.IsTerminated {
		t.Fatalf("kill of a starting session: %+v", s)
	}
	// Restart on the board's path (the session service) refuses the same way.
	r := putStarting(t, e, "yy")
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, e.getenv)
	if err := a.svc().Restart(context.Background(), r); err == nil {
		t.Fatal("board restart of a starting session succeeded")
	}
	if _, ok := e.ls()["yy"]; !ok {
		t.Fatal("board restart deleted the starting record")
	}
}
