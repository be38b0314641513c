package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A snapshot planted as a link is not restamped through it, and an absent
// one is not created by a restamp.
func TestKeepSnapshotFollowsNoLink(t *testing.T) {
	s := New(t.TempDir())
	at := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)
	if s.keepSnapshot(nil, 0, at) {
		t.Fatal("restamped a snapshot that does not exist")
	}
	if _, err := os.Lstat(s.snapshotPath()); err == nil {
		t.Fatal("the restamp created a snapshot")
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	_ = os.Chtimes(victim, old, old)
	if err := os.Symlink(victim, s.snapshotPath()); err != nil {
		t.Fatal(err)
	}
	if s.keepSnapshot(nil, 0, at) {
		t.Error("restamped a link as a snapshot")
	}
	if fi, err := os.Stat(victim); err != nil || !fi.ModTime().Equal(old) {
		t.Fatalf("the restamp touched the link's target: %v %v", fi.ModTime(), err)
	}
}

// lanes.db as a link (to a store, to an empty file, to nothing) is refused
// with what to do; the file it points to is left as it was.
func TestStoreLinkIsRefused(t *testing.T) {
	elsewhere := New(t.TempDir())
	if err := elsewhere.Update(func(*Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"a store":       elsewhere.Path(),
		"an empty file": empty,
		"nothing":       filepath.Join(t.TempDir(), "nowhere.db"),
	} {
		t.Run(name, func(t *testing.T) {
			before, _ := os.ReadFile(target)
			s := New(t.TempDir())
			if err := os.Symlink(target, s.Path()); err != nil {
				t.Fatal(err)
			}
			for what, op := range map[string]func() error{
				"View":   func() error { return s.View(func(*Tx) error { return nil }) },
				"Update": func() error { return s.Update(func(*Tx) error { return nil }) },
			} {
				if err := op(); err == nil || !strings.Contains(err.Error(), "is a symlink") {
					t.Errorf("%s through a lanes.db link to %s: %v", what, name, err)
				}
			}
			if after, _ := os.ReadFile(target); string(after) != string(before) {
				t.Fatalf("the link's target changed: %d bytes, was %d", len(after), len(before))
			}
		})
	}
}
