package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// damagedFixture is a store of n sessions, each with history and a spool
// file of two lines: the first ingested, the second waiting. It returns
// the store and a pristine copy of its file.
func damagedFixture(t *testing.T, n int) (*Store, []byte) {
	t.Helper()
	s := New(filepath.Join(t.TempDir(), "state"))
	if err := s.Update(func(tx *Tx) error {
		for i := range n {
			r := statetest.Rec(state.ActivityIdle)
			r.ID, r.Name = fmt.Sprintf("r%07d", i), fmt.Sprintf("n%d", i)
			r.Command = []string{"claude", strings.Repeat("x", 200)} // a few records a page
			if err := tx.Put(r); err != nil {
				return err
			}
			for range 3 {
				if err := tx.AppendHistory(r.ID, state.Transition{At: statetest.T0, From: state.ActivityIdle, To: state.ActivityActive, Source: "hook:claude"}); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	line := func(i int, ev string) {
		if err := AppendLine(s.Dir, state.Line{V: 1, At: statetest.T0, Session: fmt.Sprintf("r%07d", i), Launch: "L1", Agent: "generic", Event: ev}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		line(i, "active")
	}
	if _, err := (&Collector{Store: s, Now: func() time.Time { return statetest.T0 }}).Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		line(i, "idle")
	}
	b, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// garbage is a page of bytes no bbolt page starts with.
func garbage() []byte {
	g := make([]byte, 4096)
	for i := range g {
		g[i] = byte(i*7 + 13)
	}
	return g
}

// TestEveryDamagedPageIsAnErrorAndRepairs writes garbage over each page of
// a real store in turn: no read, write or check panics, a read that works
// sees every record, and repair accounts for every session (recovered, or
// rebuilt from its history and spool) and leaves a store that passes the check.
func TestEveryDamagedPageIsAnErrorAndRepairs(t *testing.T) {
	const n = 40
	s, pristine := damagedFixture(t, n)
	partial := false
	for k := 2; k*4096 < len(pristine); k++ {
		b := append([]byte(nil), pristine...)
		copy(b[k*4096:], garbage())
		if err := os.WriteFile(s.Path(), b, 0o600); err != nil {
			t.Fatal(err)
		}
		var all []*state.Record
		verr := s.View(func(tx *Tx) error { var err error; all, err = tx.All(); return err })
		if verr == nil && len(all) != n {
			t.Fatalf("page %d: a read that works saw %d of %d records", k, len(all), n)
		}
		if verr != nil && !errors.Is(verr, ErrDamaged) {
			t.Fatalf("page %d: read error %v, want ErrDamaged", k, verr)
		}
		if verr != nil && !strings.Contains(verr.Error(), "lanes doctor --repair") {
			t.Fatalf("page %d: the error does not say what to do: %v", k, verr)
		}
		cerr := s.Check()
		if verr != nil && cerr == nil {
			t.Fatalf("page %d: reads fail (%v) but the check passes", k, verr)
		}
		rep, err := s.Repair(statetest.T0.Add(time.Duration(k)*time.Second), Traces{})
		if err != nil {
			t.Fatalf("page %d: repair: %v", k, err)
		}
		if rep.Healthy != (cerr == nil) {
			t.Fatalf("page %d: repair says healthy=%v, check said %v", k, rep.Healthy, cerr)
		}
		if rep.Healthy {
			continue
		}
		if rep.Recovered+len(rep.Rebuilt) != n {
			t.Fatalf("page %d: recovered %d + rebuilt %d != %d sessions", k, rep.Recovered, len(rep.Rebuilt), n)
		}
		if 0 < rep.Recovered && rep.Recovered < n {
			partial = true
		}
		if err := s.Check(); err != nil {
			t.Fatalf("page %d: the repaired store fails the check: %v", k, err)
		}
		if kept, err := os.ReadFile(rep.KeptAt); err != nil || string(kept) != string(b) {
			t.Fatalf("page %d: the damaged file was not kept aside as it was (%v)", k, err)
		}
		if err := s.View(func(tx *Tx) error { var err error; all, err = tx.All(); return err }); err != nil {
			t.Fatalf("page %d: reading the repaired store: %v", k, err)
		}
		if len(all) != n {
			t.Fatalf("page %d: the repaired store holds %d records of %d", k, len(all), n)
		}
		for _, r := range all {
			if r.Runtime.TerminatedReason == ReasonRebuilt {
				continue // no tmux read: its session is not known to run
			}
			if r.Activity.State != state.ActivityIdle || r.EventsApplied < 2 {
				t.Fatalf("page %d: %s did not catch up with its spool: %s, applied %d", k, r.ID, r.Activity.State, r.EventsApplied)
			}
		}
	}
	if !partial {
		t.Fatal("no damaged page left some records readable: the per-page salvage is not exercised")
	}
}

// TestEmptyStoreIsRefusedNotRecreated: a store file cut to 0 bytes is not
// made a new empty store; nothing reads or ingests; repair keeps it aside
// and rebuilds the sessions the spool shows.
func TestEmptyStoreIsRefusedNotRecreated(t *testing.T) {
	s, _ := damagedFixture(t, 5)
	if err := os.Truncate(s.Path(), 0); err != nil {
		t.Fatal(err)
	}
	verr := s.View(func(tx *Tx) error { _, err := tx.All(); return err })
	uerr := s.Update(func(tx *Tx) error { return nil })
	_, cerr := (&Collector{Store: s}).Cycle(context.Background())
	for _, err := range []error{verr, uerr, cerr} {
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "empty") {
			t.Fatalf("error %v, want ErrDamaged saying the file is empty", err)
		}
	}
	if fi, err := os.Stat(s.Path()); err != nil || fi.Size() != 0 {
		t.Fatalf("the empty store was touched: %v, %v", fi, err)
	}
	rep, err := s.Repair(statetest.T0, Traces{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Recovered != 0 || len(rep.Rebuilt) != 5 || rep.Replayed != 5 || rep.Dropped != 10 {
		t.Fatalf("repair of an empty store: %+v", rep)
	}
	if fi, err := os.Stat(rep.KeptAt); err != nil || fi.Size() != 0 {
		t.Fatalf("the empty file was not kept aside: %v", err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("the new store: %v", err)
	}
}
