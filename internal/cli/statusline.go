package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
	"lanes/theme"
)

// tmux runs the status line every status-interval and shows whatever it
// prints, so it answers within a fixed budget and never fails.
const (
	// statusBudget bounds the store lock waits; a held lock makes the
	// command give up after about 100 ms (one open waits at most half of
	// it, and bbolt polls the lock every 50 ms).
	statusBudget = 250 * time.Millisecond
	// statusTmuxFloor is the least time the tmux read gets, so a budget
	// spent on lock waits does not make a healthy server look unreachable.
	statusTmuxFloor = 100 * time.Millisecond
	// statusReuse: a cycle younger than this is current enough.
	statusReuse = time.Second
	// lastGoodMaxAge: on an error the last good line stands in only this
	// long; a lasting failure shows the marker instead of an old answer.
	lastGoodMaxAge = time.Minute

	markerError     = "lanes:!"
	markerNoSession = "lanes:?"
	lastGoodFile    = "status-line.last"
)

const statusLineHelp = `
Without --session: counts of working (●), idle (○), needs you (◆), in review
(◐) and ready to merge (⇡) sessions, zero counts left out; done is not
counted, and nothing at all is printed when nothing is live. --format json
always prints {"zones":{…},"statuses":{…},"live":N}, where "done" counts
sessions terminated in the last 24 h, as ` + "`lanes ls`" + ` does.

--session NAME takes a lanes name, an id, or the tmux session name
(lanes-NAME, so '#{session_name}' works in a tmux format); it prints the
session's activity dot and status label. Given several times, it prints the
one state that stands for the group, with its name: needs you first, then
a failed turn, working, unconfirmed, interrupted, and the rest.
An unknown session prints ` + markerNoSession + `.

While another lanes process holds the store, it shows that process's last
cycle if it ran under 2 s ago. It never fails tmux's status bar: on any error (store busy, tmux not
answering, store schema too new, store damaged) it prints the last good line of the past
minute, else ` + markerError + `, and exits 0. Run ` + "`lanes doctor`" + ` for details.
NO_COLOR drops the colour codes from the tmux format.
`

// sessionsFlag collects a repeatable --session.
type sessionsFlag []string

func (s *sessionsFlag) String() string     { return strings.Join(*s, ",") }
func (s *sessionsFlag) Set(v string) error { *s = append(*s, v); return nil }

// statusLine is one status-line request.
type statusLine struct {
	format   string // tmux, plain or json
	dark     bool
	color    bool
	sessions []string
	allHosts bool
}

func (a *app) cmdStatusLine(ctx context.Context, args []string) int {
	fs := a.flags("status-line")
	format := fs.String("format", "tmux", "tmux (a tmux format with colours), plain or json")
	var sessions sessionsFlag
	fs.Var(&sessions, "session", "one session's dot and label, by `NAME`, id or lanes-NAME; repeat for a group")
	themeName := fs.String("theme", "", "colours for the tmux format: dark or light (default: global --theme, else dark)")
	allHosts := fs.Bool("all-hosts", false, "count the sessions of every host in the hosts file too (each asked over ssh, 2 s at most); a host that does not answer shows as NAME:!")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		if fs.Output() == a.stdout { // --help, not a usage error
			fmt.Fprint(fs.Output(), statusLineHelp)
		}
	}
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "status-line takes no arguments (did you mean --session %s?)", fs.Arg(0))
	}
	if !slices.Contains([]string{"tmux", "plain", "json"}, *format) {
		return a.usageErr(fs, "unknown --format %q: use tmux, plain or json", *format)
	}
	if *themeName == "" {
		*themeName = a.theme
	}
	if *themeName != "" && !slices.Contains(themeNames, *themeName) {
		return a.usageErr(fs, "unknown --theme %q: use dark or light", *themeName)
	}
	if *allHosts && len(sessions) > 0 {
		return a.usageErr(fs, "--all-hosts counts sessions; --session names one of this host: use one or the other")
	}
	sl := statusLine{format: *format, dark: *themeName != "light", color: a.getenv("NO_COLOR") == "", sessions: sessions, allHosts: *allHosts}

	others := a.otherHosts(ctx, sl.allHosts)
	data, err := a.statusData(ctx, time.Now().Add(statusBudget), len(sl.sessions) == 0)
	if err == nil {
		data.hosts, err = others()
	}
	var out string
	if err == nil {
		out = sl.render(data, a.now())
		a.saveLastGood(sl.key(), out)
	} else {
		fmt.Fprintf(a.stderr, "lanes: status-line: %v (see `lanes doctor`)\n", err)
		var ok bool
		if out, ok = a.lastGood(sl.key()); !ok {
			out = sl.marker(err)
		}
	}
	if out != "" {
		fmt.Fprintln(a.stdout, out)
	}
	return exitOK
}

