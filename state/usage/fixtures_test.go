package usage

import (
	"os"
	"path/filepath"
	"testing"

	"lanes/state/statetest"
)

// Each real agent's own record, read as a cycle reads it, says exactly
// what the model server served its session: no message counted twice, no
// running total added up, the cache apart from the input.
func TestRealRecordsMatchWhatWasServed(t *testing.T) {
	for _, run := range statetest.UsageRuns(t) {
		if run.File == "" {
			continue // OpenCode's: its plugin sends them (internal/cli's TestUsageTotalsWhatWasServed)
		}
		t.Run(string(run.Agent)+"/"+filepath.Base(run.File), func(t *testing.T) {
			g := newRig(t)
			g.rec.Agent = run.Agent
			b, err := os.ReadFile(run.File)
			if err != nil {
				t.Fatal(err)
			}
			g.write(string(b))
			g.cycle()
			u := g.rec.Usage
			if u.Tokens != run.Served {
				t.Errorf("tokens %+v, served %+v", u.Tokens, run.Served)
			}
			if u.Context != run.Context || u.Window != run.Window {
				t.Errorf("context %d of %d, served %d of %d", u.Context, u.Window, run.Context, run.Window)
			}
			if len(u.Limits) != len(run.Limits) {
				t.Fatalf("limits %+v, served %+v", u.Limits, run.Limits)
			}
			for i, l := range run.Limits {
				if got := u.Limits[i]; got.Name != l.Name || got.UsedPct != l.UsedPct || got.WindowMin != l.WindowMin || got.ResetsAt.IsZero() {
					t.Errorf("limit %+v, served %+v", got, l)
				}
			}
		})
	}
}
