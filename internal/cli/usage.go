package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"lanes/internal/listing"
	"lanes/state"
	"lanes/state/store"
)

// usageBys are what `lanes usage --by` sums by.
var usageBys = []string{"session", "agent", "host", "day"}

// cmdUsage is `lanes usage`: what the agents spent, from their own records
// (docs/design.md §18), summed over this host's sessions, ended ones too,
// and with --all-hosts every host's.
func (a *app) cmdUsage(ctx context.Context, args []string) int {
	fs := a.flags("usage")
	by := fs.String("by", "session", "sum by session, agent, host or day")
	since := fs.String("since", "", "count only the days from this one on: today, yesterday, 7d (the last 7 days, today's\nincluded) or a date 2026-12-01 (days are local; lanes keeps 35)")
	asJSON := fs.Bool("json", false, "print one JSON object: the rows and their total")
	allHosts := fs.Bool("all-hosts", false, "also every host in the hosts file (ssh HOST lanes ls --json --all); a host\nthat does not answer is named on stderr, and usage exits 1 after printing the rest")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "usage takes no arguments")
	}
	if !slices.Contains(usageBys, *by) {
		return a.usageErr(fs, fmt.Sprintf("--by %q: want session, agent, host or day", *by))
	}
	now := a.now()
	from, err := sinceDay(*since, now)
	if err != nil {
		return a.usageErr(fs, err.Error())
	}
	recs, err := a.lsRecords(ctx, a.cycle)
	if err != nil {
		return a.fail(err)
	}
	views, done := listViews(recs, now, true), exitOK
	if *allHosts {
		var complete bool
		if views, complete = a.withHosts(ctx, views, true); !complete {
			done = exitError
		}
	}
	var spent []state.Spent // removed sessions': their records went, their numbers did not
	if st, err := a.svc().Store(); err == nil {
		_ = st.View(func(tx *store.Tx) error { spent = tx.Spent(from); return nil })
	}
	rep := usageReport(views, spent, *by, from)
	if *asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return a.fail(err)
		}
		_, _ = a.stdout.Write(append(state.JSONSafe(b), '\n'))
		return done
	}
	a.printUsage(rep)
	return done
}

// usageRow is one row of `lanes usage`: what the sessions it sums spent.
type usageRow struct {
	Key string `json:"key"`
	// ID is the session's, in a row by session (its name may be used
	// again after it ended).
	ID       string `json:"id,omitempty"`
	Sessions int    `json:"sessions"`
	listing.Tokens
	// CostUSD is the agents' own cost figures summed, null where none of
	// them reports one (cost_micros is then 0).
	CostUSD *float64 `json:"cost_usd"`
}

// row is a row with its cost said the listing's way.
func row(key, id string, sessions int, t state.Tokens) usageRow {
	return usageRow{Key: key, ID: id, Sessions: sessions, Tokens: listing.TokensOf(t), CostUSD: listing.USD(t.CostMicros)}
}

// usageSums is `lanes usage`'s answer.
type usageSums struct {
	By    string     `json:"by"`
	Since *string    `json:"since"` // null: every day the records hold
	Rows  []usageRow `json:"rows"`
	Total usageRow   `json:"total"`
}

