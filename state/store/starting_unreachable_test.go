package store

import (
	"errors"
	"slices"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// A start in flight shows its tmux server unreachable like every other
// session while the server does not answer, and stops when it answers;
// the start window still counts answered reads only (trial 2, item 6).
func TestStartingRecordShowsUnreachable(t *testing.T) {
	col, f, clk := newCollector(t)
	r := starting(statetest.T0)
	put(t, col.Store, r)
	f.err = errors.New("tmux timed out")
	clk.advance(2 * time.Second)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if !got.Runtime.UnreachableSince.Equal(clk.t) {
		t.Fatalf("a failed read left a starting record's unreachable_since at %v, want %v", got.Runtime.UnreachableSince, clk.t)
	}
	if d := state.Derive(got, clk.t); !slices.Contains(d.Marks, state.MarkUnreachable) {
		t.Fatalf("a starting record while tmux does not answer derives %+v, want the unreachable mark", d)
	}
	first := clk.t
	clk.advance(state.StartWindow)
	cycle(t, col)
	got = get(t, col.Store, r.ID)
	if missing(t, col.Store, r.ID) || !got.Runtime.UnreachableSince.Equal(first) {
		t.Fatalf("a second failed read: removed %v, unreachable since %v (want %v)", missing(t, col.Store, r.ID), got.Runtime.UnreachableSince, first)
	}
	// tmux answers and shows the session: adopted, reachable.
	f.err = nil
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$5", PaneID: "%9", PID: 200, WindowActivity: statetest.T0}}
	clk.advance(time.Second)
	cycle(t, col)
	got = get(t, col.Store, r.ID)
	if got.Runtime.SessionID != "$5" || !got.Runtime.UnreachableSince.IsZero() {
		t.Fatalf("an answered read: session %q, unreachable since %v", got.Runtime.SessionID, got.Runtime.UnreachableSince)
	}
}

// An answered read without the session clears the mark too, and the start
// window still runs from the start, not from the hang.
func TestStartingRecordReachableAgainStillStarting(t *testing.T) {
	col, f, clk := newCollector(t)
	r := starting(statetest.T0)
	put(t, col.Store, r)
	f.err = errors.New("tmux timed out")
	clk.advance(time.Second)
	cycle(t, col)
	f.err = nil
	clk.advance(time.Second)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if !got.Runtime.UnreachableSince.IsZero() || !got.Starting() {
		t.Fatalf("answered without the session: unreachable since %v, starting %v", got.Runtime.UnreachableSince, got.Starting())
	}
	clk.t = statetest.T0.Add(state.StartWindow)
	cycle(t, col)
	if !missing(t, col.Store, r.ID) {
		t.Fatal("the start window was moved by the hang")
	}
}
