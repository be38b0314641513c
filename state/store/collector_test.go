package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// fakePanes is a PaneSource whose next read the test sets.
type fakePanes struct {
	obs    []state.Observation
	err    error
	reads  int
	reaped []bool
	killed []string
	// screens are what each pane shows (the witness's captures); captured
	// lists the panes captured, in order.
	screens   map[string]string
	captured  []string
	onCapture func()     // runs during each capture
	mu        sync.Mutex // captures run beside the cycle with a WitnessRunner
}

func (f *fakePanes) CapturePane(_ context.Context, pane string) (string, error) {
	f.mu.Lock()
	f.captured = append(f.captured, pane)
	f.mu.Unlock()
	if f.onCapture != nil {
		f.onCapture()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.screens[pane]
	if !ok {
		return "", errors.New("can't find pane " + pane)
	}
	return s, nil
}

func (f *fakePanes) ListPanes(_ context.Context, reap bool) ([]state.Observation, error) {
	f.reads++
	f.reaped = append(f.reaped, reap)
	return f.obs, f.err
}

func (f *fakePanes) KillSession(_ context.Context, id string) error {
	f.killed = append(f.killed, id)
	return nil
}

// clock is a settable time source.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func intp(n int) *int                    { return &n }
func newCollector(t *testing.T) (*Collector, *fakePanes, *clock) {
	t.Helper()
	f := &fakePanes{}
	c := &clock{t: statetest.T0}
	return &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Panes: f, Now: c.now}, f, c
}

