package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
)

// Check reads every key of every bucket and decodes every record, then runs
// bbolt's own consistency check; it returns ErrDamaged when any of that
// fails. The store is opened for writing, so bbolt loads its freelist here
// under guard and not in the goroutine of its check, where a panic could
// not be recovered; nothing is written.
func (s *Store) Check() error {
	err := s.Update(func(tx *Tx) error {
		if err := walkBucket(tx.tx.Cursor(), nil); errors.Is(err, state.ErrSchemaTooNew) {
			return err // a newer lanes wrote it: not damage
		} else if err != nil {
			return s.damaged(err.Error())
		}
		var problems []string
		for err := range tx.tx.Check() {
			problems = append(problems, err.Error())
		}
		if len(problems) > 0 {
			return s.damaged(fmt.Sprintf("bbolt's check found %d problem(s), first: %s", len(problems), problems[0]))
		}
		return errUnchanged
	})
	if errors.Is(err, errUnchanged) {
		return nil
	}
	return err
}

// walkBucket visits every key under c, nested buckets included, and decodes
// every record of the sessions bucket; a panic on a bad page reaches the
// caller's guard.
func walkBucket(c *bolt.Cursor, path []byte) error {
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil {
			if err := walkBucket(c.Bucket().Bucket(k).Cursor(), k); err != nil {
				return err
			}
			continue
		}
		if bytes.Equal(path, bucketSessions) {
			if _, err := state.DecodeRecord(v); err != nil {
				return fmt.Errorf("session %s does not decode: %w", k, err)
			}
		}
	}
	return nil
}

// RepairReport is what Repair did.
type RepairReport struct {
	Healthy   bool      // nothing was wrong, and nothing was changed
	Damage    string    // what was wrong with the store
	KeptAt    string    // where the damaged file now is
	Recovered int       // records copied into the new store as they were
	Rebuilt   []Rebuilt // records made again from the traces of their sessions
	// Resumed spool files keep the offset read from the damaged store;
	// Replayed ones start again from their first line.
	Resumed, Replayed int
	Ingested, Dropped int // by the spool cycles that followed
}

// Repair replaces a damaged store with a new one holding everything that
// could still be read: records, history, spool offsets and counters, each
// key read under its own guard, walking each bucket from both ends so one
// bad page loses only the keys on it. The damaged file is kept aside as
// lanes.db.damaged-<time>. Then the spool is ingested: files whose offset
// was read resume there (each line still applied once); the others are
// replayed from their first line, which re-applies events the records
// already reflect: activity ends where the latest event puts it and PR
// facts are the same facts again, but events_applied counts them twice and
// the history shows their transitions again. A healthy store is left as it
// is. A session known from any trace (tr, history, spool) whose record
// could not be read gets a record rebuilt from those traces (rebuild).
func (s *Store) Repair(now time.Time, tr Traces) (RepairReport, error) {
	var rep RepairReport
	fi, err := os.Stat(s.Path())
	gone := errors.Is(err, os.ErrNotExist)
	switch {
	case gone && len(s.traces()) == 0: // a fresh state dir
		rep.Healthy = true
		return rep, nil
	case err != nil && !gone:
		return rep, fmt.Errorf("repairing the store: %w", err)
	}
	check := s.Check()
	if check == nil {
		return s.adoptLost(now, tr)
	}
	if !errors.Is(check, ErrDamaged) {
		return rep, check
	}
	var de *damageError
	if errors.As(check, &de) {
		rep.Damage = de.what
	}
	got := salvaged{buckets: map[string]map[string][]byte{}, history: map[string]map[string][]byte{}}
	if !gone && fi.Size() > 0 {
		src, err := s.boltOpen(s.Path(), true) // shared lock: no writer meanwhile
		if err != nil && !errors.Is(err, ErrDamaged) {
			return rep, err
		}
		if src != nil {
			got.txid, got.txidOK = s.committedTx()
			s.salvage(src, &got)
			src.Close()
		}
	}
	schema := SchemaVersion
	if v, err := strconv.Atoi(string(got.buckets[string(bucketMeta)][string(keySchema)])); err == nil && v > 0 {
		schema = v
	}
	if schema > SchemaVersion {
		return rep, fmt.Errorf("%w: the damaged store was written by a newer lanes (schema %d, this build reads %d); repair it with that lanes", state.ErrSchemaTooNew, schema, SchemaVersion)
	}
	got.schema = schema
	for id, v := range got.buckets[string(bucketSessions)] {
		if v == nil { // a nested bucket, not a record
			delete(got.buckets[string(bucketSessions)], id)
			continue
		}
		switch _, err := got.decode(v); {
		case errors.Is(err, state.ErrSchemaTooNew):
			return rep, fmt.Errorf("session %s: %w", id, err)
		case err != nil:
			delete(got.buckets[string(bucketSessions)], id)
		}
	}
	rep.Recovered = len(got.buckets[string(bucketSessions)])
	live := got.live(tr)
	rep.Rebuilt = got.rebuild(s.SpoolDir(), got.known(s.SpoolDir(), tr.ids(live)), tr, live, now)
	rep.Resumed, rep.Replayed = spoolFiles(s.SpoolDir(), got.buckets[string(bucketSpool)])
	if rep.KeptAt, err = s.replaceWith(&got, schema, now, gone); err != nil {
		return rep, err
	}
	return rep, s.ingestAll(now, &rep)
}

