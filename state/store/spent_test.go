package store

import (
	"path/filepath"
	"testing"

	"lanes/state"
	"lanes/state/statetest"
)

// Removing a session keeps what it spent, by day and agent; days older
// than a record keeps go.
func TestDeleteKeepsWhatWasSpent(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "state"))
	r := statetest.Rec(state.ActivityIdle)
	r.Usage.Days = []state.DayUsage{{Day: "2026-10-01", Tokens: state.Tokens{In: 1}}, {Day: "2026-12-03", Tokens: state.Tokens{In: 5, CostMicros: 7}}, {Day: "2026-12-04", Tokens: state.Tokens{Out: 2}}}
	q := statetest.Rec(state.ActivityIdle)
	q.ID, q.Usage.Days = "efgh5678", []state.DayUsage{{Day: "2026-12-04", Tokens: state.Tokens{Out: 3}}}
	if err := s.Update(func(tx *Tx) error {
		for _, rec := range []*state.Record{r, q} {
			if err := tx.Put(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var spent []state.Spent
	if err := s.Update(func(tx *Tx) error {
		if err := tx.Delete(r.ID); err != nil {
			return err
		}
		if err := tx.Delete(q.ID); err != nil {
			return err
		}
		spent = tx.Spent("")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []state.Spent{
		{Day: "2026-12-03", Agent: r.Agent, Tokens: state.Tokens{In: 5, CostMicros: 7}},
		{Day: "2026-12-04", Agent: r.Agent, Sessions: 2, Tokens: state.Tokens{Out: 5}},
	}
	if len(spent) != len(want) || spent[0] != want[0] || spent[1] != want[1] {
		t.Fatalf("spent %+v, want %+v (the October day older than a record keeps)", spent, want)
	}
}
