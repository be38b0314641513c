package state

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Usage is what a session's agent spent, as the agent's own records say
// (docs/design.md §18): numbers only, never a word of what the records
// hold. It is a fact beside activity; only a limit window or the context
// near their end show, as marks (UsageMarks).
type Usage struct {
	// Tokens is this session's total over every record read for it (a
	// /clear or a new conversation starts a new record; the total goes
	// on).
	Tokens
	// Context is the tokens in the model's context at the last request,
	// and Window the model's context window where the agent says (0: it
	// does not).
	Context int64
	Window  int64
	// Limits are the account's limit windows as the agent last reported
	// them (Codex's); nil when it reports none.
	Limits []Limit
	// Days is what was spent on each local day, oldest first, at most
	// UsageKeepDays of them.
	Days []DayUsage
	// At is when the numbers last changed.
	At time.Time
	// Src is where the numbers are read from and how far; Past the
	// records read before it, newest first, at most UsagePast: a hook
	// naming one of them again (a /resume to an earlier conversation)
	// goes on where it was, never counting it twice.
	Src  UsageSource
	Past []UsageSource
}

// UsagePast is how many earlier records a session remembers how far it
// read.
const UsagePast = 4

// Tokens are token counts: In is input not read from a cache (whatever
// the API counts as input, the cached part is CacheRead's), CacheWrite
// input written to a cache; CostMicros the agent's own cost figure in
// millionths of a US dollar (0 where it reports none: lanes keeps no
// price table to go stale).
type Tokens struct {
	In, Out, CacheRead, CacheWrite, CostMicros int64
}

// Total is every token counted, cache reads included.
func (t Tokens) Total() int64 { return t.In + t.Out + t.CacheRead + t.CacheWrite }

// Add returns t + d, each count held at TokensMax: no sum of what agents
// or hosts say wraps around (the 28th hostile re-run made totals go
// below zero).
func (t Tokens) Add(d Tokens) Tokens {
	return Tokens{sat(t.In, d.In), sat(t.Out, d.Out), sat(t.CacheRead, d.CacheRead), sat(t.CacheWrite, d.CacheWrite), sat(t.CostMicros, d.CostMicros)}
}

// TokensMax is the most a count holds; CountMax the most one line, one
// message or one host's session may say (more than any session spends).
const (
	TokensMax = 1 << 60
	CountMax  = 1e15
)

func sat(a, b int64) int64 {
	switch s := a + b; {
	case b > 0 && (s > TokensMax || s < a):
		return TokensMax
	case b < 0 && (s < -TokensMax || s > a):
		return -TokensMax
	default:
		return s
	}
}

// Sub returns t − d.
func (t Tokens) Sub(d Tokens) Tokens {
	return Tokens{t.In - d.In, t.Out - d.Out, t.CacheRead - d.CacheRead, t.CacheWrite - d.CacheWrite, t.CostMicros - d.CostMicros}
}

// backwards: some count is below zero.
func (t Tokens) backwards() bool {
	return t.In < 0 || t.Out < 0 || t.CacheRead < 0 || t.CacheWrite < 0 || t.CostMicros < 0
}

// Limit is one of the account's limit windows: how much of it is used,
// how long it is, and when it resets.
type Limit struct {
	Name      string
	UsedPct   float64
	WindowMin int64
	ResetsAt  time.Time
}

// DayUsage is what was spent on one local day ("2006-01-02").
type DayUsage struct {
	Day string
	Tokens
}

// UsageSource is the record a session's numbers are read from: the file
// its agent's hooks named, how far it was read, the file that was (its
// device and inode: another file at the same path is read from its
// start), and what the last lines said that the next are counted against.
type UsageSource struct {
	Path   string
	Offset int64
	Ident  string
	// Tail is a digest of the last bytes read (TailBytes of them, or all
	// when fewer): a file that no longer holds them there was written
	// anew, and is read from its start.
	Tail string
	// Cum is the last running total read (an agent that writes its
	// session's totals so far, Codex): the next counts by its growth.
	Cum Tokens
	// Msg and MsgTokens are the last message counted and its numbers: a
	// message the agent writes again (Claude Code once per content block,
	// Gemini CLI again with its tool calls) is counted once, by what it
	// says last.
	Msg       string
	MsgTokens Tokens
}

// TailBytes is how much of what was read a source's Tail digests: a
// line's end, with its ids and times.
const TailBytes = 256

// UsageKeepDays is how many days of Days a record keeps.
const UsageKeepDays = 35