// ingestAll runs cycles until the spool is read, into rep's counts.
func (s *Store) ingestAll(now time.Time, rep *RepairReport) error {
	// Each cycle reads at most maxReadPerFile of a file; one that only
	// skips the rest of a too-long line applies and drops nothing, so
	// progress is the spool's backlog going down.
	c := &Collector{Store: s, Now: func() time.Time { return now }}
	left := int64(-1)
	for range 1000 {
		res, err := c.Cycle(context.Background())
		if err != nil {
			return fmt.Errorf("ingesting the spool into the repaired store: %w", err)
		}
		rep.Ingested += res.Ingested
		rep.Dropped += res.Dropped
		backlog, err := s.Backlog()
		if err != nil {
			return fmt.Errorf("ingesting the spool into the repaired store: %w", err)
		}
		was := left
		left = 0
		for _, n := range backlog {
			left += n
		}
		if left == 0 || was >= 0 && left >= was { // done, or a line waiting for its end
			break
		}
	}
	return nil
}

// salvaged is what could be read out of a damaged store: top-level buckets
// by name, and the history buckets by session id.
type salvaged struct {
	buckets map[string]map[string][]byte
	history map[string]map[string][]byte
	// txid is the damaged store's last transaction as salvaged; a commit
	// after it would be lost with the kept-aside file.
	txid   uint64
	txidOK bool
	schema int // the damaged store's
	// replayed are the spool offsets rebuild dropped, so those files are
	// read again from their first line.
	replayed []string
}

// salvage reads every readable key of src into got.
func (s *Store) salvage(src *bolt.DB, got *salvaged) {
	_ = s.guard(func() error {
		return src.View(func(btx *bolt.Tx) error {
			for _, name := range [][]byte{bucketMeta, bucketSessions, bucketSpool, bucketCounters, bucketSpent} {
				got.buckets[string(name)] = s.readBucket(func() *bolt.Bucket { return btx.Bucket(name) })
			}
			ids := s.readBucket(func() *bolt.Bucket { return btx.Bucket(bucketHistory) })
			for id := range ids {
				got.history[id] = s.readBucket(func() *bolt.Bucket { return btx.Bucket(bucketHistory).Bucket([]byte(id)) })
			}
			return nil
		})
	})
}

// readBucket reads every key of the bucket it finds that it can: forwards
// until a bad page stops it, then backwards from the end up to the same
// page. A nested bucket's key maps to nil.
func (s *Store) readBucket(find func() *bolt.Bucket) map[string][]byte {
	out := map[string][]byte{}
	keep := func(k, v []byte) { out[string(k)] = bytes.Clone(v) }
	_ = s.guard(func() error {
		c := find().Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			keep(k, v)
		}
		return nil
	})
	_ = s.guard(func() error {
		c := find().Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			keep(k, v)
		}
		return nil
	})
	return out
}

