package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	boltErrors "go.etcd.io/bbolt/errors"

	"lanes/state"
)

// SchemaVersion is the store layout this build reads and writes. A new
// record codec version (state/codec.go) is a new schema version, so a build that
// cannot read the records refuses the store as too new rather than finding
// every record damaged.
const SchemaVersion = 21

var (
	// ErrBusy: another process held the store's lock past the retry budget.
	ErrBusy = errors.New("store busy")
)

var (
	bucketMeta     = []byte("meta")
	bucketSessions = []byte("sessions")
	bucketHistory  = []byte("history")
	bucketSpool    = []byte("spool")
	bucketCounters = []byte("counters")
	keySchema      = []byte("schema")
)

// Store is the bbolt file under the state directory. It holds no open file:
// every View or Update opens, runs one transaction and closes, so no lanes
// process keeps the lock between cycles.
type Store struct {
	Dir         string
	LockTimeout time.Duration // per attempt
	Attempts    int
}

// New returns the store in dir with a command's lock budget, about
// 5 s. A write holds the lock for milliseconds, but on a loaded machine
// its fsync can take a second or more, and a person's lanes new or kill
// had better wait for it than fail.
func New(dir string) *Store {
	return &Store{Dir: dir, LockTimeout: 250 * time.Millisecond, Attempts: 25}
}

// ReaderAttempts is the lock budget, about 1 s, of a cycle that has
// something to fall back on: ls the last cycle's snapshot, the board its
// next cycle.
const ReaderAttempts = 4

// Path is the store file.
func (s *Store) Path() string { return filepath.Join(s.Dir, "lanes.db") }

// SpoolDir is where hooks append their lines.
func (s *Store) SpoolDir() string { return SpoolDir(s.Dir) }

func (s *Store) open(readOnly bool) (*bolt.DB, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating state dir: %w", err)
	}
	if _, err := os.Lstat(s.Path()); errors.Is(err, os.ErrNotExist) {
		if found := s.traces(); len(found) > 0 {
			return nil, s.missing(found)
		}
		if err := s.create(); err != nil {
			return nil, err
		}
	}
	if err := s.refuseEmpty(); err != nil {
		return nil, err
	}
	var lastErr error
	began := time.Now()
	for range max(s.Attempts, 1) {
		db, err := s.boltOpen(s.Path(), readOnly)
		if err == nil && readOnly {
			switch err = s.guard(func() error { return olderSchema(db) }); {
			case errors.Is(err, errOlderSchema):
				// An older layout migrates before anyone reads it.
				db.Close()
				readOnly = false
				db, err = s.boltOpen(s.Path(), false)
			case err != nil:
				db.Close()
				return nil, err
			}
		}
		if err == nil {
			if readOnly {
				return db, nil
			}
			if err := s.guard(func() error { return migrate(db) }); err != nil {
				db.Close()
				return nil, err
			}
			return db, nil
		}
		if errors.Is(err, ErrDamaged) {
			return nil, err
		}
		if !errors.Is(err, boltErrors.ErrTimeout) && !errors.Is(err, errReplaced) {
			return nil, fmt.Errorf("opening store %s: %w", s.Path(), err)
		}
		lastErr = err
	}
	return nil, fmt.Errorf("%w: another lanes process holds %s (gave up after %s: %v); try again, or find it with `fuser %s`",
		ErrBusy, s.Path(), waited(time.Since(began)), lastErr, s.Path())
}

