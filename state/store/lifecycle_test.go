package store

import (
	"errors"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// tmux sets window_activity when it creates the window, which may be the
// second after the one lanes recorded as the pane's start: the first read's
// value is the baseline, not the start second (issue 16.10).
func TestNoFalseWorkingAtLaunch(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Hookless(statetest.Rec(state.ActivityIdle))
	r.Activity.FirstSignalAt = time.Time{}
	r.Runtime.PaneStartedAt = statetest.T0.Add(900 * time.Millisecond)
	r.Pane = state.Pane{}
	put(t, col.Store, r)
	o := alive(r.ID)
	o.WindowActivity = statetest.T0.Add(time.Second) // the window's creation
	f.obs = []state.Observation{o}
	for _, at := range []time.Duration{1200 * time.Millisecond, 2 * time.Second, 4 * time.Second} {
		clk.t = statetest.T0.Add(at)
		cycle(t, col)
		if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityIdle {
			t.Fatalf("a silent new pane at +%v: %s", at, got.Activity.State)
		}
	}
	o.WindowActivity = statetest.T0.Add(5 * time.Second)
	f.obs = []state.Observation{o}
	clk.t = statetest.T0.Add(5500 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityActive {
		t.Fatalf("output after the first read: %s", got.Activity.State)
	}
}

// A wall clock stepped back an hour leaves observed_at an hour ahead: reads
// must go on applying (issue 16.9).
func TestClockStepBackKeepsObserving(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityActive)
	put(t, col.Store, r)
	f.obs = []state.Observation{alive(r.ID)}
	clk.t = statetest.T0.Add(time.Hour)
	cycle(t, col)
	o := alive(r.ID)
	o.WindowActivity = statetest.T0.Add(time.Hour)
	f.obs = []state.Observation{o}
	cycle(t, col)
	if got := get(t, col.Store, r.ID); !got.Pane.ObservedAt.Equal(statetest.T0.Add(time.Hour)) {
		t.Fatalf("setup: observed %v", got.Pane.ObservedAt)
	}
	// The clock steps back an hour; another process (a new collector)
	// then sees the pane die.
	later := &Collector{Store: col.Store, Panes: f, Now: clk.now}
	f.obs = []state.Observation{dead(r.ID, intp(3), "", statetest.T0.Add(time.Second))}
	clk.t = statetest.T0.Add(2 * time.Second)
	cycle(t, later)
	clk.advance(1100 * time.Millisecond)
	cycle(t, later)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityExited {
		t.Fatalf("after the clock stepped back an hour the exit was not seen: %s dead=%v observed %v",
			got.Activity.State, got.Pane.Dead, got.Pane.ObservedAt)
	}
}

// A small step back (under the tolerance) must not stall one collector's
// own reads: they are ordered by its sequence.
func TestOneCollectorsReadsFollowItsSequence(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityActive)
	put(t, col.Store, r)
	f.obs = []state.Observation{alive(r.ID)}
	clk.t = statetest.T0.Add(10 * time.Second)
	cycle(t, col)
	o := alive(r.ID)
	o.WindowActivity = statetest.T0.Add(10 * time.Second)
	f.obs = []state.Observation{o}
	cycle(t, col)
	f.obs = []state.Observation{dead(r.ID, intp(3), "", statetest.T0.Add(8*time.Second))}
	clk.t = statetest.T0.Add(8 * time.Second) // two seconds back
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityExited {
		t.Fatalf("a collector's own later reads were taken for older ones: %s", got.Activity.State)
	}
}

// starting is a record `lanes new` wrote before creating its tmux session.
func starting(at time.Time) *state.Record {
	r := statetest.Hookless(statetest.Rec(state.ActivityIdle))
	r.Runtime.SessionID, r.Runtime.PaneID, r.Runtime.StartingAt, r.Runtime.PaneStartedAt = "", "", at, time.Time{}
	r.Pane = state.Pane{}
	return r
}

func missing(t *testing.T, s *Store, id string) bool {
	t.Helper()
	var err error
	_ = s.View(func(tx *Tx) error { _, err = tx.Get(id); return nil })
	return err != nil
}

