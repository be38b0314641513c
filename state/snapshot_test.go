package state

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSnapshotIsTheLastCycle: a cycle leaves its records in the snapshot,
// a cycle that changes nothing restamps it, and any other write removes it.
func TestSnapshotIsTheLastCycle(t *testing.T) {
	c, f, clk := newCollector(t)
	s := c.Store
	r := rec(ActivityIdle)
	f.obs = []Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 10}}
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
	if err != nil || len(recs) != 1 || recs[0].ID != r.ID || !at.Equal(t0) {
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
