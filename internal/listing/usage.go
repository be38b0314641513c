package listing

import (
	"time"

	"lanes/state"
)

// Usage is what a session's agent spent, as its own records say
// (docs/design.md §18); null in a listing until lanes read any.
type Usage struct {
	Tokens
	// CostUSD is the agent's own cost figure, null where it reports none.
	CostUSD *float64 `json:"cost_usd"`
	// Context is the tokens in the model's context at the last request;
	// ContextWindow and ContextPct null where the agent says no window.
	Context       int64    `json:"context"`
	ContextWindow *int64   `json:"context_window"`
	ContextPct    *float64 `json:"context_pct"`
	Limits        []Limit  `json:"limits"`
	// Days is what was spent on each local day, oldest first.
	Days []Day  `json:"days"`
	At   string `json:"at"`
}

// Tokens are token counts: input is what was not read from a cache.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
	Total      int64 `json:"total"`
	// CostMicros is the agent's cost figure in millionths of a US dollar
	// (0 where it reports none): sums of it are exact.
	CostMicros int64 `json:"cost_micros"`
}

// Limit is one of the account's limit windows.
type Limit struct {
	Name          string  `json:"name"`
	UsedPct       float64 `json:"used_pct"`
	WindowMinutes int64   `json:"window_minutes"`
	ResetsAt      *string `json:"resets_at"`
}

// Day is what was spent on one local day.
type Day struct {
	Day string `json:"day"`
	Tokens
}

// TokensOf is t as a listing says it.
func TokensOf(t state.Tokens) Tokens {
	return Tokens{Input: t.In, Output: t.Out, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite, Total: t.Total(), CostMicros: t.CostMicros}
}

// state is t as a record holds it: another host's numbers, each kept
// between 0 and state.CountMax so that no sum of them overflows.
func (t Tokens) state() state.Tokens {
	return state.Tokens{In: state.Clamp(t.Input), Out: state.Clamp(t.Output), CacheRead: state.Clamp(t.CacheRead), CacheWrite: state.Clamp(t.CacheWrite), CostMicros: state.Clamp(t.CostMicros)}
}

// USD is micros as a listing says a cost: dollars, null for none.
func USD(micros int64) *float64 {
	if micros <= 0 {
		return nil
	}
	usd := float64(micros) / 1e6
	return &usd
}

// usageOf is u as a listing says it; nil before anything was read.
func usageOf(u state.Usage) *Usage {
	if u.At.IsZero() {
		return nil
	}
	j := &Usage{Tokens: TokensOf(u.Tokens), Context: u.Context, Limits: []Limit{}, Days: []Day{}, At: RFC3339(u.At)}
	j.CostUSD = USD(u.CostMicros)
	if p, ok := u.ContextPct(); ok {
		w := u.Window
		j.ContextWindow, j.ContextPct = &w, &p
	}
	for _, l := range u.Limits {
		jl := Limit{Name: l.Name, UsedPct: l.UsedPct, WindowMinutes: l.WindowMin}
		if !l.ResetsAt.IsZero() {
			at := RFC3339(l.ResetsAt)
			jl.ResetsAt = &at
		}
		j.Limits = append(j.Limits, jl)
	}
	for _, d := range u.Days {
		j.Days = append(j.Days, Day{Day: d.Day, Tokens: TokensOf(d.Tokens)})
	}
	return j
}

// state is j as a record holds it (another host's session, mirrored).
func (j *Usage) state() state.Usage {
	if j == nil {
		return state.Usage{}
	}
	u := state.Usage{Tokens: j.Tokens.state(), Context: state.Clamp(j.Context), At: parse(j.At)}
	if j.ContextWindow != nil {
		u.Window = state.Clamp(*j.ContextWindow)
	}
	for _, l := range j.Limits {
		if !(l.UsedPct >= 0 && l.UsedPct <= 100) {
			continue // NaN, or nonsense
		}
		u.Limits = append(u.Limits, state.Limit{Name: l.Name, UsedPct: l.UsedPct, WindowMin: l.WindowMinutes, ResetsAt: parse(deref(l.ResetsAt))})
	}
	for _, d := range j.Days {
		if _, err := time.Parse(time.DateOnly, d.Day); err != nil || len(u.Days) > 0 && d.Day <= u.Days[len(u.Days)-1].Day {
			continue // no day, or one said again or out of order
		}
		u.Days = append(u.Days, state.DayUsage{Day: d.Day, Tokens: d.Tokens.state()})
	}
	if n := len(u.Days) - state.UsageKeepDays; n > 0 { // as many as a record keeps
		u.Days = u.Days[n:]
	}
	return u
}

// StreamedDays is how many of a session's days the watch stream carries:
// a board says today's total (another host's today may be this one's
// yesterday), and `lanes usage --all-hosts` asks for every day with `ls
// --json`. A line per change of a session at work stays small.
const StreamedDays = 2

// StreamDays keeps the last StreamedDays of each session's days.
func StreamDays(list []Session) {
	for i := range list {
		if u := list[i].Usage; u != nil && len(u.Days) > StreamedDays {
			u.Days = u.Days[len(u.Days)-StreamedDays:]
		}
	}
}
