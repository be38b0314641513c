package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
	"lanes/state/statetest"
)

// rawUpdate writes to the store file as another lanes build would.
func rawUpdate(t *testing.T, s *Store, fn func(*bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(s.Path(), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaNamesTheCodec: the records' codec version 2 came with schema
// 3 and codec 3 with schema 4, so a build that reads only an older codec
// refuses such a store as too new instead of finding every record damaged;
// a schema 2 store, its records of either codec, opens and is stamped 4.
func TestSchemaNamesTheCodec(t *testing.T) {
	if SchemaVersion != 21 || state.CodecVersion != 20 {
		t.Fatalf("schema %d with codec %d: each codec version needs its schema version", SchemaVersion, state.CodecVersion)
	}
	s := New(filepath.Join(t.TempDir(), "state"))
	put(t, s)
	v2 := statetest.Rec(state.ActivityIdle)
	v1 := statetest.Rec(state.ActivityBlocked)
	v1.ID = "efgh5678"
	b := state.EncodeRecord(v1)
	rawUpdate(t, s, func(btx *bolt.Tx) error {
		_ = btx.Bucket(bucketSessions).Put([]byte(v2.ID), state.EncodeRecord(v2))
		_ = btx.Bucket(bucketSessions).Put([]byte(v1.ID), append([]byte{1}, b[1:len(b)-70]...))
		return btx.Bucket(bucketMeta).Put(keySchema, []byte("2"))
	})
	var schema, n int
	if err := s.View(func(tx *Tx) error {
		all, err := tx.All()
		schema, n = tx.Schema(), len(all)
		return err
	}); err != nil || schema != SchemaVersion || n != 2 {
		t.Fatalf("a schema 2 store: schema %d after opening, %d of 2 records, %v", schema, n, err)
	}
}

// TestRepairNeverDropsNewerRecords: a record in an encoding newer than this
// build, or a damaged store of a newer schema, is "upgrade lanes" from the
// check and from repair, and repair leaves the file as it is.
func TestRepairNeverDropsNewerRecords(t *testing.T) {
	t.Run("record encoding", func(t *testing.T) {
		s := New(filepath.Join(t.TempDir(), "state"))
		put(t, s, statetest.Rec(state.ActivityIdle))
		r := statetest.Rec(state.ActivityIdle)
		r.ID = "efgh5678"
		rawUpdate(t, s, func(btx *bolt.Tx) error {
			return btx.Bucket(bucketSessions).Put([]byte(r.ID), append([]byte{state.CodecVersion + 1}, state.EncodeRecord(r)[1:]...))
		})
		repairRefuses(t, s, true)
	})
	t.Run("damaged store of a newer schema", func(t *testing.T) {
		s, _ := damagedFixture(t, 3)
		rawUpdate(t, s, func(btx *bolt.Tx) error {
			return btx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(SchemaVersion+1)))
		})
		f, err := os.OpenFile(s.Path(), os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := readMeta(f)
		_, err = f.WriteAt(garbage(), int64(m.freelist*m.pageSize))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		repairRefuses(t, s, false)
	})
}

func repairRefuses(t *testing.T, s *Store, checkToo bool) {
	t.Helper()
	before, _ := os.ReadFile(s.Path())
	if err := s.Check(); checkToo && !errors.Is(err, state.ErrSchemaTooNew) {
		t.Errorf("check: %v, want ErrSchemaTooNew", err)
	}
	rep, err := s.Repair(statetest.T0, Traces{})
	if !errors.Is(err, state.ErrSchemaTooNew) {
		t.Errorf("repair: %+v, %v; want ErrSchemaTooNew", rep, err)
	}
	if after, _ := os.ReadFile(s.Path()); !bytes.Equal(before, after) {
		t.Errorf("repair changed the store file")
	}
}