func put(t testing.TB, s *Store, recs ...*state.Record) {
	t.Helper()
	if err := s.Update(func(tx *Tx) error {
		for _, r := range recs {
			if err := tx.Put(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, s *Store, id string) *state.Record {
	t.Helper()
	var r *state.Record
	if err := s.View(func(tx *Tx) error { var err error; r, err = tx.Get(id); return err }); err != nil {
		t.Fatal(err)
	}
	return r
}

func cycle(t *testing.T, c *Collector) CycleResult {
	t.Helper()
	res, err := c.Cycle(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func alive(id string) state.Observation {
	return state.Observation{LanesID: id, PaneID: "%1", PID: 100, WindowActivity: statetest.T0}
}

func dead(id string, status *int, signal string, deadTime time.Time) state.Observation {
	o := alive(id)
	o.Dead, o.DeadStatus, o.DeadSignal, o.DeadTime = true, status, signal, deadTime
	return o
}

func TestOlderReadIgnored(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	f.obs = []state.Observation{alive(r.ID)}
	clk.advance(5 * time.Second)
	cycle(t, col)
	// Another process's read that began earlier lands late.
	late := &Collector{Store: col.Store, Panes: &fakePanes{obs: []state.Observation{dead(r.ID, intp(1), "", statetest.T0)}},
		Now: func() time.Time { return statetest.T0.Add(4 * time.Second) }}
	cycle(t, late)
	if got := get(t, col.Store, r.ID); got.Pane.Dead || !got.Pane.ObservedAt.Equal(statetest.T0.Add(5*time.Second)) {
		t.Fatalf("an older read was applied: dead=%v observed %v", got.Pane.Dead, got.Pane.ObservedAt)
	}
}

func TestUnreachableIsNotDeath(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityActive)
	put(t, col.Store, r)
	if err := AppendLine(col.Store.Dir, state.Line{V: 1, At: statetest.T0, Session: r.ID, Launch: "L1", Agent: "claude", Event: "Stop"}); err != nil {
		t.Fatal(err)
	}
	f.err = errors.New("no server running on /tmp/tmux-0/x")
	for range 5 {
		clk.advance(2 * time.Second)
		res := cycle(t, col)
		if res.TmuxErr == nil {
			t.Fatal("the tmux error must reach the caller")
		}
	}
	got := get(t, col.Store, r.ID)
	if got.Runtime.Terminated || got.Runtime.UnreachableSince.IsZero() {
		t.Fatalf("unreachable: terminated=%v since=%v", got.Runtime.Terminated, got.Runtime.UnreachableSince)
	}
	if d := state.Derive(got, clk.t); d.Status != state.StatusUnknown || d.Marks[0] != state.MarkUnreachable {
		t.Fatalf("Derive while unreachable: %+v", d)
	}
	if got.EventsApplied != 1 || got.Activity.State != state.ActivityIdle {
		t.Fatalf("hook events must still apply while tmux is down: applied=%d %s", got.EventsApplied, got.Activity.State)
	}
	// A server answers without the session: gone only after two reads ≥ 1 s apart.
	f.err, f.obs = nil, nil
	clk.advance(time.Second)
	cycle(t, col)
	got = get(t, col.Store, r.ID)
	if got.Runtime.Terminated || !got.Runtime.UnreachableSince.IsZero() {
		t.Fatalf("first answered read: terminated=%v unreachable=%v", got.Runtime.Terminated, got.Runtime.UnreachableSince)
	}
	clk.advance(300 * time.Millisecond)
	cycle(t, col)
	if get(t, col.Store, r.ID).Runtime.Terminated {
		t.Fatal("certified gone by reads < 1 s apart")
	}
	clk.advance(800 * time.Millisecond)
	cycle(t, col)
	if got = get(t, col.Store, r.ID); !got.Runtime.Terminated || got.Runtime.TerminatedReason != "tmux session gone" {
		t.Fatalf("after two answered reads without it: %+v", got.Runtime)
	}
}

func TestGoneResetByReappearance(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	cycle(t, col) // absent once
	f.obs = []state.Observation{alive(r.ID)}
	clk.advance(2 * time.Second)
	cycle(t, col)
	f.obs = nil
	clk.advance(2 * time.Second)
	cycle(t, col)
	if get(t, col.Store, r.ID).Runtime.Terminated {
		t.Fatal("absences separated by a sighting are not two consecutive reads")
	}
}

func TestHooklessActivityFollowsOutput(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Hookless(statetest.Rec(state.ActivityIdle))
	r.Activity.FirstSignalAt = time.Time{}
	put(t, col.Store, r)
	// tmux sets window_activity at creation: that is not output.
	f.obs = []state.Observation{alive(r.ID)}
	clk.advance(time.Second)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityIdle {
		t.Fatalf("a silent new pane: %s", got.Activity.State)
	}
	o := alive(r.ID)
	o.WindowActivity = statetest.T0.Add(3 * time.Second)
	f.obs = []state.Observation{o}
	clk.t = statetest.T0.Add(4 * time.Second)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityActive || got.Activity.Source != "pane" {
		t.Fatalf("output: %s from %s", got.Activity.State, got.Activity.Source)
	}
	clk.t = statetest.T0.Add(9 * time.Second)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityIdle {
		t.Fatalf("quiet for 5 s: %s", got.Activity.State)
	}
	// Hook-capable agents do not follow output.
	h := statetest.Rec(state.ActivityIdle)
	h.ID = "hook0001"
	put(t, col.Store, h)
	o2 := alive(h.ID)
	o2.WindowActivity = clk.t
	f.obs = []state.Observation{o, o2}
	cycle(t, col)
	if got := get(t, col.Store, h.ID); got.Activity.State != state.ActivityIdle {
		t.Fatalf("a hook agent followed output: %s", got.Activity.State)
	}
}

func TestRunnerErrorsChangeNoFacts(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityWaitingInput)
	put(t, col.Store, r)
	f.obs = []state.Observation{alive(r.ID)}
	cycle(t, col)
	before := get(t, col.Store, r.ID)
	f.err = context.DeadlineExceeded
	clk.advance(5 * time.Second)
	cycle(t, col)
	after := get(t, col.Store, r.ID)
	after.Runtime.UnreachableSince = time.Time{}
	if after.Activity.State != before.Activity.State || !after.Activity.Since.Equal(before.Activity.Since) ||
		!after.Pane.ObservedAt.Equal(before.Pane.ObservedAt) || after.Runtime.Terminated {
		t.Fatalf("a failed read changed facts: %+v → %+v", before, after)
	}
}

// TestSteadyCycleWritesNothing: a read that changes nothing costs no store
// write (an idle board cycles every second).
func TestSteadyCycleWritesNothing(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Hookless(statetest.Rec(state.ActivityIdle))
	put(t, col.Store, r)
	o := alive(r.ID)
	o.WindowActivity = statetest.T0.In(time.FixedZone("tmux-local", 3600)) // tmux times arrive in local time
	f.obs = []state.Observation{o}
	clk.t = clk.t.In(time.Local)
	cycle(t, col)
	clk.advance(time.Second)
	cycle(t, col)
	before, _ := os.ReadFile(col.Store.Path())
	for range 3 {
		clk.advance(time.Second)
		cycle(t, col)
	}
	after, _ := os.ReadFile(col.Store.Path())
	if !bytes.Equal(before, after) {
		t.Fatal("a cycle that changed nothing wrote to the store")
	}
	if !col.Store.LastCycle().Equal(clk.t.Truncate(time.Microsecond)) && !col.Store.LastCycle().Equal(clk.t) {
		t.Fatalf("LastCycle = %v, want %v", col.Store.LastCycle(), clk.t)
	}
}

// TestCallerDeadlineIsNotUnreachability: a read cut short by the caller's
// own context changes nothing.
func TestCallerDeadlineIsNotUnreachability(t *testing.T) {
	col, f, _ := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f.err = context.Canceled
	if _, err := col.Cycle(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, col.Store, r.ID); !got.Runtime.UnreachableSince.IsZero() {
		t.Fatal("the caller's cancelled context marked the server unreachable")
	}
}

// TestCacheSeesOtherWriters: a collector that reuses its decoded records
// must still see what another process wrote in between.
func TestCacheSeesOtherWriters(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	f.obs = []state.Observation{alive(r.ID)}
	cycle(t, col)
	clk.advance(time.Second)
	cycle(t, col) // steady: served from the cache
	other := get(t, col.Store, r.ID)
	other.Activity.State = state.ActivityBlocked
	put(t, New(col.Store.Dir), other)
	clk.advance(time.Second)
	res := cycle(t, col)
	if res.Records[0].Activity.State != state.ActivityBlocked {
		t.Fatalf("the collector served a stale cached record: %s", res.Records[0].Activity.State)
	}
	// Records handed out are never changed by a later cycle.
	held := res.Records[0]
	f.obs = []state.Observation{dead(r.ID, intp(1), "", clk.t)}
	clk.advance(time.Second)
	cycle(t, col)
	if held.Pane.Dead {
		t.Fatal("a later cycle mutated records an earlier cycle handed out")
	}
}

// TestSpoolOnlyCycleIsNoTmuxRead: a collector without a pane source (the
// board's fast path for hook lines) must not pass for a fresh tmux read.
func TestSpoolOnlyCycleIsNoTmuxRead(t *testing.T) {
	col, _, _ := newCollector(t)
	col.Panes = nil
	cycle(t, col)
	if !col.Store.LastCycle().IsZero() {
		t.Fatal("a spool-only cycle stamped the last tmux read")
	}
}

// A cycle says whether a live session lives on its server: a silent server
// with none there is nothing to warn about.
func TestCycleSaysWhetherItWatches(t *testing.T) {
	col, f, _ := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	r.Runtime.Socket = "work"
	put(t, col.Store, r)
	f.err = errors.New("no server running")
	for _, c := range []struct {
		socket string
		want   bool
	}{{"work", true}, {"other", false}} {
		col.Socket = c.socket
		if res := cycle(t, col); res.Watching != c.want {
			t.Errorf("collector on %q: Watching = %v, want %v", c.socket, res.Watching, c.want)
		}
	}
}
