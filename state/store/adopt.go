package store

import (
	"bytes"
	"slices"
	"time"
)

// adoptLost is Repair of a healthy store: one that lost records without
// damage (an empty store made where one existed) while tmux still runs
// their sessions, which lanes' indexes name. Those are rebuilt live, as a
// damaged store's are; tmux is asked only when an index names an id the
// store has no record of. Nothing else changes.
func (s *Store) adoptLost(now time.Time, tr Traces) (RepairReport, error) {
	rep := RepairReport{Healthy: true}
	got := salvaged{schema: SchemaVersion, buckets: map[string]map[string][]byte{
		string(bucketSessions): {}, string(bucketSpool): {}}}
	if err := s.View(func(tx *Tx) error {
		for _, name := range [][]byte{bucketSessions, bucketSpool} {
			if b := tx.tx.Bucket(name); b != nil {
				if err := b.ForEach(func(k, v []byte) error {
					got.buckets[string(name)][string(k)] = bytes.Clone(v)
					return nil
				}); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return rep, err
	}
	recs := got.buckets[string(bucketSessions)]
	if !slices.ContainsFunc(tr.ids(nil), func(id string) bool { return recs[id] == nil }) {
		return rep, nil
	}
	live := got.live(tr)
	var lost []string
	for id := range live {
		if recs[id] == nil && (tr.Names[id] != "" || tr.Launches[id] != "") {
			lost = append(lost, id)
		}
	}
	if len(lost) == 0 {
		return rep, nil
	}
	rep.Rebuilt = got.rebuild(s.SpoolDir(), slices.Sorted(slices.Values(lost)), tr, live, now)
	rep.Healthy, rep.Recovered = false, len(recs)-len(rep.Rebuilt)
	rep.Damage = "records of sessions tmux runs were missing from it"
	if err := s.Update(func(tx *Tx) error {
		for _, r := range rep.Rebuilt {
			if err := tx.tx.Bucket(bucketSessions).Put([]byte(r.ID), recs[r.ID]); err != nil {
				return err
			}
		}
		for _, k := range got.replayed { // their spool is read again from the first line
			if err := tx.tx.Bucket(bucketSpool).Delete([]byte(k)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return rep, err
	}
	return rep, s.ingestAll(now, &rep)
}
