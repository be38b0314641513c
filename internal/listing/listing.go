// Package listing is the JSON form of a session that `lanes ls --json`
// prints, streams with --watch and the board reads back from other hosts
// (docs/design.md §10, §16). Scripts depend on these names: a field is
// added, never renamed.
package listing

import (
	"time"

	"lanes/state"
)

// Exit is how an exited agent's pane ended.
type Exit struct {
	Status *int    `json:"status"`
	Signal *string `json:"signal"`
}

// PR is one pull request of the session's branch (docs/design.md §14).
type PR struct {
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

// Session is one session as `lanes ls --json` prints it: its facts and
// the status, zone and marks Derive gave them at the listing's moment.
type Session struct {
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
	Exit             *Exit          `json:"exit"`
	Since            string         `json:"since"`
	Launch           string         `json:"launch"`
	TmuxSession      string         `json:"tmux_session"`
	Dir              string         `json:"dir"`
	Branch           string         `json:"branch"`
	// Worktree is the git worktree lanes made for it, Base the ref its
	// branch started from (docs/design.md §12); null for none.
	Worktree *string        `json:"worktree"`
	Base     *string        `json:"base"`
	Outcome  *state.Outcome `json:"outcome"`
	// Failure says why the last turn failed ("rate limited"), null when
	// it did not or the agent did not say.
	Failure *string `json:"failure"`
	// Retry is what the agent's screen says while it retries an API error
	// by itself ("rate limited, attempt 6/10"), null when it does not.
	Retry         *string        `json:"retry"`
	PRs           []PR           `json:"prs"`
	EventsApplied int            `json:"events_applied"`
	EventsDropped map[string]int `json:"events_dropped"`
	// Content (docs/design.md §2): null when unknown, or with
	// LANES_CONTENT=off.
	Tool        *Tool   `json:"tool"`
	Question    *string `json:"question"`
	LastMessage *string `json:"last_message"`
	Muted       bool    `json:"muted"`
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
	// TmuxSocket is the tmux server it runs on (the -L name; "" for the
	// default server): attach from another host needs it.
	TmuxSocket string `json:"tmux_socket"`
	// Background is the work its agent runs past its turn (the mark
	// background says there is some); Automatic: the agent started the
	// turn now running (or last run) itself, no human.
	Background Background `json:"background"`
	Automatic  bool       `json:"automatic"`
	// Host is the host it runs on, as this machine's hosts file names it;
	// "" for a session of this machine (always present: a script reads
	// one key, not a key or its absence; docs/design.md §16).
	Host string `json:"host"`
	// Usage is what its agent spent (docs/design.md §18): null until
	// lanes read any; numbers whatever LANES_CONTENT says.
	Usage *Usage `json:"usage"`
}

// Background counts the work an agent runs past its turn.
type Background struct {
	Jobs   int `json:"jobs"`   // background shells
	Agents int `json:"agents"` // background subagents
}

// Tool is the current or last tool and the summary of its input.
type Tool struct {
	Name  string `json:"name"`
	Input string `json:"input"`
}

// From is v as a listing; content false leaves the tool, question and
// last message out (LANES_CONTENT=off).
func From(v state.Derived, content bool) Session {
	r := v.Rec
	j := Session{
		ID: r.ID, Name: r.Name, Agent: r.Agent,
		Activity: r.Activity.Known(), Dialog: r.Activity.Dialog,
		Status: v.D.Status, Zone: v.D.Zone, Marks: v.D.Marks,
		IsTerminated: r.Runtime.Terminated,
		Since:        RFC3339(v.D.Since),
		Launch:       r.Runtime.Launch, TmuxSession: r.Runtime.TmuxSession,
		Dir: r.Dir, Branch: r.Branch,
		PRs:           []PR{},
		EventsApplied: r.EventsApplied, EventsDropped: r.EventsDropped,
		Muted: r.Muted, Adopted: r.Adopted, PaneID: r.Runtime.PaneID,
		TmuxSocket: r.Runtime.Socket, Host: v.Host,
		Background: Background{
			Jobs:   state.BackgroundCount(r.Activity.Background, state.BackgroundShell),
			Agents: state.BackgroundCount(r.Activity.Background, state.BackgroundAgent),
		},
		Automatic: r.Activity.Automatic,
		Usage:     usageOf(r.Usage),
	}
	j.Worktree, j.Base = nonEmpty(r.Git.Worktree), nonEmpty(r.Git.Base)
	j.Failure, j.Retry = nonEmpty(r.Activity.Failure), nonEmpty(r.Activity.Retry)
	if g := r.Git; !g.ReadAt.IsZero() {
		j.Changed = &g.Changed
		if g.Ahead >= 0 {
			j.Ahead, j.Behind = &g.Ahead, &g.Behind
		}
	}
	if r.Activity.Dialog && !r.Activity.DialogAt.IsZero() {
		at := RFC3339Nano(r.Activity.DialogAt)
		j.DialogAt = &at
	}
	if a := r.Activity; content {
		if tool, input := a.ToolNow(); tool != "" || input != "" {
			j.Tool = &Tool{Name: tool, Input: input}
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
		j.Exit = &Exit{Status: status}
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
		j.PRs = append(j.PRs, PR{p.Number, p.URL, p.State, p.Review, p.CI, p.Mergeable, p.Base, p.Head, s})
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

// RFC3339Nano is t in UTC to the nanosecond, as listings print a moment
// a command takes back (the dialog's opening).
func RFC3339Nano(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// RFC3339 is t in UTC to the second, "" for the zero time.
func RFC3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
