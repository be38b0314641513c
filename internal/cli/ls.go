package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"text/tabwriter"
	"time"

	"lanes/internal/session"
	"lanes/state"
	"lanes/theme"
)

func (a *app) cmdLs(ctx context.Context, args []string) int {
	fs := a.flags("ls")
	asJSON := fs.Bool("json", false, "print a JSON array, one object per session")
	all := fs.Bool("all", false, "include sessions terminated more than 24 h ago")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "ls takes no arguments")
	}
	res, err := a.cycle(ctx)
	if errors.Is(err, state.ErrBusy) {
		if recs, ok := a.snapshot(snapshotMaxAge); ok {
			a.warn("store busy; showing the last cycle, under %s old", snapshotMaxAge)
			res, err = state.CycleResult{Records: recs}, nil
		}
	}
	if err != nil {
		if res.Records, err = a.readOnlyRecords(err); err != nil {
			return a.fail(err)
		}
	}
	now := a.now()
	views := listViews(res.Records, now, *all)
	a.noteOtherServers(res.Records)
	if *asJSON {
		out := make([]sessionJSON, len(views))
		for i, v := range views {
			out[i] = toJSON(v, !state.Off(a.getenv(state.EnvContent)))
		}
		enc := json.NewEncoder(a.stdout)
		if err := enc.Encode(out); err != nil {
			return a.fail(err)
		}
		return exitOK
	}
	if len(views) == 0 {
		fmt.Fprintln(a.stdout, "no sessions — start one with `lanes new NAME`")
		return exitOK
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tAGENT\tSTATUS\tZONE\tAGE\tID")
	for _, v := range views {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", v.Rec.Name, v.Rec.Agent, statusLabel(v),
			theme.ZoneSpec(v.D.Zone).Short, theme.Age(now, v.D.Since), v.Rec.ID)
	}
	tw.Flush()
	return exitOK
}

// listViews derives every record and sorts it as the board's sidebar does,
// most urgent first (state.Derived.Compare); by default sessions terminated more
// than 24 h ago are left out.
func listViews(recs []*state.Record, now time.Time, all bool) []state.Derived {
	var out []state.Derived
	for _, r := range recs {
		if !all && !r.Recent(now) {
			continue
		}
		out = append(out, state.DeriveAt(r, now))
	}
	slices.SortFunc(out, func(x, y state.Derived) int { return x.Compare(&y) })
	return out
}

// statusText is the status in words, "exited (3)" for an exited agent.
func statusText(v state.Derived) string {
	return cmp.Or(state.Detail(v.Rec, v.D), theme.StatusSpec(v.D.Status).Short)
}

// statusLabel is the status with its glyph, exit detail and marks.
func statusLabel(v state.Derived) string {
	s := theme.StatusSpec(v.D.Status).Glyph + " " + statusText(v)
	for _, m := range v.D.Marks {
		s += " · " + theme.MarkSpec(m).Short
	}
	return s
}

type exitJSON struct {
	Status *int    `json:"status"`
	Signal *string `json:"signal"`
}

type prJSON struct {
	Number    int           `json:"number"`
	URL       string        `json:"url"`
	State     string        `json:"state"`
	Review    string        `json:"review"`
	CI        string        `json:"ci"`
	Mergeable string        `json:"mergeable"`
	Base      string        `json:"base"`
	Head      string        `json:"head"`
	Status    *state.Status `json:"status"` // null for a closed PR
}

type sessionJSON struct {
	ID               string         `json:"id"`
	Name             string         `json:"name"`
	Agent            state.Agent    `json:"agent"`
	Activity         state.Activity `json:"activity"`
	Dialog           bool           `json:"dialog"` // a dialog Enter would answer: send refuses
	Status           state.Status   `json:"status"`
	Zone             state.Zone     `json:"zone"`
	Marks            []state.Mark   `json:"marks"`
	IsTerminated     bool           `json:"is_terminated"`
	TerminatedReason *string        `json:"terminated_reason"`
	Exit             *exitJSON      `json:"exit"`
	Since            string         `json:"since"`
	Launch           string         `json:"launch"`
	TmuxSession      string         `json:"tmux_session"`
	Dir              string         `json:"dir"`
	Branch           string         `json:"branch"`
	// Worktree is the git worktree lanes made for it, Base the ref its
	// branch started from (docs/design.md §12); null for none.
	Worktree      *string        `json:"worktree"`
	Base          *string        `json:"base"`
	Outcome       *state.Outcome `json:"outcome"`
	PRs           []prJSON       `json:"prs"`
	EventsApplied int            `json:"events_applied"`
	EventsDropped map[string]int `json:"events_dropped"`
	// Content (docs/design.md §2): null when unknown, or with
	// LANES_CONTENT=off.
	Tool        *toolJSON `json:"tool"`
	Question    *string   `json:"question"`
	LastMessage *string   `json:"last_message"`
	Muted       bool      `json:"muted"`
	// DialogAt is when the dialog it shows opened (null: none), to the
	// nanosecond: `lanes answer --dialog` takes it.
	DialogAt *string `json:"dialog_at"`
	// Ahead and behind its base, and files changed, as the board last
	// read them with git (docs/design.md §12): null until the first read.
	Ahead   *int `json:"ahead"`
	Behind  *int `json:"behind"`
	Changed *int `json:"changed"`
	// Adopted: lanes did not start it; its installed hooks report it
	// (docs/design.md §13).
	Adopted bool `json:"adopted"`
	// PaneID is its tmux pane, "" when it has none known.
	PaneID string `json:"pane_id"`
}

