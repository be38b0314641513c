package store

import (
	"os"
	"path/filepath"
	"time"

	"lanes/internal/fsafe"
)

// The store's cycle markers: files beside the store, not keys in it, so a
// cycle that changes nothing writes nothing to the store.

// lastCyclePath's mtime is when the last cycle's read began. A file, not a
// store key, so a cycle that changes nothing writes nothing to the store.
func (s *Store) lastCyclePath() string { return filepath.Join(s.Dir, "last-cycle") }

func (s *Store) markCycle(at time.Time) { _ = fsafe.Touch(s.lastCyclePath(), at) }

// reapNextPath exists while the last read saw a pane dead without its time,
// so the next read — by whichever process — reaps first (tmux 3.3). A file,
// so a cycle learns it without opening the store before its tmux read.
func (s *Store) reapNextPath() string { return filepath.Join(s.Dir, "reap-next") }

func (s *Store) reapNext() bool {
	_, err := os.Stat(s.reapNextPath())
	return err == nil
}

func (s *Store) setReapNext(on bool) {
	if on == s.reapNext() {
		return
	}
	if on {
		_ = fsafe.WriteFile(s.reapNextPath(), nil, 0o600)
	} else {
		_ = os.Remove(s.reapNextPath())
	}
}

// LastCycle is when the last finished cycle's tmux read began, by any lanes
// process (for status-line reuse); zero when none ran.
func (s *Store) LastCycle() time.Time {
	fi, err := os.Stat(s.lastCyclePath())
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