// known is every session id the damaged store, the spool or the caller
// shows existed.
func (got *salvaged) known(spoolDir string, also []string) []string {
	ids := map[string]bool{}
	for _, id := range also {
		ids[id] = true
	}
	for id := range got.buckets[string(bucketSessions)] {
		ids[id] = true
	}
	for id := range got.history {
		ids[id] = true
	}
	entries, _ := os.ReadDir(spoolDir)
	for _, de := range entries {
		if id, _, ok := parseSpoolName(de.Name()); ok {
			ids[id] = true
		}
	}
	out := make([]string, 0, len(ids))
	for id := range ids {
		if state.ValidID(id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// replaceWith writes got into a new store file and puts it in the damaged
// one's place: the damaged file is first linked aside, then the new one is
// renamed over it, so lanes.db is never missing (a process finding it
// missing would start an empty store). It returns where the damaged file
// is; when lanes.db was gone, the new file is linked in unless one
// appeared meanwhile, and nothing is kept aside.
func (s *Store) replaceWith(got *salvaged, schema int, now time.Time, gone bool) (string, error) {
	tmp, err := os.CreateTemp(s.Dir, "lanes.db.repair-*")
	if err != nil {
		return "", fmt.Errorf("creating the repaired store: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name()) // gone already once renamed
	db, err := bolt.Open(tmp.Name(), 0o600, &bolt.Options{Timeout: s.LockTimeout})
	if err != nil {
		return "", fmt.Errorf("creating the repaired store: %w", err)
	}
	err = db.Update(func(btx *bolt.Tx) error { return got.write(btx, schema) })
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("writing the repaired store: %w", err)
	}
	if gone {
		if err := os.Link(tmp.Name(), s.Path()); err != nil {
			return "", fmt.Errorf("putting the rebuilt store in place (run the repair again): %w", err)
		}
		return "", nil
	}
	// No writer is inside the damaged file while it is put aside, and one
	// that took the lock after checks that its file is still lanes.db
	// (boltOpen); a commit since the salvage would be lost, so it stops.
	old, err := os.OpenFile(s.Path(), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return "", fmt.Errorf("keeping the damaged store aside: %w", err)
	}
	defer old.Close() // and with it the lock
	if !lockFile(old, syscall.LOCK_EX, s.LockTimeout*time.Duration(max(s.Attempts, 1))) {
		return "", fmt.Errorf("%w: another lanes process holds %s; nothing was changed, run the repair again", ErrBusy, s.Path())
	}
	if txid, ok := s.committedTx(); txid != got.txid || ok != got.txidOK {
		return "", fmt.Errorf("the damaged store %s was written to while it was being repaired; nothing was changed, run the repair again", s.Path())
	}
	kept := fmt.Sprintf("%s.damaged-%s", s.Path(), now.UTC().Format("20060102T150405Z"))
	for i := 2; ; i++ {
		err := os.Link(s.Path(), kept)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) || i > 100 {
			return "", fmt.Errorf("keeping the damaged store aside: %w", err)
		}
		kept = fmt.Sprintf("%s.damaged-%s-%d", s.Path(), now.UTC().Format("20060102T150405Z"), i)
	}
	if err := os.Rename(tmp.Name(), s.Path()); err != nil {
		return kept, fmt.Errorf("putting the repaired store in place (the damaged one is also at %s): %w", kept, err)
	}
	return kept, nil
}

// write puts got into a new store's transaction.
func (got *salvaged) write(btx *bolt.Tx, schema int) error {
	for name, kv := range got.buckets {
		b, err := btx.CreateBucketIfNotExists([]byte(name))
		if err != nil {
			return err
		}
		for k, v := range kv {
			if v == nil { // a nested bucket: none are expected here
				continue
			}
			if err := b.Put([]byte(k), v); err != nil {
				return err
			}
		}
	}
	hb, err := btx.CreateBucketIfNotExists(bucketHistory)
	if err != nil {
		return err
	}
	for id, kv := range got.history {
		if got.buckets[string(bucketSessions)][id] == nil {
			continue // no record to show it for
		}
		h, err := hb.CreateBucketIfNotExists([]byte(id))
		if err != nil {
			return err
		}
		var last uint64
		for k, v := range kv {
			if len(k) == 8 && json.Valid(v) {
				if err := h.Put([]byte(k), v); err != nil {
					return err
				}
				last = max(last, binary.BigEndian.Uint64([]byte(k)))
			}
		}
		if err := h.SetSequence(last); err != nil {
			return err
		}
	}
	for _, name := range [][]byte{bucketSessions, bucketSpool, bucketCounters, bucketSpent} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	meta, err := btx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	return meta.Put(keySchema, []byte(strconv.Itoa(schema)))
}

// spoolFiles counts the spool files whose offset was salvaged and those
// that will be replayed from their first line.
func spoolFiles(dir string, offsets map[string][]byte) (resumed, replayed int) {
	entries, _ := os.ReadDir(dir)
	for _, de := range entries {
		info, err := de.Info()
		if _, _, ok := parseSpoolName(de.Name()); !ok || err != nil || !info.Mode().IsRegular() {
			continue
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok && offsets[string(spoolKey(st))] != nil {
			resumed++
		} else {
			replayed++
		}
	}
	return resumed, replayed
}