// statusData returns the records as of a cycle less than statusReuse old,
// running one when there is none; for the counts alone (countsOnly) that
// cycle's stored tally does. Every store lock wait and the tmux read end by
// deadline, so a held lock costs a bounded wait, not a hang.
func (a *app) statusData(ctx context.Context, deadline time.Time, countsOnly bool) (statusData, error) {
	c, err := a.collector()
	if err != nil {
		return statusData{}, err
	}
	st := c.Store
	// bbolt waits up to LockTimeout per open; each open gets at most half
	// the budget, and the opens still to come share what is left.
	st.Attempts = 1
	budget := func(opens int) {
		st.LockTimeout = min(max(time.Until(deadline)/time.Duration(opens), time.Millisecond), statusBudget/2)
	}
	// A cycle's counts, when they are all that is asked: its tally.
	fromSnapshot := func(maxAge time.Duration) (statusData, bool) {
		if countsOnly {
			if t, ok := a.snapshotTally(maxAge); ok {
				return statusData{tally: &t}, true
			}
		}
		recs, ok := a.snapshot(maxAge)
		return statusData{recs: recs}, ok
	}
	last := st.LastCycle()
	if age := a.now().Sub(last); !last.IsZero() && age >= 0 && age < statusReuse {
		// The recent cycle's records: from its snapshot, with no lock to
		// wait on, else from the store.
		data, ok := fromSnapshot(statusReuse)
		if !ok {
			budget(1)
			if err := st.View(func(tx *store.Tx) error {
				var err error
				data.recs, err = tx.All()
				return err
			}); err != nil {
				if data, ok = fromSnapshot(snapshotMaxAge); !ok || !errors.Is(err, store.ErrBusy) {
					return statusData{}, err
				}
			}
		}
		return a.reachable(data)
	}
	tmuxBy := deadline
	if floor := time.Now().Add(statusTmuxFloor); floor.After(tmuxBy) {
		tmuxBy = floor
	}
	ctx, cancel := context.WithDeadline(ctx, tmuxBy)
	defer cancel()
	budget(2)        // the cycle opens the store twice
	c.NoUsage = true // it shows none; the board and ls read it
	res, err := c.Cycle(ctx)
	if err == nil && res.TmuxErr != nil && res.Watching {
		err = fmt.Errorf("%w: %w", session.ErrTmuxDown, res.TmuxErr)
	}
	if errors.Is(err, store.ErrBusy) {
		// A lock held by another cycle: that cycle's records, if under 2 s
		// old, stand in, unless it found the server silent. Only a busy
		// store: a tmux read cut short by our budget is reported as a
		// server not answering.
		if data, ok := fromSnapshot(snapshotMaxAge); ok {
			return a.reachable(data)
		}
	}
	if err != nil {
		return statusData{}, err
	}
	return statusData{recs: res.Records}, nil
}

// render is the line for data at now; "" when there is nothing to show.
func (sl statusLine) render(data statusData, now time.Time) string {
	if len(sl.sessions) > 0 {
		return sl.renderSessions(data.recs, now)
	}
	t := data.tallyAt(now)
	down := data.hostsDown()
	if sl.format == "json" {
		return tallyJSON(t, down)
	}
	segments := []struct {
		spec theme.Spec
		n    int
	}{
		{theme.StatusSpec(state.StatusWorking), t.Statuses[state.StatusWorking]},
		{theme.StatusSpec(state.StatusIdle), t.IdleStack},
		{theme.ZoneSpec(state.ZoneNeedsYou), t.Zones[state.ZoneNeedsYou]},
		{theme.ZoneSpec(state.ZoneInReview), t.Zones[state.ZoneInReview]},
		{theme.ZoneSpec(state.ZoneReadyToMerge), t.Zones[state.ZoneReadyToMerge]},
	}
	var parts []string
	for _, s := range segments {
		if s.n > 0 && t.Live > 0 {
			parts = append(parts, sl.paint(s.spec.Role, s.spec.Glyph+strconv.Itoa(s.n)))
		}
	}
	// Then the hosts whose sessions the counts leave out.
	for _, h := range down {
		parts = append(parts, sl.paint(theme.StatusSpec(state.StatusUnknown).Role, h+":!"))
	}
	return strings.Join(parts, " ")
}

