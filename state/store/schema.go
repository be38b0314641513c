package store

// The store's schema: which layout a file holds, and the migrations that
// bring an older one to this build's (docs/design.md §7).

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
)

// errOlderSchema: the store holds an initialised store of an older layout
// than this build's.
var errOlderSchema = errors.New("older store schema")

// schemaOf is the schema version stored in meta; 0 when there is none.
func schemaOf(meta *bolt.Bucket) int {
	if meta == nil {
		return 0
	}
	v, _ := strconv.Atoi(string(meta.Get(keySchema)))
	return v
}

// olderSchema returns errOlderSchema when db holds an older layout.
func olderSchema(db *bolt.DB) error {
	return db.View(func(btx *bolt.Tx) error {
		if meta := btx.Bucket(bucketMeta); meta != nil && schemaOf(meta) < SchemaVersion {
			return errOlderSchema
		}
		return nil
	})
}

func checkSchema(btx *bolt.Tx) error {
	meta := btx.Bucket(bucketMeta)
	if meta == nil {
		return nil
	}
	if v := schemaOf(meta); v > SchemaVersion {
		return fmt.Errorf("%w: the store was written by a newer lanes (schema %d, this build reads %d); upgrade lanes, or point LANES_STATE_DIR elsewhere", state.ErrSchemaTooNew, v, SchemaVersion)
	}
	return nil
}

// migrations[i] brings schema i to i+1; all run in one transaction.
var migrations = []func(*bolt.Tx) error{
	func(btx *bolt.Tx) error { // 0 → 1: the initial buckets
		for _, b := range [][]byte{bucketSessions, bucketHistory, bucketSpool, bucketCounters} {
			if _, err := btx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	},
	func(btx *bolt.Tx) error { // 1 → 2: records from JSON to the binary codec
		b := btx.Bucket(bucketSessions)
		if b == nil {
			return nil
		}
		recoded := map[string][]byte{}
		if err := b.ForEach(func(k, v []byte) error {
			var r state.Record
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("decoding session %s: %w", k, err)
			}
			recoded[string(k)] = state.EncodeRecord(&r)
			return nil
		}); err != nil {
			return err
		}
		for k, v := range recoded {
			if err := b.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return nil
	},
	func(*bolt.Tx) error { return nil }, // 2 → 3: codec 2, which still reads codec 1 records
	func(*bolt.Tx) error { return nil }, // 3 → 4: codec 3 (the dialog fact), which reads codec 1 and 2
	func(*bolt.Tx) error { return nil }, // 4 → 5: codec 4 (HookTurns), which reads codec 1 to 3
	func(*bolt.Tx) error { return nil }, // 5 → 6: codec 5 (content, dialog_at, muted), which reads 1 to 4
	func(*bolt.Tx) error { return nil }, // 6 → 7: codec 6 (answered_at), which reads 1 to 5
	func(*bolt.Tx) error { return nil }, // 7 → 8: codec 7 (git facts), which reads 1 to 6
	func(*bolt.Tx) error { return nil }, // 8 → 9: codec 8 (adopted), which reads 1 to 7
	func(*bolt.Tx) error { return nil }, // 9 → 10: codec 9 (turn_session_id), which reads 1 to 8
	func(*bolt.Tx) error { return nil }, // 10 → 11: codec 10 (server_pid), which reads 1 to 9
	func(*bolt.Tx) error { return nil }, // 11 → 12: codec 11 (call_sum, dialog_call), which reads 1 to 10
	func(*bolt.Tx) error { return nil }, // 12 → 13: codec 12 (background, automatic, seen_at, unseen), which reads 1 to 11
	func(*bolt.Tx) error { return nil }, // 13 → 14: codec 13 (replied, replied_at, menu), which reads 1 to 12
	func(*bolt.Tx) error { return nil }, // 14 → 15: codec 14 (killing_at), which reads 1 to 13
	func(*bolt.Tx) error { return nil }, // 15 → 16: codec 15 (scheduled, which main wrote as 14 for an hour), which reads 1 to 14 (both)
	func(*bolt.Tx) error { return nil }, // 16 → 17: codec 16 (queued), which reads 1 to 15
	func(*bolt.Tx) error { return nil }, // 17 → 18: codec 17 (turn_id), which reads 1 to 16
	func(*bolt.Tx) error { return nil }, // 18 → 19: codec 18 (held_end), which reads 1 to 17
	func(*bolt.Tx) error { return nil }, // 19 → 20: codec 19 (env), which reads 1 to 18
	func(*bolt.Tx) error { return nil }, // 20 → 21: codec 20 (usage), which reads 1 to 19
}

func migrate(db *bolt.DB) error {
	need := false
	if err := db.View(func(btx *bolt.Tx) error {
		if err := checkSchema(btx); err != nil {
			return err
		}
		meta := btx.Bucket(bucketMeta)
		need = meta == nil || string(meta.Get(keySchema)) != strconv.Itoa(SchemaVersion)
		return nil
	}); err != nil || !need {
		return err
	}
	return db.Update(func(btx *bolt.Tx) error {
		meta, err := btx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		for v := schemaOf(meta); v < SchemaVersion; v++ {
			if err := migrations[v](btx); err != nil {
				return fmt.Errorf("migrating store schema %d → %d: %w", v, v+1, err)
			}
		}
		return meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
	})
}
