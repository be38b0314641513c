package store

import (
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

func TestExitNeedsTwoReadsASecondApart(t *testing.T) {
	c, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityActive)
	put(t, c.Store, r)
	f.obs = []state.Observation{dead(r.ID, intp(3), "", statetest.T0.Add(2*time.Second))}
	clk.advance(3 * time.Second)
	cycle(t, c)
	if got := get(t, c.Store, r.ID); got.Activity.State != state.ActivityActive || !got.Pane.Dead {
		t.Fatalf("one dead read must not confirm: %s dead=%v", got.Activity.State, got.Pane.Dead)
	}
	clk.advance(500 * time.Millisecond)
	cycle(t, c)
	if got := get(t, c.Store, r.ID); got.Activity.State != state.ActivityActive {
		t.Fatalf("two reads < 1 s apart must not confirm: %s", got.Activity.State)
	}
	clk.advance(600 * time.Millisecond)
	cycle(t, c)
	got := get(t, c.Store, r.ID)
	if got.Activity.State != state.ActivityExited || state.ExitDetail(got) != "exited (3)" || got.Runtime.Terminated {
		t.Fatalf("confirmed exit 3: %s %q terminated=%v", got.Activity.State, state.ExitDetail(got), got.Runtime.Terminated)
	}
	if d := state.Derive(got, clk.t); d.Status != state.StatusExited || d.Zone != state.ZoneNeedsYou {
		t.Fatalf("Derive: %+v", d)
	}
	if !got.Activity.Since.Equal(statetest.T0.Add(2 * time.Second)) {
		t.Fatalf("exited since %v, want the pane's death %v, not the confirming read", got.Activity.Since, statetest.T0.Add(2*time.Second))
	}
	if len(f.killed) != 0 {
		t.Fatal("a failed exit must keep its pane")
	}
}

func TestCleanExitClosesTheSession(t *testing.T) {
	for _, c := range []struct {
		name     string
		lifetime time.Duration
		status   *int
		signal   string
		closed   bool
		detail   string
	}{
		{"exit 0 after 10 s", 12 * time.Second, intp(0), "", true, ""},
		{"exit 0 within 10 s (startup error)", 4 * time.Second, intp(0), "", false, "exited (0)"},
		{"SIGKILL", 30 * time.Second, nil, "SIGKILL", false, "exited (SIGKILL)"},
		{"SIGTERM", 30 * time.Second, nil, "SIGTERM", false, "exited (SIGTERM)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			col, f, clk := newCollector(t)
			r := statetest.Rec(state.ActivityIdle)
			put(t, col.Store, r)
			f.obs = []state.Observation{dead(r.ID, c.status, c.signal, statetest.T0.Add(c.lifetime))}
			clk.t = statetest.T0.Add(c.lifetime + time.Second)
			cycle(t, col)
			clk.advance(1100 * time.Millisecond)
			cycle(t, col)
			got := get(t, col.Store, r.ID)
			if got.Runtime.Terminated != c.closed || (len(f.killed) == 1) != c.closed {
				t.Fatalf("terminated=%v killed=%v, want closed=%v", got.Runtime.Terminated, f.killed, c.closed)
			}
			if c.closed && got.Runtime.TerminatedReason != "agent exited cleanly (status 0)" {
				t.Fatalf("reason %q", got.Runtime.TerminatedReason)
			}
			if !c.closed && (got.Activity.State != state.ActivityExited || state.ExitDetail(got) != c.detail) {
				t.Fatalf("%s %q, want exited %q", got.Activity.State, state.ExitDetail(got), c.detail)
			}
		})
	}
}

func TestCleanExitNotDuringAStart(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	clk.t = statetest.T0.Add(20 * time.Second)
	r.Runtime.StartingAt = clk.t
	put(t, col.Store, r)
	f.obs = []state.Observation{dead(r.ID, intp(0), "", statetest.T0.Add(15*time.Second))}
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.Terminated || len(f.killed) > 0 {
		t.Fatal("an exit seen while a restart is in flight was taken for a clean one")
	}
}

func TestReapRace(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	// tmux 3.3: dead, but neither status nor time until reaped.
	f.obs = []state.Observation{dead(r.ID, nil, "", time.Time{})}
	clk.advance(2 * time.Second)
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if !f.reaped[1] || f.reaped[0] {
		t.Fatalf("the read after a timeless dead pane must be chained behind run-shell: %v", f.reaped)
	}
	if got := get(t, col.Store, r.ID); got.Activity.State == state.ActivityExited {
		t.Fatal("a timeless dead pane was confirmed before three reads")
	}
	// The reaping read brings the status.
	f.obs = []state.Observation{dead(r.ID, intp(3), "", statetest.T0.Add(time.Second))}
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); state.ExitDetail(got) != "exited (3)" || got.Activity.State != state.ActivityExited {
		t.Fatalf("after reaping: %s %q", got.Activity.State, state.ExitDetail(got))
	}
	cycle(t, col)
	if f.reaped[len(f.reaped)-1] {
		t.Fatal("reaping continued after every pane had its time")
	}
}

func TestReapRaceGivesUpAsUnknown(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	f.obs = []state.Observation{dead(r.ID, nil, "", time.Time{})}
	for range 3 {
		clk.advance(1100 * time.Millisecond)
		cycle(t, col)
	}
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityExited || state.ExitDetail(got) != "exited (unknown)" {
		t.Fatalf("three timeless reads: %s %q", got.Activity.State, state.ExitDetail(got))
	}
	if len(f.killed) != 0 {
		t.Fatal("an unknown exit is never clean")
	}
}

func TestConfirmationAcrossProcesses(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityActive)
	put(t, col.Store, r)
	f.obs = []state.Observation{dead(r.ID, intp(2), "", statetest.T0)}
	clk.advance(time.Second)
	cycle(t, col)
	other := &Collector{Store: col.Store, Panes: &fakePanes{obs: f.obs}, Now: func() time.Time { return clk.t.Add(1500 * time.Millisecond) }}
	cycle(t, other)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityExited {
		t.Fatalf("two processes' agreeing reads ≥ 1 s apart must confirm: %s", got.Activity.State)
	}
}
