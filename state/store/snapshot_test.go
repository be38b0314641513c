package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// TestSnapshotIsTheLastCycle: a cycle leaves its records in the snapshot,
// a cycle that changes nothing restamps it, and any other write removes it.
func TestSnapshotIsTheLastCycle(t *testing.T) {
	c, f, clk := newCollector(t)
	s := c.Store
	r := statetest.Rec(state.ActivityIdle)
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 10}}
	if err := s.Update(func(tx *Tx) error { return tx.Put(r) }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Snapshot(); err == nil {
		t.Fatal("a snapshot before any cycle")
	}
	if _, err := c.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs, at, err := s.Snapshot()
	if err != nil || len(recs) != 1 || recs[0].ID != r.ID || !at.Equal(statetest.T0) {
		t.Fatalf("after a cycle: %d records, at %v, %v", len(recs), at, err)
	}
	if fi, _ := os.Stat(s.snapshotPath()); fi.Mode().Perm() != 0o600 {
		t.Fatalf("snapshot mode %v, want 0600", fi.Mode().Perm())
	}
	clk.advance(3 * time.Second) // nothing changes
	if _, err := c.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, at, _ := s.Snapshot(); !at.Equal(clk.t) {
		t.Fatalf("an unchanged cycle left the snapshot at %v, want %v", at, clk.t)
	}
	if err := s.Update(func(tx *Tx) error { return tx.Delete(r.ID) }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Snapshot(); err == nil {
		t.Fatal("the snapshot outlived a write that was not a cycle")
	}
	if entries, _ := os.ReadDir(s.Dir); len(entries) > 0 {
		for _, e := range entries {
			if filepath.Ext(e.Name()) != "" && e.Name() != "lanes.db" && e.Name() != "last-cycle" {
				t.Errorf("left behind: %s", e.Name())
			}
		}
	}
}

// TestSnapshotTallyFollowsTheClock: the snapshot's tally is its records'
// tally at its stamp, also after a cycle that changed no record but whose
// time changed a derivation (here a session that never sent a hook passes
// its grace and needs its human).
func TestSnapshotTallyFollowsTheClock(t *testing.T) {
	c, f, clk := newCollector(t)
	s := c.Store
	r := statetest.Rec(state.ActivityIdle)
	r.Activity.FirstSignalAt = time.Time{}
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 10}}
	put(t, s, r)
	if _, _, err := s.SnapshotTally(); err == nil {
		t.Fatal("a tally before any cycle")
	}
	check := func(when string, zone state.Zone, status state.Status) {
		t.Helper()
		if _, err := c.Cycle(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, at, err := s.SnapshotTally()
		if err != nil || !at.Equal(clk.t) {
			t.Fatalf("%s: tally at %v, %v; want at %v", when, at, err, clk.t)
		}
		recs, _, err := s.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if want := state.TallyAt(recs, clk.t); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: stored tally %+v, the records' own %+v", when, got, want)
		}
		if got.Zones[zone] != 1 || got.Statuses[status] != 1 || got.Live != 1 {
			t.Fatalf("%s: tally %+v, want one live %s in %s", when, got, status, zone)
		}
	}
	check("first cycle", state.ZoneWorking, state.StatusIdle)
	clk.advance(time.Second)
	check("a cycle that changed nothing", state.ZoneWorking, state.StatusIdle)
	clk.advance(state.NoSignalGrace)
	check("past the no-signal grace", state.ZoneNeedsYou, state.StatusNoSignal)
}

// A tally survives its encoding, silent servers included, and a cut one is
// refused.
func TestTallyRoundTrip(t *testing.T) {
	in := state.Tally{
		Zones:    map[state.Zone]int{state.ZoneWorking: 3, state.ZoneDone: 1},
		Statuses: map[state.Status]int{state.StatusIdle: 2, state.StatusWorking: 1, state.StatusTerminated: 1},
		Live:     3, IdleStack: 2,
		Silent: map[string]time.Time{"default": statetest.T0, "other": statetest.T0.Add(time.Minute)},
	}
	b := state.EncodeTally(in)
	out, err := state.DecodeTally(b)
	if err != nil || !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip: %+v, %v", out, err)
	}
	if !bytes.Equal(b, state.EncodeTally(out)) {
		t.Fatal("one tally, two encodings")
	}
	for n := range len(b) {
		if _, err := state.DecodeTally(b[:n]); err == nil {
			t.Fatalf("a tally cut to %d of %d bytes decoded", n, len(b))
		}
	}
}

// TestHookOnlyCycleRefreshesTheSnapshot: the board's hook-only cycles
// (Ingest) put what a hook line changed in the snapshot, stamped as of the
// last tmux read, so `ls --json --watch` on a host whose board holds the
// store streams the hook at once, not a second later.
func TestHookOnlyCycleRefreshesTheSnapshot(t *testing.T) {
	c, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 10}}
	put(t, c.Store, r)
	if _, err := c.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	read := clk.t
	clk.advance(300 * time.Millisecond)
	appendRaw(t, c.Store.Dir, r.ID, line(r.ID, "waiting_input"))
	if _, err := c.Ingest(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs, at, err := c.Store.Snapshot()
	if err != nil || len(recs) != 1 || recs[0].Activity.State != state.ActivityWaitingInput {
		t.Fatalf("after a hook-only cycle: %v, %v", recs, err)
	}
	if !at.Equal(read) {
		t.Errorf("stamped %v, want the last tmux read's %v", at, read)
	}
}
