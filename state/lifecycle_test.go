package state

import (
	"testing"
	"time"
)

// tmux sets window_activity when it creates the window, which may be the
// second after the one lanes recorded as the pane's start: the first read's
// value is the baseline, not the start second (issue 16.10).
func TestNoFalseWorkingAtLaunch(t *testing.T) {
	col, f, clk := newCollector(t)
	r := hookless(rec(ActivityIdle))
	r.Activity.FirstSignalAt = time.Time{}
	r.Runtime.PaneStartedAt = t0.Add(900 * time.Millisecond)
	r.Pane = Pane{}
	put(t, col.Store, r)
	o := alive(r.ID)
	o.WindowActivity = t0.Add(time.Second) // the window's creation
	f.obs = []Observation{o}
	for _, at := range []time.Duration{1200 * time.Millisecond, 2 * time.Second, 4 * time.Second} {
		clk.t = t0.Add(at)
		cycle(t, col)
		if got := get(t, col.Store, r.ID); got.Activity.State != ActivityIdle {
			t.Fatalf("a silent new pane at +%v: %s", at, got.Activity.State)
		}
	}
	o.WindowActivity = t0.Add(5 * time.Second)
	f.obs = []Observation{o}
	clk.t = t0.Add(5500 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != ActivityActive {
		t.Fatalf("output after the first read: %s", got.Activity.State)
	}
}

// A wall clock stepped back an hour leaves observed_at an hour ahead: reads
// must go on applying (issue 16.9).
func TestClockStepBackKeepsObserving(t *testing.T) {
	col, f, clk := newCollector(t)
	r := rec(ActivityActive)
	put(t, col.Store, r)
	f.obs = []Observation{alive(r.ID)}
	clk.t = t0.Add(time.Hour)
	cycle(t, col)
	o := alive(r.ID)
	o.WindowActivity = t0.Add(time.Hour)
	f.obs = []Observation{o}
	cycle(t, col)
	if got := get(t, col.Store, r.ID); !got.Pane.ObservedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("setup: observed %v", got.Pane.ObservedAt)
	}
	// The clock steps back an hour; another process (a new collector)
	// then sees the pane die.
	later := &Collector{Store: col.Store, Panes: f, Now: clk.now}
	f.obs = []Observation{dead(r.ID, intp(3), "", t0.Add(time.Second))}
	clk.t = t0.Add(2 * time.Second)
	cycle(t, later)
	clk.advance(1100 * time.Millisecond)
	cycle(t, later)
	if got := get(t, col.Store, r.ID); got.Activity.State != ActivityExited {
		t.Fatalf("after the clock stepped back an hour the exit was not seen: %s dead=%v observed %v",
			got.Activity.State, got.Pane.Dead, got.Pane.ObservedAt)
	}
}

// A small step back (under the tolerance) must not stall one collector's
// own reads: they are ordered by its sequence.
func TestOneCollectorsReadsFollowItsSequence(t *testing.T) {
	col, f, clk := newCollector(t)
	r := rec(ActivityActive)
	put(t, col.Store, r)
	f.obs = []Observation{alive(r.ID)}
	clk.t = t0.Add(10 * time.Second)
	cycle(t, col)
	o := alive(r.ID)
	o.WindowActivity = t0.Add(10 * time.Second)
	f.obs = []Observation{o}
	cycle(t, col)
	f.obs = []Observation{dead(r.ID, intp(3), "", t0.Add(8*time.Second))}
	clk.t = t0.Add(8 * time.Second) // two seconds back
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != ActivityExited {
		t.Fatalf("a collector's own later reads were taken for older ones: %s", got.Activity.State)
	}
}