// UsageLine is what one line of an agent's record says about usage.
type UsageLine struct {
	// Msg names the message the numbers are for ("" unnamed); Cumulative:
	// the numbers are the session's totals so far, not one message's.
	Msg        string
	Cumulative bool
	Tokens
	// Context and Window as the line says (0: it does not); Limits nil
	// when it says none.
	Context, Window int64
	Limits          []Limit
	// At is when the agent wrote it (zero: it does not say).
	At time.Time
}

// Take counts one line into u: what it adds to the totals (a message
// written again adds only its change, a running total its growth, and a
// running total that went backwards starts again from its new value) and
// to the day it was written on.
func (u *Usage) Take(l UsageLine, now time.Time) {
	var d Tokens
	switch s := &u.Src; {
	case l.Cumulative:
		if d = l.Tokens.Sub(s.Cum); d.backwards() {
			d = l.Tokens
		}
		s.Cum = l.Tokens
	case l.Msg != "" && l.Msg == s.Msg:
		d = l.Tokens.Sub(s.MsgTokens)
		s.MsgTokens = l.Tokens
	default:
		d = l.Tokens
		s.Msg, s.MsgTokens = l.Msg, l.Tokens
	}
	changed := d != Tokens{}
	u.Tokens = u.Tokens.Add(d)
	if changed {
		u.addDay(cmpTime(l.At, now), d)
	}
	if l.Context > 0 && l.Context != u.Context {
		u.Context, changed = l.Context, true
	}
	if l.Window > 0 && l.Window != u.Window {
		u.Window, changed = l.Window, true
	}
	if l.Limits != nil && !slices.Equal(l.Limits, u.Limits) {
		u.Limits, changed = l.Limits, true
	}
	if changed {
		u.At = now
	}
}

func cmpTime(t, or time.Time) time.Time {
	if t.IsZero() {
		return or
	}
	return t
}

// addDay adds d to the day at falls on (local time), keeping the newest
// UsageKeepDays days. A change that takes from a day (a message written
// again with smaller numbers) takes no count below zero.
func (u *Usage) addDay(at time.Time, d Tokens) {
	day := at.Local().Format(time.DateOnly)
	i, found := slices.BinarySearchFunc(u.Days, day, func(e DayUsage, day string) int {
		switch {
		case e.Day < day:
			return -1
		case e.Day > day:
			return 1
		}
		return 0
	})
	if !found {
		u.Days = slices.Insert(u.Days, i, DayUsage{Day: day})
	}
	t := u.Days[i].Tokens.Add(d)
	t.In, t.Out, t.CacheRead, t.CacheWrite, t.CostMicros = max(t.In, 0), max(t.Out, 0), max(t.CacheRead, 0), max(t.CacheWrite, 0), max(t.CostMicros, 0)
	u.Days[i].Tokens = t
	if n := len(u.Days) - UsageKeepDays; n > 0 {
		u.Days = slices.Delete(u.Days, 0, n)
	}
}

// Since is what was spent on the days from day on ("2006-01-02"; "" every
// day kept).
func (u *Usage) Since(day string) Tokens {
	var t Tokens
	for _, d := range u.Days {
		if d.Day >= day {
			t = t.Add(d.Tokens)
		}
	}
	return t
}

// ContextPct is the context's share of the window in percent; false when
// the agent says no window.
func (u *Usage) ContextPct() (float64, bool) {
	if u.Window <= 0 || u.Context <= 0 {
		return 0, false
	}
	return float64(u.Context) * 100 / float64(u.Window), true
}

// UsageNear is the share of the context or of a limit window from which
// a card says it is near its end.
const UsageNear = 90.0

// Marks are the marks u gives its card at now: the context over UsageNear
// percent full, a limit window over UsageNear percent used that has not
// reset since.
func (u *Usage) Marks(now time.Time) []Mark {
	var m []Mark
	if p, ok := u.ContextPct(); ok && p > UsageNear {
		m = append(m, MarkContextFull)
	}
	if _, ok := u.NearLimit(now); ok {
		m = append(m, MarkLimitNear)
	}
	return m
}

// NearLimit is the most used limit window over UsageNear percent that has
// not reset by now.
func (u *Usage) NearLimit(now time.Time) (Limit, bool) {
	var near Limit
	found := false
	for _, l := range u.Limits {
		if l.UsedPct > UsageNear && (l.ResetsAt.IsZero() || l.ResetsAt.After(now)) && (!found || l.UsedPct > near.UsedPct) {
			near, found = l, true
		}
	}
	return near, found
}