// A start whose lanes process died after tmux made the session is adopted
// by the next cycle from the session's @lanes_id (issue 16.4).
func TestStartingRecordIsAdopted(t *testing.T) {
	col, f, clk := newCollector(t)
	r := starting(statetest.T0)
	put(t, col.Store, r)
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$5", PaneID: "%9", PID: 200, WindowActivity: statetest.T0}}
	clk.advance(2 * time.Second)
	res := cycle(t, col)
	got := get(t, col.Store, r.ID)
	if got.Runtime.SessionID != "$5" || got.Runtime.PaneID != "%9" || got.Pane.PID != 200 {
		t.Fatalf("not adopted: %+v pane %+v", got.Runtime, got.Pane)
	}
	if !got.Runtime.StartingAt.IsZero() || !got.Runtime.PaneStartedAt.Equal(statetest.T0) {
		t.Fatalf("adopted start: starting %v, pane started %v (want %v)", got.Runtime.StartingAt, got.Runtime.PaneStartedAt, statetest.T0)
	}
	if len(res.Orphans) != 0 {
		t.Fatalf("an adopted session counted as an orphan: %+v", res.Orphans)
	}
	// From then on it is observed like any other.
	f.obs = []state.Observation{dead(r.ID, intp(3), "", statetest.T0.Add(3*time.Second))}
	f.obs[0].SessionID, f.obs[0].PaneID, f.obs[0].PID = "$5", "%9", 200
	clk.advance(time.Second)
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityExited {
		t.Fatalf("an adopted session is not observed: %s", got.Activity.State)
	}
}

// A start whose session never appears is removed once the start window
// has passed — on answered reads only.
func TestStartingRecordNeverSeenIsRemoved(t *testing.T) {
	col, f, clk := newCollector(t)
	r := starting(statetest.T0)
	put(t, col.Store, r)
	clk.advance(state.StartWindow - time.Second)
	cycle(t, col)
	if missing(t, col.Store, r.ID) {
		t.Fatal("removed within the start window")
	}
	f.err = errors.New("no server running")
	clk.advance(state.StartWindow)
	cycle(t, col)
	if missing(t, col.Store, r.ID) {
		t.Fatal("removed on a read tmux did not answer")
	}
	f.err = nil
	res := cycle(t, col)
	if !missing(t, col.Store, r.ID) {
		t.Fatal("a start whose session never appeared is still there")
	}
	for _, x := range res.Records {
		if x.ID == r.ID {
			t.Fatal("the removed record is still in the cycle's result")
		}
	}
}

// A session carrying an @lanes_id no live record has is an orphan.
func TestOrphansAreReported(t *testing.T) {
	col, f, _ := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	f.obs = []state.Observation{alive(r.ID), {LanesID: "zzzz9999", SessionID: "$7", PaneID: "%7", PID: 7}}
	res := cycle(t, col)
	if len(res.Orphans) != 1 || res.Orphans[0].LanesID != "zzzz9999" {
		t.Fatalf("orphans: %+v", res.Orphans)
	}
}

// restarting is r with a restart in flight: lanes changed the record, the
// respawn may or may not have happened.
func restarting(r *state.Record, at time.Time) *state.Record {
	r.Pane.PID = 100
	state.Restart(r, "L2", at)
	return r
}

// A restart killed before it respawned the pane leaves the old agent
// running: its events still apply, and the old launch comes back once the
// start window has passed with the same pane process (issue 16.4).
func TestRestartThatNeverHappened(t *testing.T) {
	col, f, clk := newCollector(t)
	r := restarting(statetest.Rec(state.ActivityIdle), statetest.T0)
	put(t, col.Store, r)
	if err := AppendLine(col.Store.Dir, state.Line{V: 1, At: statetest.T0, Session: r.ID, Launch: "L1", Agent: "generic", Event: "active"}); err != nil {
		t.Fatal(err)
	}
	f.obs = []state.Observation{alive(r.ID)} // pid 100: not respawned
	clk.advance(time.Second)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if got.EventsDropped[state.DropStaleLaunch] != 0 || got.Activity.State != state.ActivityActive {
		t.Fatalf("the running agent's event during the restart: %s dropped %v", got.Activity.State, got.EventsDropped)
	}
	clk.advance(state.StartWindow)
	cycle(t, col)
	got = get(t, col.Store, r.ID)
	if got.Runtime.Launch != "L1" || got.Runtime.PrevLaunch != "" || !got.Runtime.StartingAt.IsZero() {
		t.Fatalf("the old launch was not restored: %+v", got.Runtime)
	}
	if err := AppendLine(col.Store.Dir, state.Line{V: 1, At: clk.t, Session: r.ID, Launch: "L1", Agent: "generic", Event: "idle"}); err != nil {
		t.Fatal(err)
	}
	cycle(t, col)
	if got = get(t, col.Store, r.ID); got.Activity.State != state.ActivityIdle || got.EventsDropped[state.DropStaleLaunch] != 0 {
		t.Fatalf("after the restore: %s dropped %v", got.Activity.State, got.EventsDropped)
	}
}

