package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// damageFreelist writes garbage over the page the store's meta names as
// its freelist: a damaged store whose every record is still readable.
func damageFreelist(t *testing.T, s *Store) {
	t.Helper()
	f, err := os.OpenFile(s.Path(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, _ := readMeta(f)
	if _, err := f.WriteAt(garbage(), int64(m.freelist*m.pageSize)); err != nil {
		t.Fatal(err)
	}
}

// TestRepairIngestsPastALongLine: repair's spool cycles go on while they
// make progress, also through the cycles that only skip the rest of a line
// too long to keep, so a line after it is applied and counted.
func TestRepairIngestsPastALongLine(t *testing.T) {
	s, _ := damagedFixture(t, 1)
	entries, err := os.ReadDir(s.SpoolDir())
	if err != nil || len(entries) != 1 {
		t.Fatalf("spool: %v %v", entries, err)
	}
	path := filepath.Join(s.SpoolDir(), entries[0].Name())
	blocked, _ := json.Marshal(state.Line{V: 1, At: statetest.T0, Session: "r0000000", Launch: "L1", Agent: "generic", Event: "blocked"})
	tail := append(bytes.Repeat([]byte("x"), 3*maxReadPerFile), '\n')
	tail = append(append(tail, blocked...), '\n')
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(tail); err != nil {
		t.Fatal(err)
	}
	f.Close()
	damageFreelist(t, s)
	rep, err := s.Repair(statetest.T0.Add(time.Minute), Traces{})
	if err != nil {
		t.Fatal(err)
	}
	if got := storeState(t, s, "r0000000"); rep.Ingested != 2 || rep.Dropped != 1 || got != state.ActivityBlocked {
		t.Fatalf("repair: %d line(s) applied, %d dropped, the session is %s; want 2 (idle, blocked), 1 (the long line), blocked", rep.Ingested, rep.Dropped, got)
	}
}

// TestWriterNeverCommitsIntoAReplacedFile: a writer that opened lanes.db
// just before repair put a new file in its place, and got the lock only
// after, writes into the new file, not into the one kept aside.
func TestWriterNeverCommitsIntoAReplacedFile(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "state"))
	put(t, s, statetest.Rec(state.ActivityIdle))
	pristine, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	lock, err := os.Open(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		r := statetest.Rec(state.ActivityBlocked)
		r.ID = "efgh5678"
		done <- s.Update(func(tx *Tx) error { return tx.Put(r) })
	}()
	// The writer holds lanes.db open, waiting for the lock (seen twice, so
	// not the freelist probe's brief open).
	for seen, deadline := 0, time.Now().Add(10*time.Second); seen < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the writer never opened the store")
		}
		if openedBy(s.Path()) >= 2 {
			seen++
		} else {
			seen = 0
		}
	}
	tmp := s.Path() + ".new"
	if err := os.WriteFile(tmp, pristine, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(s.Path(), s.Path()+".kept"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, s.Path()); err != nil {
		t.Fatal(err)
	}
	lock.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := s.View(func(tx *Tx) error { _, err := tx.Get("efgh5678"); return err }); errors.Is(err, state.ErrNoSession) {
		t.Fatal("the write went into the file that was replaced")
	} else if err != nil {
		t.Fatal(err)
	}
}

// openedBy counts this process's open files on path.
func openedBy(path string) int {
	fds, _ := os.ReadDir("/proc/self/fd")
	n := 0
	for _, fd := range fds {
		if p, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && p == path {
			n++
		}
	}
	return n
}
