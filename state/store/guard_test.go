package store

import (
	"errors"
	"path/filepath"
	"testing"

	"lanes/state"
	"lanes/state/statetest"
)

// TestGuardPassesOnPanicsOfLanesOwn: a panic in lanes' own code, also when
// bbolt called it (a ForEach callback), is a bug to crash on, not "store
// damaged": only bbolt's own panics and faults on the mapped file are.
func TestGuardPassesOnPanicsOfLanesOwn(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "state"))
	put(t, s, statetest.Rec(state.ActivityIdle))
	var none []int
	i := 3
	for name, fn := range map[string]func(*Tx) error{
		"in the callback": func(*Tx) error { _ = none[i]; return nil },
		"in a ForEach callback": func(tx *Tx) error {
			return tx.tx.Bucket(bucketSessions).ForEach(func(k, v []byte) error { _ = none[i]; return nil })
		},
		"a nil map": func(*Tx) error { var m map[string]int; m["x"] = 1; return nil },
	} {
		func() {
			defer func() {
				if p := recover(); p == nil {
					t.Errorf("%s: the panic did not reach the caller", name)
				}
			}()
			err := s.View(fn)
			t.Errorf("%s: View returned %v (damaged: %v), want the panic to go on", name, err, errors.Is(err, ErrDamaged))
		}()
	}
}
