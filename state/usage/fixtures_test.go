package usage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state"
)

// expected is a run's <run>.expected.json: what the scripted model server
// served that session, from its log, not from the agent's file
// (testdata/real/usage/README.md).
type expected struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
	CostMicros int64 `json:"cost_micros"`
	Context    int64 `json:"context"`
	Window     int64 `json:"window"`
	Limits     []struct {
		Name    string  `json:"name"`
		UsedPct float64 `json:"used_pct"`
		Minutes int64   `json:"window_minutes"`
	} `json:"limits"`
}

const fixtures = "../../testdata/real/usage"

// realRuns are the recorded runs whose record is a file lanes reads: the
// agent, the file, what the model server served.
func realRuns(t *testing.T) (runs []struct {
	agent state.Agent
	file  string
	want  expected
}) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(fixtures, "*", "*.expected.json"))
	for _, exp := range files {
		file := strings.TrimSuffix(exp, ".expected.json") + ".jsonl"
		if _, err := os.Stat(file); err != nil {
			continue // OpenCode's: its plugin sends the numbers (TestOpenCodeUsageLines)
		}
		var want expected
		b, err := os.ReadFile(exp)
		if err != nil || json.Unmarshal(b, &want) != nil {
			t.Fatalf("%s: %v", exp, err)
		}
		runs = append(runs, struct {
			agent state.Agent
			file  string
			want  expected
		}{state.Agent(filepath.Base(filepath.Dir(exp))), file, want})
	}
	if len(runs) < 13 {
		t.Fatalf("%d recorded runs, want the 13 of testdata/real/usage", len(runs))
	}
	return runs
}

// Each real agent's own record, read as a cycle reads it, says exactly
// what the model server served its session: no message counted twice, no
// running total added up, the cache apart from the input.
func TestRealRecordsMatchWhatWasServed(t *testing.T) {
	for _, run := range realRuns(t) {
		t.Run(string(run.agent)+"/"+filepath.Base(run.file), func(t *testing.T) {
			g := newRig(t)
			g.rec.Agent = run.agent
			b, err := os.ReadFile(run.file)
			if err != nil {
				t.Fatal(err)
			}
			g.write(string(b))
			g.cycle()
			u, w := g.rec.Usage, run.want
			if got := (state.Tokens{In: w.Input, Out: w.Output, CacheRead: w.CacheRead, CacheWrite: w.CacheWrite, CostMicros: w.CostMicros}); u.Tokens != got {
				t.Errorf("tokens %+v, served %+v", u.Tokens, got)
			}
			if u.Context != w.Context || u.Window != w.Window {
				t.Errorf("context %d of %d, served %d of %d", u.Context, u.Window, w.Context, w.Window)
			}
			if len(u.Limits) != len(w.Limits) {
				t.Fatalf("limits %+v, served %+v", u.Limits, w.Limits)
			}
			for i, l := range w.Limits {
				if got := u.Limits[i]; got.Name != l.Name || got.UsedPct != l.UsedPct || got.WindowMin != l.Minutes || got.ResetsAt.IsZero() {
					t.Errorf("limit %+v, served %+v", got, l)
				}
			}
		})
	}
}