// toolJSON is the current or last tool and the summary of its input.
type toolJSON struct {
	Name  string `json:"name"`
	Input string `json:"input"`
}

func toJSON(v state.Derived, content bool) sessionJSON {
	r := v.Rec
	j := sessionJSON{
		ID: r.ID, Name: r.Name, Agent: r.Agent,
		Activity: r.Activity.Known(), Dialog: r.Activity.Dialog,
		Status: v.D.Status, Zone: v.D.Zone, Marks: v.D.Marks,
		IsTerminated: r.Runtime.Terminated,
		Since:        rfc3339(v.D.Since),
		Launch:       r.Runtime.Launch, TmuxSession: r.Runtime.TmuxSession,
		Dir: r.Dir, Branch: r.Branch,
		PRs:           []prJSON{},
		EventsApplied: r.EventsApplied, EventsDropped: r.EventsDropped,
		Muted: r.Muted, Adopted: r.Adopted, PaneID: r.Runtime.PaneID,
	}
	j.Worktree, j.Base = nonEmpty(r.Git.Worktree), nonEmpty(r.Git.Base)
	if g := r.Git; !g.ReadAt.IsZero() {
		j.Changed = &g.Changed
		if g.Ahead >= 0 {
			j.Ahead, j.Behind = &g.Ahead, &g.Behind
		}
	}
	if r.Activity.Dialog && !r.Activity.DialogAt.IsZero() {
		at := rfc3339Nano(r.Activity.DialogAt)
		j.DialogAt = &at
	}
	if a := r.Activity; content {
		if tool, input := a.ToolNow(); tool != "" || input != "" {
			j.Tool = &toolJSON{Name: tool, Input: input}
		}
		j.Question, j.LastMessage = nonEmpty(a.Question), nonEmpty(a.LastMessage)
	}
	if j.Marks == nil {
		j.Marks = []state.Mark{}
	}
	if j.EventsDropped == nil {
		j.EventsDropped = map[string]int{}
	}
	if r.Runtime.Terminated {
		reason := r.Runtime.TerminatedReason
		j.TerminatedReason = &reason
	}
	if status, signal, dead := r.Exit(); dead {
		j.Exit = &exitJSON{Status: status}
		if signal != "" {
			j.Exit.Signal = &signal
		}
	}
	if r.Activity.Outcome != state.OutcomeNone {
		o := r.Activity.Outcome
		j.Outcome = &o
	}
	for _, p := range r.PRs {
		var s *state.Status // null for a closed PR
		if st, ok := state.PROwnStatus(p); ok {
			s = &st
		}
		j.PRs = append(j.PRs, prJSON{p.Number, p.URL, p.State, p.Review, p.CI, p.Mergeable, p.Base, p.Head, s})
	}
	return j
}

// nonEmpty is s, or nil (JSON null) when it is empty.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func rfc3339Nano(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// noteOtherServers says on stderr which live sessions sit on a tmux server
// this command did not read (another --socket, or none where
// LANES_TMUX_SOCKET was set before): they show what was last read of them,
// which may be long ago.
func (a *app) noteOtherServers(recs []*state.Record) {
	n := map[string]int{}
	for _, r := range recs {
		if r.Live() && r.Runtime.Socket != a.socket {
			n[r.Runtime.Socket]++
		}
	}
	here, _ := session.ServerName(a.socket)
	for _, socket := range slices.Sorted(maps.Keys(n)) {
		there, _ := session.ServerName(socket)
		flag := "--socket " + socket
		if socket == "" {
			flag = `--socket ""`
		}
		fmt.Fprintf(a.stderr, "lanes: note: %d live session(s) on %s, which this command did not read (it reads %s): their status is as last read; `lanes %s ls` reads them\n",
			n[socket], there, here, flag)
	}
}