// Follow points u at the record path: another path than the one read is
// a new record, read from its start (the totals go on), unless it is one
// of Past, which goes on from where it was.
func (u *Usage) Follow(path string) bool {
	if path == "" || path == u.Src.Path {
		return false
	}
	next := UsageSource{Path: path}
	if i := slices.IndexFunc(u.Past, func(s UsageSource) bool { return s.Path == path }); i >= 0 {
		next = u.Past[i]
		u.Past = slices.Delete(u.Past, i, i+1)
	}
	if u.Src.Path != "" {
		u.Past = slices.Insert(u.Past, 0, u.Src)
		u.Past = u.Past[:min(len(u.Past), UsagePast)]
	}
	u.Src = next
	return true
}

// ValidTranscript reports whether p may name an agent's record: an
// absolute, clean path that fits a spool line's field, printable whole (a
// path the line's cleaning or cutting would change names another file).
func ValidTranscript(p string) bool {
	if p == "" || len(p) > MaxFieldBytes || !filepath.IsAbs(p) || filepath.Clean(p) != p || !utf8.ValidString(p) {
		return false
	}
	for _, r := range p {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// Budget is a limit the user set on spending (docs/design.md §18): tokens,
// or the agents' own cost figures in millionths of a dollar; zero, none.
type Budget struct {
	Tokens     int64
	CostMicros int64
}

// Crossed reports whether t is at or over b.
func (b Budget) Crossed(t Tokens) bool {
	return b.Tokens > 0 && t.Total() >= b.Tokens || b.CostMicros > 0 && t.CostMicros >= b.CostMicros
}

// String is b as the config file writes it: "2M" tokens, "$20".
func (b Budget) String() string {
	switch {
	case b.CostMicros > 0:
		return "$" + strconv.FormatFloat(float64(b.CostMicros)/1e6, 'f', -1, 64)
	case b.Tokens > 0:
		for _, u := range []struct {
			n    int64
			unit string
		}{{1_000_000_000, "G"}, {1_000_000, "M"}, {1000, "k"}} {
			if b.Tokens%u.n == 0 {
				return strconv.FormatInt(b.Tokens/u.n, 10) + u.unit
			}
		}
		return strconv.FormatInt(b.Tokens, 10)
	}
	return ""
}

// Words is b with its unit, as messages say it: "2M tok", "$20.00".
func (b Budget) Words() string {
	switch {
	case b.CostMicros >= 10_000: // to the cent, as the board says dollars
		return "$" + strconv.FormatFloat(float64(b.CostMicros)/1e6, 'f', 2, 64)
	case b.CostMicros > 0:
		return b.String()
	}
	return b.String() + " tok"
}

// ParseBudget reads a budget: a number of tokens ("2000000", "500k",
// "2M", "1.5G", either case) or of dollars ("$20", "$0.50"); "" is none.
func ParseBudget(s string) (Budget, error) {
	if s == "" {
		return Budget{}, nil
	}
	if usd, ok := strings.CutPrefix(s, "$"); ok {
		f, err := strconv.ParseFloat(usd, 64)
		if err != nil || !(f >= 0.000001 && f < 1e9) {
			return Budget{}, fmt.Errorf("want dollars such as \"$20\" (at least $0.000001), not %q", s)
		}
		return Budget{CostMicros: int64(math.Round(f * 1e6))}, nil
	}
	n, mult := s, 1.0
	for unit, m := range map[string]float64{"k": 1e3, "m": 1e6, "g": 1e9} {
		if v, ok := strings.CutSuffix(strings.ToLower(s), unit); ok {
			n, mult = v, m
		}
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil || !(f*mult >= 1 && f*mult < 1e15) {
		return Budget{}, fmt.Errorf("want tokens such as \"500k\" or \"2M\", or dollars such as \"$20\", not %q", s)
	}
	return Budget{Tokens: int64(math.Round(f * mult))}, nil
}

// Budgets are the budgets the config file sets: one for the day, across a
// host's sessions, and one per profile, for each session started with it.
type Budgets struct {
	Day      Budget
	Profiles map[string]Budget
}

// Spent is what removed sessions of one agent spent on one local day
// (the store keeps it when their records go): Sessions counts those whose
// last day it was.
type Spent struct {
	Day      string
	Agent    Agent
	Sessions int
	Tokens
}
