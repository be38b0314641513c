package state

import (
	"fmt"
	"testing"
	"time"
)

var usageNow = time.Date(2026, 12, 4, 12, 0, 0, 0, time.Local)

// A message written again counts once, by what it says last; another
// message adds its own.
func TestUsageCountsAMessageOnce(t *testing.T) {
	var u Usage
	for _, l := range []UsageLine{
		{Msg: "m1", Tokens: Tokens{In: 10, Out: 5}},
		{Msg: "m1", Tokens: Tokens{In: 10, Out: 5}},  // another content block
		{Msg: "m1", Tokens: Tokens{In: 10, Out: 7}},  // its final output count
		{Msg: "m2", Tokens: Tokens{In: 20, Out: 1}},  // the next request
		{Msg: "", Tokens: Tokens{In: 1}},             // unnamed: each counts
		{Msg: "", Tokens: Tokens{In: 1}, Context: 9}, // and says the context
	} {
		u.Take(l, usageNow)
	}
	if want := (Tokens{In: 32, Out: 8}); u.Tokens != want {
		t.Fatalf("tokens %+v, want %+v", u.Tokens, want)
	}
	if u.Context != 9 || !u.At.Equal(usageNow) {
		t.Errorf("context %d at %v", u.Context, u.At)
	}
}

// A running total counts by its growth; one that went backwards (a new
// thread in the same record) starts again from its value, and the session's
// total never goes down.
func TestUsageRunningTotals(t *testing.T) {
	var u Usage
	for _, n := range []int64{10, 30, 30, 5, 12} {
		u.Take(UsageLine{Cumulative: true, Tokens: Tokens{In: n, Out: n / 5}}, usageNow)
	}
	if want := (Tokens{In: 30 + 12, Out: 6 + 2}); u.Tokens != want {
		t.Fatalf("tokens %+v, want %+v", u.Tokens, want)
	}
}

// Each day gets what was spent on it, by the line's own time; a record
// keeps UsageKeepDays of them, oldest dropped first.
func TestUsageDays(t *testing.T) {
	var u Usage
	day0 := time.Date(2026, 10, 1, 23, 0, 0, 0, time.Local)
	for i := range UsageKeepDays + 5 {
		at := day0.AddDate(0, 0, i)
		u.Take(UsageLine{Tokens: Tokens{In: int64(i + 1)}, At: at}, usageNow)
		u.Take(UsageLine{Tokens: Tokens{Out: 1}, At: at.Add(90 * time.Minute)}, usageNow) // the next day's
	}
	if len(u.Days) != UsageKeepDays {
		t.Fatalf("%d days kept, want %d", len(u.Days), UsageKeepDays)
	}
	last := u.Days[len(u.Days)-1]
	if want := day0.AddDate(0, 0, UsageKeepDays+5).Format(time.DateOnly); last.Day != want || last.Out != 1 || last.In != 0 {
		t.Errorf("last day %+v, want %s with the last line's output only", last, want)
	}
	since := u.Days[len(u.Days)-2].Day
	if got := u.Since(since); got.In != UsageKeepDays+5 || got.Out != 2 {
		t.Errorf("Since(%s) = %+v", since, got)
	}
	for i := 1; i < len(u.Days); i++ {
		if u.Days[i-1].Day >= u.Days[i].Day {
			t.Fatalf("days out of order: %v", u.Days)
		}
	}
}

// A line with nothing new changes nothing, not even when.
func TestUsageSameLineChangesNothing(t *testing.T) {
	var u Usage
	l := UsageLine{Cumulative: true, Tokens: Tokens{In: 5}, Window: 100, Limits: []Limit{{Name: "primary", UsedPct: 40}}}
	u.Take(l, usageNow)
	u.Take(l, usageNow.Add(time.Hour))
	if !u.At.Equal(usageNow) {
		t.Errorf("at %v, want the first line's", u.At)
	}
}

func TestUsageMarks(t *testing.T) {
	reset := usageNow.Add(time.Hour)
	for _, tt := range []struct {
		name string
		u    Usage
		want []Mark
	}{
		{"nothing known", Usage{Context: 95}, nil},
		{"context at 90 %", Usage{Context: 90, Window: 100}, nil},
		{"context over 90 %", Usage{Context: 91, Window: 100}, []Mark{MarkContextFull}},
		{"a window over 90 %", Usage{Limits: []Limit{{Name: "primary", UsedPct: 42}, {Name: "secondary", UsedPct: 93, ResetsAt: reset}}}, []Mark{MarkLimitNear}},
		{"a window that reset since", Usage{Limits: []Limit{{Name: "secondary", UsedPct: 99, ResetsAt: usageNow.Add(-time.Second)}}}, nil},
	} {
		got := tt.u.Marks(usageNow)
		if len(got) != len(tt.want) || len(got) > 0 && got[0] != tt.want[0] {
			t.Errorf("%s: marks %v, want %v", tt.name, got, tt.want)
		}
	}
	u := Usage{Limits: []Limit{{Name: "a", UsedPct: 91}, {Name: "b", UsedPct: 97}}}
	if l, ok := u.NearLimit(usageNow); !ok || l.Name != "b" {
		t.Errorf("NearLimit = %+v, want the most used", l)
	}
}

