package tui

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// Only one board notifies (docs/design.md §15): two boards on one state
// dir (one per window is common) would tell every entry into Needs you
// twice. The one that notifies holds an advisory lock on this file in the
// state dir for its life; the kernel drops it when that board ends, however
// it ends, and the next board to try takes it over.
const notifyLockName = "notify.lock"

// notifyLock is a board's claim to notify. Its zero value (no state dir)
// always notifies.
type notifyLock struct {
	path string
	mu   sync.Mutex
	f    *os.File // open, and locked, while this board notifies
}

func newNotifyLock(stateDir string) *notifyLock {
	if stateDir == "" {
		return &notifyLock{}
	}
	return &notifyLock{path: filepath.Join(stateDir, notifyLockName)}
}

// take reports whether this board notifies: it holds the lock, or takes
// it now. It never waits. A lock file that cannot be opened leaves every
// board notifying: a notification twice beats none.
func (l *notifyLock) take() bool {
	if l == nil || l.path == "" {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		return true
	}
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return true
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		return false
	}
	l.f = f
	return true
}

// release gives the lock up (the board quits; the next board takes it).
func (l *notifyLock) release() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		_ = l.f.Close() // and with it the lock
		l.f = nil
	}
}
