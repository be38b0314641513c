package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"lanes/state"
	"lanes/state/statetest"
)

// TestFirstUseIsNeverAnEmptyStore: processes that find no store and all
// create it at once never see it empty (which would read as damaged).
func TestFirstUseIsNeverAnEmptyStore(t *testing.T) {
	for round := range 20 {
		dir := filepath.Join(t.TempDir(), "state")
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				s := New(dir)
				if round%5 != 4 {
					errs <- s.View(func(*Tx) error { return nil })
				} else {
					errs <- s.Update(func(*Tx) error { return nil })
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if errors.Is(err, ErrDamaged) {
				t.Fatalf("round %d: first use of a fresh state dir: %v", round, err)
			}
		}
	}
}

// TestProbeDuringCommitsIsNeverDamage: the freelist probe that runs before
// every write open, run while another process commits again and again,
// never calls a healthy store damaged.
func TestProbeDuringCommitsIsNeverDamage(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "state"))
	put(t, s)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var commits atomic.Int64
	wg.Go(func() {
		for i := 0; ; i++ {
			commits.Add(1)
			select {
			case <-stop:
				return
			default:
			}
			_ = s.Update(func(tx *Tx) error {
				r := statetest.Rec(state.ActivityIdle)
				r.ID, r.Command = fmt.Sprintf("r%07d", i%50), []string{strings.Repeat("x", 100*(i%30))}
				if i%3 == 0 {
					return tx.Delete(r.ID)
				}
				return tx.Put(r)
			})
		}
	})
	defer wg.Wait()
	defer close(stop)
	for i := 0; commits.Load() < 400; i++ {
		if err := s.probeFreelist(s.Path()); err != nil {
			t.Fatalf("probe %d during commits: %v", i, err)
		}
	}
}