// A hook naming another record starts it from its beginning; the same
// record, or none, changes nothing.
func TestUsageFollow(t *testing.T) {
	u := Usage{Tokens: Tokens{In: 7}, Src: UsageSource{Path: "/a.jsonl", Offset: 99, Ident: "1:2", Msg: "m"}}
	if u.Follow("/a.jsonl") || u.Follow("") || u.Src.Offset != 99 {
		t.Fatalf("the same record started again: %+v", u.Src)
	}
	if !u.Follow("/b.jsonl") || u.Src != (UsageSource{Path: "/b.jsonl"}) || u.In != 7 {
		t.Fatalf("another record: %+v, tokens %+v", u.Src, u.Tokens)
	}
	// Back to the first (a /resume): where it was, not its start (the
	// 28th hostile re-run flipped between two and counted each again).
	if !u.Follow("/a.jsonl") || u.Src.Offset != 99 || u.Src.Msg != "m" || len(u.Past) != 1 || u.Past[0].Path != "/b.jsonl" {
		t.Fatalf("back to the first: %+v, past %+v", u.Src, u.Past)
	}
	for i := range UsagePast + 3 {
		u.Follow(fmt.Sprintf("/%d.jsonl", i))
	}
	if len(u.Past) != UsagePast {
		t.Fatalf("%d records remembered, want %d", len(u.Past), UsagePast)
	}
}

func TestValidTranscript(t *testing.T) {
	long := "/" + string(make([]byte, MaxFieldBytes))
	for p, want := range map[string]bool{
		"/home/u/.claude/projects/-src-api/4f1c.jsonl": true,
		"/home/u/my sessions/x.jsonl":                  true,
		"":                                             false,
		"relative/x.jsonl":                             false,
		"/home/u/../etc/shadow":                        false,
		"/home/u//x.jsonl":                             false,
		"/home/u/x\x1b]52;c;aGk=\x07.jsonl":            false,
		"/home/u/\u202ex.jsonl":                        false,
		"/home/u/\xffx.jsonl":                          false,
		long:                                           false,
	} {
		if got := ValidTranscript(p); got != want {
			t.Errorf("ValidTranscript(%q) = %v, want %v", p, got, want)
		}
	}
}

// Numbers out of range count as none, and no sum wraps around (the 28th
// hostile re-run: a huge count made the totals go below zero).
func TestUsageNumbersNeverWrap(t *testing.T) {
	huge := []byte(`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":99999999999999999999,"output_tokens":5000000000000000}}}`)
	l, ok := ReadUsage(AgentClaude, huge)
	if !ok || l.In != 0 || l.Out != CountMax {
		t.Fatalf("read %+v", l.Tokens)
	}
	var u Usage
	for i := range 20_000 {
		u.Take(UsageLine{Msg: fmt.Sprint(i), Tokens: Tokens{In: CountMax, CostMicros: CountMax}}, usageNow)
	}
	if u.In != TokensMax || u.Total() <= 0 || u.Days[0].In != TokensMax {
		t.Fatalf("tokens %+v, day %+v", u.Tokens, u.Days[0])
	}
}

func TestParseBudget(t *testing.T) {
	for s, want := range map[string]Budget{"": {}, "500k": {Tokens: 500_000}, "20m": {Tokens: 20_000_000}, "2G": {Tokens: 2_000_000_000},
		"1500": {Tokens: 1500}, "$20": {CostMicros: 20_000_000}, "$0.000001": {CostMicros: 1}} {
		if got, err := ParseBudget(s); err != nil || got != want {
			t.Errorf("ParseBudget(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	for _, s := range []string{"$1e-7", "$0.0000004", "-5", "0", "$", "5x", "NaN", "$inf", "1e16"} {
		if b, err := ParseBudget(s); err == nil {
			t.Errorf("ParseBudget(%q) = %+v, want it refused", s, b)
		}
	}
	if s := (Budget{Tokens: 2_000_000}).String(); s != "2M" {
		t.Errorf("String = %q", s)
	}
}