// Once the respawned pane is seen, the new launch holds alone.
func TestRestartSeenRespawned(t *testing.T) {
	col, f, clk := newCollector(t)
	r := restarting(statetest.Rec(state.ActivityIdle), statetest.T0)
	put(t, col.Store, r)
	o := alive(r.ID)
	o.PID = 300
	f.obs = []state.Observation{o}
	clk.advance(time.Second)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if got.Runtime.Launch != "L2" || got.Runtime.PrevLaunch != "" || !got.Runtime.StartingAt.IsZero() {
		t.Fatalf("respawn seen: %+v", got.Runtime)
	}
	if err := AppendLine(col.Store.Dir, state.Line{V: 1, At: clk.t, Session: r.ID, Launch: "L1", Agent: "generic", Event: "active"}); err != nil {
		t.Fatal(err)
	}
	cycle(t, col)
	if got = get(t, col.Store, r.ID); got.EventsDropped[state.DropStaleLaunch] != 1 {
		t.Fatalf("the old launch's event after the respawn: dropped %v", got.EventsDropped)
	}
}

// A tmux server that comes back is a new server: the first read that
// answers without a session shows it unknown, not its old status, until
// a second read certifies it gone (issue 16.8).
func TestNewServerShowsMissingSessionsUnknown(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityActive)
	put(t, col.Store, r)
	f.err = errors.New("no server running")
	clk.advance(time.Second)
	cycle(t, col)
	f.err = nil // a new server, without the session
	clk.advance(time.Second)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if d := state.Derive(got, clk.t); got.Runtime.Terminated || d.Status != state.StatusUnknown {
		t.Fatalf("first read of a new server: terminated=%v status %s", got.Runtime.Terminated, d.Status)
	}
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got = get(t, col.Store, r.ID); !got.Runtime.Terminated {
		t.Fatal("not certified gone by the second read")
	}
}

// A second restart over one still in flight (both killed before they
// respawned) must not lose the launch of the agent that runs.
func TestTwoRestartsInFlight(t *testing.T) {
	col, f, clk := newCollector(t)
	r := restarting(statetest.Rec(state.ActivityIdle), statetest.T0)
	state.Restart(r, "L3", statetest.T0.Add(time.Second))
	put(t, col.Store, r)
	f.obs = []state.Observation{alive(r.ID)} // pid 100: neither respawned
	clk.advance(2 * time.Second)
	if err := AppendLine(col.Store.Dir, state.Line{V: 1, At: clk.t, Session: r.ID, Launch: "L1", Agent: "generic", Event: "active"}); err != nil {
		t.Fatal(err)
	}
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.EventsDropped[state.DropStaleLaunch] != 0 {
		t.Fatalf("the running agent's event with two restarts in flight: dropped %v", got.EventsDropped)
	}
	clk.advance(state.StartWindow)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.Launch != "L1" {
		t.Fatalf("launch after both restarts settled: %s, want L1", got.Runtime.Launch)
	}
}

// The new launch's first event settles a restart in flight, even when the
// old pane pid was never read.
func TestNewLaunchEventSettlesRestart(t *testing.T) {
	col, f, clk := newCollector(t)
	r := restarting(statetest.Rec(state.ActivityIdle), statetest.T0)
	r.Runtime.PrevPID = 0
	put(t, col.Store, r)
	o := alive(r.ID)
	o.PID = 300
	f.obs = []state.Observation{o}
	clk.advance(time.Second)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.PrevLaunch == "" {
		t.Fatal("a pid seen with the old one unknown settled the restart")
	}
	if err := AppendLine(col.Store.Dir, state.Line{V: 1, At: clk.t, Session: r.ID, Launch: "L2", Agent: "generic", Event: "active"}); err != nil {
		t.Fatal(err)
	}
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.PrevLaunch != "" || got.Runtime.Launch != "L2" || !got.Runtime.StartingAt.IsZero() {
		t.Fatalf("after the new launch's event: %+v", got.Runtime)
	}
}

// A start with a worktree whose session never appeared (lanes new killed
// after making it) is ended, not removed: the record says where its
// worktree is (issue 30, item 6).
func TestStartingWorktreeNeverSeenStaysEnded(t *testing.T) {
	col, _, clk := newCollector(t)
	r := starting(statetest.T0)
	r.Git.Worktree = "/src/proj.lanes/api"
	put(t, col.Store, r)
	clk.advance(state.StartWindow + time.Second)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if !got.Runtime.Terminated || got.Runtime.TerminatedReason != state.ReasonNeverStarted || got.Git.Worktree != r.Git.Worktree {
		t.Fatalf("a start with a worktree that never appeared: %+v %+v", got.Runtime, got.Git)
	}
}
