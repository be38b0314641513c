package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/theme"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// spending is r with usage: tokens in, today (fixedNow's day) and at a
// cost in micro-dollars.
func spending(r *state.Record, in, micros int64) *state.Record {
	c := *r
	c.Usage = state.Usage{At: fixedNow}
	c.Usage.Take(state.UsageLine{Tokens: state.Tokens{In: in, CostMicros: micros}, At: fixedNow}, fixedNow)
	return &c
}

// A budget notifies once, when a cycle finds it crossed: not at the
// board's start for one crossed before, not again at the next cycle.
func TestBudgetNotifiesOnceWhenCrossed(t *testing.T) {
	b := newNotifyBoard(t, Options{Budgets: state.Budgets{
		Day:      state.Budget{Tokens: 1000},
		Profiles: map[string]state.Budget{"cheap": {CostMicros: 500_000}},
	}})
	api := rec("abcd1234", "api", state.ActivityActive, time.Minute)
	web := rec("efgh5678", "web", state.ActivityActive, time.Minute)
	web.Profile = "cheap"
	budget := func(recs ...*state.Record) []Notice {
		b.m.recs = recs
		b.out = nil
		if cmd := b.m.budgetNotify(fixedNow); cmd != nil {
			rawOf(cmd)
		}
		return b.out
	}
	if got := budget(spending(api, 2000, 0)); len(got) != 0 {
		t.Fatalf("a budget crossed before the board started notified: %+v", got)
	}
	if got := budget(spending(api, 2500, 0), spending(web, 10, 400_000)); len(got) != 0 {
		t.Fatalf("nothing newly crossed, yet: %+v", got)
	}
	got := budget(spending(api, 2500, 0), spending(web, 20, 600_000))
	if len(got) != 1 || !strings.Contains(got[0].Body, "web spent its profile cheap's budget of $0.50 (20 tok, $0.60)") {
		t.Fatalf("the profile's budget crossed: %+v", got)
	}
	if got := budget(spending(api, 2600, 0), spending(web, 30, 700_000)); len(got) != 0 {
		t.Fatalf("a budget crossed once notified again: %+v", got)
	}
}

// The day's budget counts what every session of this host spent today,
// and notifies when their sum crosses it.
func TestDayBudgetSumsTheSessions(t *testing.T) {
	b := newNotifyBoard(t, Options{Budgets: state.Budgets{Day: state.Budget{Tokens: 1000}}})
	api := rec("abcd1234", "api", state.ActivityActive, time.Minute)
	web := rec("efgh5678", "web", state.ActivityActive, time.Minute)
	b.m.recs = []*state.Record{spending(api, 600, 0)}
	rawOf(b.m.budgetNotify(fixedNow))
	b.m.recs = []*state.Record{spending(api, 600, 0), spending(web, 500, 0)}
	rawOf(b.m.budgetNotify(fixedNow))
	if len(b.out) != 1 || !strings.Contains(b.out[0].Body, "the agents spent today's budget of 1k tok (1.1k tok when crossed)") {
		t.Fatalf("notices %+v", b.out)
	}
}

// The top line says what was spent today, where it has room, and only
// when usage.top_line is on.
func TestTopLineSaysToday(t *testing.T) {
	recs := []*state.Record{spending(rec("abcd1234", "api", state.ActivityActive, time.Minute), 12_345, 420_000)}
	m := loaded(recs, ThemeDark, 80, 24)
	if top := firstLine(m); strings.Contains(top, "today") {
		t.Fatalf("usage.top_line off, yet the top line says %q", top)
	}
	m.o.UsageTopLine = true
	if top := firstLine(m); !strings.Contains(top, "today 12.3k tok, $0.42") {
		t.Fatalf("top line %q", top)
	}
	// With a day's budget, it says how much of it, and once it is spent.
	m.o.Budgets.Day = state.Budget{Tokens: 20_000}
	if top := firstLine(m); !strings.HasSuffix(strings.TrimSpace(top), "today 12.3k of 20.0k tok") {
		t.Fatalf("top line %q", top)
	}
	m.o.Budgets.Day = state.Budget{Tokens: 10_000}
	if top := firstLine(m); !strings.HasSuffix(strings.TrimSpace(top), "✗ today 12.3k of 10.0k tok") {
		t.Fatalf("top line %q", top)
	}
}

func firstLine(m Model) string {
	return strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
}