// renderSessions shows one session, or the one that stands for a group.
func (sl statusLine) renderSessions(recs []*state.Record, now time.Time) string {
	var views []state.Derived
	for _, name := range sl.sessions {
		if r := resolveForStatus(recs, name); r != nil {
			views = append(views, state.DeriveAt(r, now))
		}
	}
	if len(views) == 0 {
		if sl.format == "json" {
			return errorJSON(strings.Join(sl.sessions, ","), "no such session")
		}
		return markerNoSession
	}
	v := views[rollup(views)]
	if sl.format == "json" {
		marks := v.D.Marks
		if marks == nil {
			marks = []state.Mark{}
		}
		b, _ := json.Marshal(struct {
			Name     string         `json:"name"`
			Activity state.Activity `json:"activity"`
			Status   state.Status   `json:"status"`
			Zone     state.Zone     `json:"zone"`
			Marks    []state.Mark   `json:"marks"`
		}{v.Rec.Name, v.Rec.Activity.Known(), v.D.Status, v.D.Zone, marks})
		return string(b)
	}
	dot := theme.ActivitySpec(v.Rec.Activity.Known())
	if v.Rec.Runtime.Terminated {
		dot = theme.StatusSpec(v.D.Status) // its last activity no longer means anything
	}
	status := theme.StatusSpec(v.D.Status)
	var parts []string
	if len(sl.sessions) > 1 {
		parts = append(parts, sl.paint(-1, v.Rec.Name))
	}
	parts = append(parts, sl.paint(dot.Role, dot.Glyph), sl.paint(status.Role, statusText(v)))
	for _, m := range v.D.Marks {
		ms := theme.MarkSpec(m)
		parts = append(parts, "·", sl.paint(ms.Role, ms.Short))
	}
	return strings.Join(parts, " ")
}

// resolveForStatus finds a session by name or id, or by the tmux session
// it runs in, which is what '#{session_name}' gives inside tmux.
func resolveForStatus(recs []*state.Record, name string) *state.Record {
	if r, err := state.Resolve(recs, name); err == nil {
		return r
	}
	var found *state.Record
	for _, r := range recs {
		if r.Runtime.TmuxSession == name && (found == nil || r.Live() && !found.Live()) {
			found = r
		}
	}
	return found
}

// rollup is the index of the session that stands for a group (docs/design.md
// §8): the most urgent by state.Rank, and among equals the first in the
// board's order (Derived.Compare: the longest wait), whatever order the
// sessions were named in.
func rollup(vs []state.Derived) int {
	best := 0
	for i := range vs {
		r, b := state.Rank(vs[i].D), state.Rank(vs[best].D)
		if r < b || r == b && vs[i].Compare(&vs[best]) < 0 {
			best = i
		}
	}
	return best
}

// paint colours text in role r for the tmux format (r < 0: no colour); the
// plain and json formats take text as it is.
func (sl statusLine) paint(r theme.Role, text string) string {
	switch {
	case sl.format != "tmux":
		return text
	case r < 0 || !sl.color:
		return theme.EscapeTmux(text)
	}
	return theme.Tmux(r, sl.dark, text)
}

// marker is what stands in for a line when there is neither one nor a last
// good one.
func (sl statusLine) marker(err error) string {
	if sl.format != "json" {
		return markerError
	}
	reason := "error"
	switch {
	case errors.Is(err, store.ErrBusy):
		reason = "store busy"
	case errors.Is(err, state.ErrSchemaTooNew):
		reason = "store schema too new"
	case errors.Is(err, store.ErrDamaged):
		reason = "store damaged"
	case errors.Is(err, session.ErrTmuxDown):
		reason = "tmux not answering"
	}
	return errorJSON(strings.Join(sl.sessions, ","), reason)
}

func errorJSON(name, reason string) string {
	v := map[string]string{"error": reason}
	if name != "" {
		v["name"] = name
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// key names this request's entry in the last-good cache.
func (sl statusLine) key() string {
	return fmt.Sprintf("%s/dark=%t/color=%t/hosts=%t/%s", sl.format, sl.dark, sl.color, sl.allHosts, strings.Join(sl.sessions, ","))
}

// tallyJSON is the docs/design.md §10 shape, keys in board and legend
// order; every zone and status is present, zeros included, so scripts need
// no defaults.
// With --all-hosts, "unreachable" lists the hosts whose sessions are not
// counted.
func tallyJSON(t state.Tally, down []string) string {
	s := fmt.Sprintf(`{"zones":%s,"statuses":%s,"live":%d`,
		jsonCounts(state.Zones, t.Zones), jsonCounts(state.Statuses, t.Statuses), t.Live)
	if down != nil {
		b, _ := json.Marshal(down)
		s += `,"unreachable":` + string(b)
	}
	return s + "}"
}

func jsonCounts[K ~string](keys []K, n map[K]int) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%q:%d", k, n[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}
