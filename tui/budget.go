package tui

import (
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"lanes/state"
)

// budgetWatch remembers which budgets (the config file's, docs/design.md
// §18) were crossed, so that crossing one notifies once: a budget already
// crossed when the board starts says nothing.
type budgetWatch struct {
	crossed map[string]bool // nil until the board's first load
}

// crossings are what crossed a budget since the last call, in words: the
// day's total of this host's sessions, or a session its profile's.
func (w *budgetWatch) crossings(recs []*state.Record, removed []state.Spent, b state.Budgets, now time.Time) []string {
	today := now.Local().Format(time.DateOnly)
	was, first := w.crossed, w.crossed == nil
	if first {
		w.crossed = map[string]bool{}
	}
	var said []string
	cross := func(key, words string) {
		if !w.crossed[key] && !first && !was[key] {
			said = append(said, words)
		}
		w.crossed[key] = true
	}
	day := spentOn(removed, today)
	for _, r := range recs {
		day = day.Add(r.Usage.Since(today))
		if pb, ok := b.Profiles[r.Profile]; ok && r.Profile != "" && pb.Crossed(r.Usage.Tokens) {
			cross("session "+r.ID, r.Name+" spent its profile "+r.Profile+"'s budget of "+pb.Words()+" ("+spent(r.Usage.Tokens)+")")
		}
	}
	if b.Day.Crossed(day) {
		cross("day "+today, "the agents spent today's budget of "+b.Day.Words()+" ("+spent(day)+" when crossed)")
	}
	slices.Sort(said)
	return said
}

// spentOn is what the removed sessions spent on day.
func spentOn(removed []state.Spent, day string) state.Tokens {
	var t state.Tokens
	for _, s := range removed {
		if s.Day == day {
			t = t.Add(s.Tokens)
		}
	}
	return t
}

// spent is what t says in a few words: "2.1M tok, $4.20".
func spent(t state.Tokens) string {
	s := count(t.Total()) + " tok"
	if t.CostMicros > 0 {
		s += ", " + dollars(t.CostMicros)
	}
	return s
}

// budgetNotify tells the user about each budget crossed since the last
// cycle, as entering Needs you does (the same ways, the same quiet).
func (m *Model) budgetNotify(now time.Time) tea.Cmd {
	said := m.budgets.crossings(m.recs, m.spent, m.o.Budgets, now)
	if len(said) == 0 || m.o.NoNotify || m.quiet {
		return nil
	}
	n := Notice{Title: "lanes", Body: state.Summary(strings.Join(said, "; "), state.MessageMax), Jump: "lanes usage --since today"}
	for _, r := range m.recs {
		if r.Live() && !slices.Contains(n.Sockets, r.Runtime.Socket) {
			n.Sockets = append(n.Sockets, r.Runtime.Socket)
		}
	}
	m.pace.kick()
	return tea.Batch(notifyCmd(m.ctx, n, m.o.TmuxEnv != "", way(m.o.NotifyWays, "terminal"), m.o.Notify), m.flash(n.Body, false))
}

// spentToday sums what the sessions ds spent today: all of them, and
// this host's. rebuild keeps it, so that View only formats it.
func spentToday(ds []state.Derived, now time.Time) (all, here state.Tokens) {
	today := now.Local().Format(time.DateOnly)
	for _, v := range ds {
		t := v.Rec.Usage.Since(today)
		all = all.Add(t)
		if v.Host == "" {
			here = here.Add(t)
		}
	}
	return all, here
}

// usageToday is what the agents of every session the board shows spent
// today, as the top line says it ("" for nothing), and whether this
// host's spending crossed the day's budget, which it then names: "today
// 21M of 20M tok".
func (m *Model) usageToday() (string, bool) {
	removed := spentOn(m.spent, m.now.Local().Format(time.DateOnly))
	all, here := m.today.all.Add(removed), m.today.here.Add(removed)
	if all.Total() == 0 {
		return "", false
	}
	b := m.o.Budgets.Day
	switch {
	case b.Tokens > 0:
		return "today " + count(all.Total()) + " of " + count(b.Tokens) + " tok", b.Crossed(here)
	case b.CostMicros > 0:
		return "today " + spent(all) + " of " + dollars(b.CostMicros), b.Crossed(here)
	}
	return "today " + spent(all), false
}