// waited is a wait as people read it: what was actually waited (bbolt
// gives up a little before its timeout), in whole milliseconds under a
// second, else in seconds to 10 ms.
func waited(d time.Duration) string {
	if d = d.Round(time.Millisecond); d < time.Second-5*time.Millisecond {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2f s", d.Round(10*time.Millisecond).Seconds())
}

// create makes the store when there is none: built and initialised in a
// temp file, then linked into place, so lanes.db never exists empty (a
// 0-byte lanes.db is refused as damaged, and bbolt creates its file before
// it locks it). When another process links first, its store is the one.
func (s *Store) create() error {
	tmp, err := os.CreateTemp(s.Dir, "lanes.db.new-*")
	if err != nil {
		return fmt.Errorf("creating the store: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	db, err := bolt.Open(tmp.Name(), 0o600, &bolt.Options{Timeout: s.LockTimeout})
	if err != nil {
		return fmt.Errorf("creating the store: %w", err)
	}
	err = migrate(db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Link(tmp.Name(), s.Path()); errors.Is(err, os.ErrExist) {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("creating the store %s: %w", s.Path(), err)
	}
	return nil
}

// View runs fn in one read transaction.
func (s *Store) View(fn func(*Tx) error) error {
	db, err := s.open(true)
	if err != nil {
		return err
	}
	defer db.Close()
	return s.guard(func() error {
		return db.View(func(btx *bolt.Tx) error {
			if err := checkSchema(btx); err != nil {
				return err
			}
			return fn(&Tx{tx: btx})
		})
	})
}

// Update runs fn in one write transaction; nothing is written if fn fails.
// A write other than a cycle's leaves the snapshot behind the store, so
// it is removed.
func (s *Store) Update(fn func(*Tx) error) error {
	return s.update(fn, func(err error) {
		if err == nil {
			s.removeSnapshot()
		}
	})
}

// update is Update, then after(fn's result) while the lock is still held.
func (s *Store) update(fn func(*Tx) error, after func(error)) error {
	db, err := s.open(false)
	if err != nil {
		return err
	}
	defer db.Close()
	err = s.guard(func() error {
		return db.Update(func(btx *bolt.Tx) error { return fn(&Tx{tx: btx}) })
	})
	after(err)
	return err
}

// Tx is one store transaction.
type Tx struct {
	tx    *bolt.Tx
	wrote bool // whether anything was written
}

func (t *Tx) bucket(name []byte) *bolt.Bucket {
	if b := t.tx.Bucket(name); b != nil {
		return b
	}
	if t.tx.Writable() {
		b, _ := t.tx.CreateBucketIfNotExists(name)
		return b
	}
	return nil
}

// Get loads the record with the given id.
func (t *Tx) Get(id string) (*state.Record, error) {
	b := t.bucket(bucketSessions)
	if b == nil {
		return nil, fmt.Errorf("%w: %s", state.ErrNoSession, id)
	}
	v := b.Get([]byte(id))
	if v == nil {
		return nil, fmt.Errorf("%w: %s", state.ErrNoSession, id)
	}
	r, err := state.DecodeRecord(v)
	if err != nil {
		return nil, fmt.Errorf("decoding session %s: %w", id, err)
	}
	return r, nil
}

// Put stores the record.
func (t *Tx) Put(r *state.Record) error {
	t.wrote = true
	return t.bucket(bucketSessions).Put([]byte(r.ID), state.EncodeRecord(r))
}

// All loads every record, in id order.
func (t *Tx) All() ([]*state.Record, error) {
	b := t.bucket(bucketSessions)
	if b == nil {
		return nil, nil
	}
	var out []*state.Record
	err := b.ForEach(func(k, v []byte) error {
		r, err := state.DecodeRecord(v)
		if err != nil {
			return fmt.Errorf("decoding session %s: %w", k, err)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// Delete removes a record and its history.
func (t *Tx) Delete(id string) error {
	t.wrote = true
	if r, err := t.Get(id); err == nil {
		if err := t.keepSpent(r); err != nil {
			return err
		}
	}
	if h := t.bucket(bucketHistory); h != nil && h.Bucket([]byte(id)) != nil {
		if err := h.DeleteBucket([]byte(id)); err != nil {
			return err
		}
	}
	return t.bucket(bucketSessions).Delete([]byte(id))
}

// Resolve finds a session by name or id: the live session of that name
// first, else the one with that id, else the most recently terminated one
// of that name (docs/design.md §2).
func (t *Tx) Resolve(nameOrID string) (*state.Record, error) {
	all, err := t.All()
	if err != nil {
		return nil, err
	}
	return state.Resolve(all, nameOrID)
}

// AppendHistory adds a transition to the session's history, keeping the
// last HistoryLimit.
func (t *Tx) AppendHistory(id string, tr state.Transition) error {
	t.wrote = true
	h, err := t.bucket(bucketHistory).CreateBucketIfNotExists([]byte(id))
	if err != nil {
		return err
	}
	seq, _ := h.NextSequence()
	v, _ := json.Marshal(tr)
	if err := h.Put(seqKey(seq), v); err != nil {
		return err
	}
	if seq > state.HistoryLimit {
		return h.Delete(seqKey(seq - state.HistoryLimit))
	}
	return nil
}

// History returns up to n of the session's latest transitions, oldest first.
func (t *Tx) History(id string, n int) ([]state.Transition, error) {
	hb := t.bucket(bucketHistory)
	if hb == nil {
		return nil, nil
	}
	h := hb.Bucket([]byte(id))
	if h == nil {
		return nil, nil
	}
	var out []state.Transition
	c := h.Cursor()
	for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
		var tr state.Transition
		if err := json.Unmarshal(v, &tr); err != nil {
			return nil, err
		}
		out = append(out, tr)
	}
	slices.Reverse(out)
	return out, nil
}

func seqKey(n uint64) []byte {
	k := make([]byte, 8)
	binary.BigEndian.PutUint64(k, n)
	return k
}

// Counters are store-wide drop counts for lines that name no known session.
func (t *Tx) Counters() (map[string]int, error) {
	out := map[string]int{}
	b := t.bucket(bucketCounters)
	if b == nil {
		return out, nil
	}
	err := b.ForEach(func(k, v []byte) error {
		n, _ := strconv.Atoi(string(v))
		out[string(k)] = n
		return nil
	})
	return out, err
}

// Count adds n to a store-wide counter.
func (t *Tx) Count(key string, n int) error {
	t.wrote = true
	b := t.bucket(bucketCounters)
	old, _ := strconv.Atoi(string(b.Get([]byte(key))))
	return b.Put([]byte(key), []byte(strconv.Itoa(old+n)))
}

// Schema reports the stored schema version (for lanes doctor).
func (t *Tx) Schema() int {
	return schemaOf(t.tx.Bucket(bucketMeta))
}

// Size is the store file's size in bytes.
func (t *Tx) Size() int64 { return t.tx.Size() }
