package store

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
	"lanes/state/statetest"
)

// storeState is the activity the store holds for id.
func storeState(t *testing.T, s *Store, id string) state.Activity {
	t.Helper()
	var a state.Activity
	if err := s.View(func(tx *Tx) error {
		r, err := tx.Get(id)
		if err == nil {
			a = r.Activity.State
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return a
}

// snapshotAgrees fails the test when a reader would take a snapshot whose
// records are not the store's.
func snapshotAgrees(t *testing.T, s *Store, id, when string) {
	t.Helper()
	recs, at, err := s.Snapshot()
	if err != nil {
		return // no snapshot: readers go to the store
	}
	if want := storeState(t, s, id); len(recs) != 1 || recs[0].Activity.State != want {
		t.Fatalf("%s: a reader takes a snapshot stamped %v showing %v; the store holds %v", when, at, recs[0].Activity.State, want)
	}
}

// TestSnapshotNeverOutlivesItsStore: a snapshot that failed to be written
// (a full disk) is not restamped by the cycles that follow, and a write
// that bypassed Store.Update (an older lanes, a crash before the removal)
// makes readers refuse the snapshot and the next cycle replace it.
func TestSnapshotNeverOutlivesItsStore(t *testing.T) {
	c, f, clk := newCollector(t)
	s := c.Store
	r := statetest.Rec(state.ActivityIdle)
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 10}}
	put(t, s, r)
	cycle := func() {
		t.Helper()
		clk.advance(time.Second)
		if _, err := c.Cycle(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	cycle()
	snapshotAgrees(t, s, r.ID, "after a cycle")

	write := snapshotWrite
	t.Cleanup(func() { snapshotWrite = write })
	snapshotWrite = func(string, []byte, os.FileMode) error { return syscall.ENOSPC }
	if err := AppendLine(s.Dir, state.Line{V: 1, At: clk.t, Session: r.ID, Launch: "L1", Agent: "generic", Event: "active"}); err != nil {
		t.Fatal(err)
	}
	cycle() // commits the event; its snapshot cannot be written
	snapshotWrite = write
	snapshotAgrees(t, s, r.ID, "after a cycle whose snapshot write failed")
	cycle() // changes nothing
	snapshotAgrees(t, s, r.ID, "after an unchanged cycle that followed a failed write")

	// A write that is not through Store.Update.
	r2 := get(t, s, r.ID)
	r2.Activity.State = state.ActivityBlocked
	db, err := bolt.Open(s.Path(), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(btx *bolt.Tx) error { return (&Tx{tx: btx}).Put(r2) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	snapshotAgrees(t, s, r.ID, "after a write that bypassed Store.Update")
	cycle()
	snapshotAgrees(t, s, r.ID, "after an unchanged cycle that followed that write")
	if _, _, err := s.Snapshot(); err != nil {
		t.Fatalf("the cycle after that write left no snapshot: %v", err)
	}
}

// TestAbandonedReadStampsNothing: a cycle whose tmux read its caller cut
// short (the status line's budget) does not make the last cycle or its
// snapshot look current, so a reader does not take it as a read of tmux.
func TestAbandonedReadStampsNothing(t *testing.T) {
	c, f, clk := newCollector(t)
	s := c.Store
	r := statetest.Rec(state.ActivityIdle)
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 10}}
	put(t, s, r)
	if _, err := c.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, line := range []bool{false, true} { // nothing to ingest, then a line
		if line {
			if err := AppendLine(s.Dir, state.Line{V: 1, At: clk.t, Session: r.ID, Launch: "L1", Agent: "generic", Event: "active"}); err != nil {
				t.Fatal(err)
			}
		}
		clk.advance(5 * time.Second)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		f.err = context.Canceled
		if _, err := c.Cycle(ctx); err != nil {
			t.Fatal(err)
		}
		if last := s.LastCycle(); !last.Equal(statetest.T0) {
			t.Errorf("line=%v: an abandoned read marked the last cycle at %v, want %v", line, last, statetest.T0)
		}
		if _, at, err := s.Snapshot(); err == nil && !at.Equal(statetest.T0) {
			t.Errorf("line=%v: an abandoned read left the snapshot stamped %v, want %v or none", line, at, statetest.T0)
		}
		snapshotAgrees(t, s, r.ID, "after an abandoned read")
	}
}