// usageReport sums what views' sessions and the removed ones (spent)
// spent by by, from the day from on ("" the sessions' whole totals).
func usageReport(views []state.Derived, spent []state.Spent, by, from string) usageSums {
	type sum struct {
		state.Tokens
		key, id  string
		sessions int
	}
	rows := map[string]*sum{} // by key, or a session's by its id
	rep := usageSums{By: by, Rows: []usageRow{}}
	if from != "" {
		rep.Since = &from
	}
	add := func(key, id string, t state.Tokens, sessions int) {
		r := rows[key+" "+id]
		if r == nil {
			r = &sum{key: key, id: id}
			rows[key+" "+id] = r
		}
		r.Tokens, r.sessions = r.Add(t), r.sessions+sessions
	}
	var total state.Tokens
	sessions := 0
	for _, v := range views {
		u := &v.Rec.Usage
		if u.At.IsZero() {
			continue // its agent's records were never read: no row of zeros
		}
		t := u.Tokens
		if from != "" {
			if t = u.Since(from); t == (state.Tokens{}) {
				continue // nothing spent in those days: no row of zeros
			}
		}
		total = total.Add(t)
		sessions++
		switch by {
		case "day":
			for _, d := range u.Days {
				if d.Day >= from {
					add(d.Day, "", d.Tokens, 1)
				}
			}
		case "agent":
			add(string(v.Rec.Agent), "", t, 1)
		case "host":
			add(cmp.Or(v.Host, localHost), "", t, 1)
		default:
			add(sessionKey(v), v.Rec.ID, t, 1)
		}
	}
	for _, s := range spent {
		total = total.Add(s.Tokens)
		sessions += s.Sessions
		add(spentKey(by, s), "", s.Tokens, s.Sessions)
	}
	for _, k := range slices.Sorted(maps.Keys(rows)) {
		r := rows[k]
		rep.Rows = append(rep.Rows, row(r.key, r.id, r.sessions, r.Tokens))
	}
	rep.Total = row("total", "", sessions, total)
	return rep
}

// removedRow sums, in a row by session, the sessions removed since
// (lanes rm, clearing Done): their records went, their numbers stay.
const removedRow = "(removed sessions)"

// spentKey is the row removed sessions' spending goes to.
func spentKey(by string, s state.Spent) string {
	switch by {
	case "day":
		return s.Day
	case "agent":
		return string(s.Agent)
	case "host":
		return localHost
	}
	return removedRow
}

// sessionKey names a session in a row: NAME, NAME@HOST for another
// host's.
func sessionKey(v state.Derived) string {
	if v.Host != "" {
		return v.Rec.Name + "@" + v.Host
	}
	return v.Rec.Name
}

var relativeDays = regexp.MustCompile(`^([1-9][0-9]{0,2})d$`)

// sinceDay is the first local day --since counts ("" for every day).
func sinceDay(s string, now time.Time) (string, error) {
	day := func(t time.Time) string { return t.Local().Format(time.DateOnly) }
	switch m := relativeDays.FindStringSubmatch(s); {
	case s == "":
		return "", nil
	case s == "today":
		return day(now), nil
	case s == "yesterday":
		return day(now.AddDate(0, 0, -1)), nil
	case m != nil:
		n, _ := strconv.Atoi(m[1])
		return day(now.AddDate(0, 0, 1-n)), nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return day(t), nil
	}
	return "", fmt.Errorf("--since %q: want today, yesterday, a number of days such as 7d, or a date such as 2026-12-01", s)
}

// printUsage prints rep as a table, its total last.
func (a *app) printUsage(rep usageSums) {
	if rep.Total.Sessions == 0 {
		fmt.Fprintln(a.stdout, "no usage read yet — lanes reads it from the agents' own records once a session's hooks name them (Claude Code, Codex, Gemini CLI, Qwen Code, pi, OpenCode)")
		return
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tSESSIONS\tINPUT\tOUTPUT\tCACHE READ\tCACHE WRITE\tTOTAL\tCOST\n", map[string]string{
		"session": "SESSION", "agent": "AGENT", "host": "HOST", "day": "DAY"}[rep.By])
	for _, r := range append(rep.Rows, rep.Total) {
		cost := "–"
		if r.CostMicros > 0 {
			cost = "$" + strconv.FormatFloat(float64(r.CostMicros)/1e6, 'f', 2, 64)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", state.CleanText(r.Key), r.Sessions,
			r.Input, r.Output, r.CacheRead, r.CacheWrite, r.Total, cost)
	}
	_ = tw.Flush()
}
