package store

import (
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// Once lanes has read a pane's exit, later reads of the same dead pane do
// not change it (docs/design.md §5): tmux 3.3 took a later child with the
// dead pane's pid, reaped by the server minutes on, for the pane, and its
// #{pane_dead_signal} then said 1 while its own "Pane is dead (status 0)"
// still stood, so the card went from "exited (0)" to "exited (SIGHUP)".
func TestReadExitIsKept(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityActive)
	put(t, col.Store, r)
	died := statetest.T0.Add(2 * time.Second)
	f.obs = []state.Observation{dead(r.ID, intp(0), "", died)}
	clk.advance(3 * time.Second)
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if got.Activity.State != state.ActivityExited || state.ExitDetail(got) != "exited (0)" {
		t.Fatalf("confirmed exit 0 within 10 s: %s %q", got.Activity.State, state.ExitDetail(got))
	}
	f.obs = []state.Observation{dead(r.ID, nil, "SIGHUP", died)}
	for range 3 {
		clk.advance(time.Minute)
		cycle(t, col)
	}
	got = get(t, col.Store, r.ID)
	if state.ExitDetail(got) != "exited (0)" || got.Pane.ExitSignal != "" || got.Pane.ExitStatus == nil || *got.Pane.ExitStatus != 0 {
		t.Fatalf("the exit read was status 0; after tmux said SIGHUP for the same dead pane: %q (status %v, signal %q)",
			state.ExitDetail(got), got.Pane.ExitStatus, got.Pane.ExitSignal)
	}
	if !got.Activity.Since.Equal(died) || got.Runtime.Terminated {
		t.Fatalf("exited since %v terminated %v, want since the death %v, not terminated", got.Activity.Since, got.Runtime.Terminated, died)
	}
}
