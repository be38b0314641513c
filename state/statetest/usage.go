package statetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state"
)

// UsageRun is one recorded run of a real agent (testdata/real/usage): the
// file it wrote its session to ("" for OpenCode, whose plugin sends the
// numbers: Events is what the plugin was given), and what the scripted
// model server served that session, from its log.
type UsageRun struct {
	Agent   state.Agent
	File    string
	Events  string
	Served  state.Tokens
	Context int64
	Window  int64
	Limits  []state.Limit // name, used and window only
}

// UsageRuns are every recorded run of testdata/real/usage.
func UsageRuns(t testing.TB) []UsageRun {
	t.Helper()
	exps, _ := filepath.Glob(filepath.Join(RealDir, "usage", "*", "*.expected.json"))
	var runs []UsageRun
	for _, exp := range exps {
		var v struct {
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
		b, err := os.ReadFile(exp)
		if err != nil || json.Unmarshal(b, &v) != nil {
			t.Fatalf("%s: %v", exp, err)
		}
		base := strings.TrimSuffix(exp, ".expected.json")
		run := UsageRun{Agent: state.Agent(filepath.Base(filepath.Dir(exp))), Context: v.Context, Window: v.Window,
			Served: state.Tokens{In: v.Input, Out: v.Output, CacheRead: v.CacheRead, CacheWrite: v.CacheWrite, CostMicros: v.CostMicros}}
		for _, l := range v.Limits {
			run.Limits = append(run.Limits, state.Limit{Name: l.Name, UsedPct: l.UsedPct, WindowMin: l.Minutes})
		}
		if _, err := os.Stat(base + ".jsonl"); err == nil {
			run.File = base + ".jsonl"
		} else {
			run.Events = base + ".events.jsonl"
		}
		runs = append(runs, run)
	}
	if len(runs) < 14 {
		t.Fatalf("%d recorded runs in testdata/real/usage, want its 14", len(runs))
	}
	return runs
}
