package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	boltErrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged: the store file exists but cannot be read as a store. Nothing
// reads or writes it then (so nothing is ingested against an empty or
// partial store); `lanes doctor --repair` copies out what is readable.
var ErrDamaged = errors.New("store damaged")

// repairHint is what every damaged-store error tells the user to do.
const repairHint = "run `lanes doctor --repair` (it keeps the damaged file aside and copies every readable record into a new store)"

// damageError says what is wrong with which store file; it is ErrDamaged,
// and ErrMissing too when the file is gone.
type damageError struct {
	path, what string
	missing    bool
}

func (e *damageError) Error() string {
	what, _ := Damage(e)
	return what + "; " + repairHint
}

func (e *damageError) Is(target error) bool {
	return target == ErrDamaged || e.missing && target == ErrMissing
}

// Damage is err's account of a damaged store without the advice to
// repair it, for a report that gives the fix on a line of its own; ok is
// false when err says no store is damaged.
func Damage(err error) (what string, ok bool) {
	var de *damageError
	if !errors.As(err, &de) {
		return "", false
	}
	kind := ErrDamaged
	if de.missing {
		kind = ErrMissing
	}
	return fmt.Sprintf("%v: %s: %s", kind, de.path, de.what), true
}

func (s *Store) damaged(what string) error { return &damageError{path: s.Path(), what: what} }

// guard runs fn, turning a panic raised inside bbolt (it asserts on pages
// it cannot make sense of) or a memory fault on the mapped file into
// ErrDamaged. Any other panic is a bug of lanes' own and goes on: calling
// it a damaged store would send the user to repair a healthy file.
func (s *Store) guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if !storePanic(p) {
				panic(p)
			}
			err = s.damaged(fmt.Sprint(p))
		}
	}()
	return fn()
}

// storePanic reports whether the panic being recovered (its frames are
// still on the stack, under runtime.gopanic) was a fault on mapped memory
// or was raised by bbolt's own code, not by a callback bbolt called.
func storePanic(p any) bool {
	if _, fault := p.(interface{ Addr() uintptr }); fault {
		return true // SetPanicOnFault: a bad address, not a nil pointer
	}
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(f.Function, "runtime."):
			return strings.HasPrefix(f.Function, "go.etcd.io/bbolt")
		}
		if !more {
			return false
		}
	}
}

// corrupt reports whether bbolt refused a file as not a valid store.
func corrupt(err error) bool {
	return errors.Is(err, boltErrors.ErrInvalid) || errors.Is(err, boltErrors.ErrVersionMismatch) ||
		errors.Is(err, boltErrors.ErrChecksum) || errors.Is(err, boltErrors.ErrInvalidMapping)
}

// boltOpen opens the file under guard. bbolt reads the freelist while
// opening for writing and panics on a damaged one before it hands back the
// DB: its file mapping then keeps the lock held for as long as this process
// lives (a board would see "store busy" ever after), so the freelist is
// checked first. The file is closed on any other panic.
func (s *Store) boltOpen(path string, readOnly bool) (*bolt.DB, error) {
	if !readOnly {
		if err := s.probeFreelist(path); err != nil {
			return nil, err
		}
	}
	var file *os.File
	opts := &bolt.Options{Timeout: s.LockTimeout, ReadOnly: readOnly,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			f, err := os.OpenFile(name, flag|syscall.O_NOFOLLOW, perm)
			if errors.Is(err, syscall.ELOOP) {
				err = storeLink(name)
			}
			file = f
			return f, err
		}}
	var db *bolt.DB
	err := s.guard(func() error {
		var err error
		db, err = bolt.Open(path, 0o600, opts)
		return err
	})
	switch {
	case errors.Is(err, ErrDamaged):
		if file != nil {
			file.Close()
		}
		return nil, err
	case corrupt(err):
		return nil, s.damaged(err.Error())
	case err == nil && !readOnly && replaced(file, path):
		db.Close()
		return nil, errReplaced
	}
	return db, err
}

// errReplaced: the file opened was put aside (doctor --repair) before its
// lock was had; the open is tried again on the file now at the path.
var errReplaced = errors.New("the store file was replaced while waiting for its lock")

// replaced reports whether f is no longer the file at path.
func replaced(f *os.File, path string) bool {
	fi, err := f.Stat()
	now, nerr := os.Lstat(path)
	return err != nil || nerr != nil || !os.SameFile(fi, now)
}

// refuseEmpty reports an empty store file as damaged: bbolt would make a
// new store of it, silently starting over a store that existed. A file that
// another lanes process is creating is empty only until that process, which
// holds its lock, has written it; so only a file still empty under a lock
// of our own is refused. A lock not had in time is left to the open that
// follows, which reports it busy.
func (s *Store) refuseEmpty() error {
	if fi, err := os.Stat(s.Path()); err != nil || fi.Size() > 0 {
		return nil
	}
	f, err := os.OpenFile(s.Path(), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, syscall.ELOOP) {
		return storeLink(s.Path())
	}
	if err != nil {
		return nil
	}
	defer f.Close() // and with it the lock
	if !lockFile(f, syscall.LOCK_SH, s.LockTimeout) {
		return nil
	}
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		return s.damaged("the file is empty (0 bytes), so every record it held is gone from it")
	}
	return nil
}

// probeFreelist checks the page the current meta page names as the
// freelist, as bbolt will read it (file format: go.etcd.io/bbolt's
// internal/common page.go). A file bbolt refuses by itself (no
// valid meta page) passes here and is refused by the open.
//
// It reads without the lock first (another process is usually not
// writing), and a page that looks wrong is read again under a shared lock:
// a commit may have reused the page the meta read an instant earlier
// named. A lock not had in time is left to the open, which reports busy.
func (s *Store) probeFreelist(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil // the open reports it
	}
	defer f.Close() // and with it the lock
	if err := s.probe(f); err == nil || !lockFile(f, syscall.LOCK_SH, s.LockTimeout) {
		return nil
	}
	return s.probe(f)
}

// lockFile takes flock how (LOCK_SH or LOCK_EX: bbolt's lock) on f,
// waiting up to timeout; it reports whether it got it.
func lockFile(f *os.File, how int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB) != nil {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// probe is probeFreelist's check of the open file f.
func (s *Store) probe(f *os.File) error {
	m, ok := readMeta(f)
	if !ok {
		return nil
	}
	size := int64(m.pageSize)
	if m.freelist == ^uint64(0) { // none kept: bbolt rebuilds it by a scan
		return nil
	}
	bad := func(what string, args ...any) error {
		return s.damaged(fmt.Sprintf("the freelist page %d "+what, append([]any{m.freelist}, args...)...))
	}
	if m.freelist < 2 || m.freelist >= m.pgid {
		return bad("is outside the file's %d pages", m.pgid)
	}
	p := make([]byte, pageHeader+8)
	if _, err := f.ReadAt(p, int64(m.freelist)*size); err != nil {
		return bad("cannot be read: %v", err)
	}
	le := binary.LittleEndian
	id, flags, count, overflow := le.Uint64(p), le.Uint16(p[8:]), uint64(le.Uint16(p[10:])), uint64(le.Uint32(p[12:]))
	if count == 0xFFFF { // the real count is the first element
		count = le.Uint64(p[pageHeader:]) + 1
	}
	switch {
	case id != m.freelist || flags != 0x10:
		return bad("is not a freelist page (it says page %d, type %#x)", id, flags)
	case m.freelist+1+overflow > m.pgid || count > (1+overflow)*uint64(size)/8:
		return bad("claims %d entries over %d pages", count, 1+overflow)
	}
	return nil
}