// A card says what its agent spent once lanes read any: tokens, the
// context (its share where the agent says the window) and the agent's
// cost; and the marks say which end is near.
func TestCardSaysUsage(t *testing.T) {
	u := state.Usage{At: fixedNow, Tokens: state.Tokens{In: 1_234_000, Out: 66_000}, Context: 45_000}
	for _, tt := range []struct {
		u    state.Usage
		want string
	}{
		{state.Usage{}, ""},
		{u, "1.3M tok ctx 45.0k"},
		{func() state.Usage { u := u; u.Window = 50_000; return u }(), "1.3M tok ctx 90%"},
		{func() state.Usage { u := u; u.CostMicros = 4_200; return u }(), "1.3M tok ctx 45.0k $0.004"},
		{func() state.Usage { u := u; u.Tokens = state.Tokens{Out: 950}; u.Context = 0; return u }(), "950 tok"},
	} {
		if got := usageSays(&tt.u); got != tt.want {
			t.Errorf("usageSays = %q, want %q", got, tt.want)
		}
	}
	r := rec("abcd1234", "api", state.ActivityActive, time.Minute)
	r.Usage = u
	r.Usage.Window, r.Usage.Limits = 48_000, []state.Limit{{Name: "secondary", UsedPct: 93, ResetsAt: fixedNow.Add(time.Hour)}}
	d := state.DeriveAt(r, fixedNow)
	if !strings.Contains(strings.Join(markTexts(d), " "), "context 93% limit 93%") {
		t.Errorf("marks %v say %q", d.D.Marks, markTexts(d))
	}
}

func markTexts(d state.Derived) []string {
	var out []string
	for _, m := range d.D.Marks {
		out = append(out, theme.MarkShort(m, d.Rec, true))
	}
	return out
}

// usageFixture is the board's fixture with what each agent spent: a
// context near its end, a limit window near its end, a cost.
func usageFixture() []*state.Record {
	recs := fixture()
	for i, r := range recs {
		n := int64(i + 1)
		r.Usage = state.Usage{}
		r.Usage.Take(state.UsageLine{Tokens: state.Tokens{In: n * 123_457, Out: n * 4_321}, Context: n * 9_000, At: fixedNow}, fixedNow)
		switch i {
		case 0:
			r.Usage.Window = 100_000
		case 1:
			r.Usage.Context, r.Usage.Window = 9_500, 10_000 // over 90 %: the context mark
		case 2:
			r.Usage.Limits = []state.Limit{{Name: "secondary", UsedPct: 96, WindowMin: 10080, ResetsAt: fixedNow.Add(30 * time.Hour)}}
		case 3:
			r.Usage.CostMicros = 1_234_567
		}
	}
	return recs
}

// TestGoldenUsage shows the cards with what their agents spent, the two
// marks and today's total on the top line, dark and light, narrow and wide.
func TestGoldenUsage(t *testing.T) {
	for _, th := range []string{ThemeDark, ThemeLight} {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", th, sz.w, sz.h), func(t *testing.T) {
				m := loaded(usageFixture(), th, sz.w, sz.h)
				m.o.UsageTopLine = true
				out := m.View().Content
				checkFrame(t, out, sz.w, sz.h)
				golden.RequireEqual(t, out)
			})
		}
	}
}

// What sessions removed today spent still counts: clearing Done takes a
// record, not the day's total or its budget's count.
func TestRemovedSessionsStillCount(t *testing.T) {
	b := newNotifyBoard(t, Options{Budgets: state.Budgets{Day: state.Budget{Tokens: 1000}}, UsageTopLine: true})
	api := spending(rec("abcd1234", "api", state.ActivityActive, time.Minute), 600, 0)
	b.m.recs = []*state.Record{api}
	b.m.rebuild()
	rawOf(b.m.budgetNotify(fixedNow))
	b.m.spent = []state.Spent{{Day: fixedNow.Local().Format(time.DateOnly), Agent: state.AgentClaude, Sessions: 1, Tokens: state.Tokens{In: 500}}}
	rawOf(b.m.budgetNotify(fixedNow))
	if len(b.out) != 1 {
		t.Fatalf("notices %+v", b.out)
	}
	if today, over := b.m.usageToday(); today != "today 1.1k of 1.0k tok" || !over {
		t.Fatalf("top line says %q (over %v)", today, over)
	}
}
