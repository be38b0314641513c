package listing

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"lanes/state"
)

// What a session spent goes to another host and back whole: the card
// and `lanes usage --all-hosts` read the same numbers there.
func TestUsageRoundTrips(t *testing.T) {
	at := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	u := state.Usage{
		Tokens: state.Tokens{In: 1000, Out: 200, CacheRead: 300, CacheWrite: 40, CostMicros: 5_000}, Context: 1540, Window: 258_400,
		Limits: []state.Limit{{Name: "primary", UsedPct: 42, WindowMin: 300, ResetsAt: at.Add(time.Hour)}},
		Days:   []state.DayUsage{{Day: "2026-12-04", Tokens: state.Tokens{In: 1000, Out: 200, CacheRead: 300, CacheWrite: 40, CostMicros: 5_000}}},
		At:     at,
	}
	j := usageOf(u)
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	var back *Usage
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.state(); !reflect.DeepEqual(got, u) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, u)
	}
	if *j.CostUSD != 0.005 || *j.ContextPct < 0.59 || *j.ContextPct > 0.6 || j.Total != 1540 {
		t.Errorf("listing says %s", b)
	}
	if usageOf(state.Usage{}) != nil {
		t.Error("a session never read lists usage")
	}
}

// Another host's numbers are that host's words: a count below zero or
// past any session's spending, a percentage that is none, a day that is
// no day, are not taken as they are; none overflows a sum.
func TestUsageFromAnotherHostIsKeptSane(t *testing.T) {
	var j Usage
	if err := json.Unmarshal([]byte(`{"input":-5,"output":9223372036854775807,"cache_read":3,"cost_micros":-1,"context":-9,
		"limits":[{"name":"primary","used_pct":420},{"name":"ok","used_pct":50,"window_minutes":60}],
		"days":[{"day":"2026-12-04","input":1},{"day":"\u001b[2J","input":1},{"day":"9999-99-99","input":1}],"at":"2026-12-04T12:00:00Z"}`), &j); err != nil {
		t.Fatal(err)
	}
	u := j.state()
	if u.In != 0 || u.Out != 1e15 || u.CacheRead != 3 || u.CostMicros != 0 || u.Context != 0 {
		t.Errorf("counts %+v context %d", u.Tokens, u.Context)
	}
	if len(u.Limits) != 1 || u.Limits[0].Name != "ok" {
		t.Errorf("limits %+v", u.Limits)
	}
	if len(u.Days) != 1 || u.Days[0].Day != "2026-12-04" {
		t.Errorf("days %+v", u.Days)
	}
	var sum state.Tokens
	for range 1000 {
		sum = sum.Add(u.Tokens)
	}
	if sum.Out <= 0 {
		t.Error("a sum of another host's numbers overflowed")
	}
}

// The watch stream carries a session's last two days only.
func TestStreamDays(t *testing.T) {
	u := &Usage{Days: []Day{{Day: "2026-12-01"}, {Day: "2026-12-02"}, {Day: "2026-12-03"}}}
	list := []Session{{Usage: u}, {}}
	StreamDays(list)
	if len(u.Days) != 2 || u.Days[0].Day != "2026-12-02" {
		t.Fatalf("days %+v", u.Days)
	}
}
