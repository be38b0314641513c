package listing

import (
	"time"

	"lanes/state"
)

// StreamVersion is the format of `lanes ls --json --watch` this build
// writes and reads; a reader refuses a stream of another version.
const StreamVersion = 1

// The kinds of line of a stream.
const (
	// LineSnapshot opens a stream: every session the listing shows.
	LineSnapshot = "snapshot"
	// LineSession is one session that changed or appeared.
	LineSession = "session"
	// LineGone: the session left the listing (removed, or done for more
	// than 24 h); ID names it.
	LineGone = "gone"
	// LineHeartbeat: nothing changed; sent every HeartbeatEvery of quiet
	// so a reader can tell a quiet host from a lost one.
	LineHeartbeat = "heartbeat"
)

// HeartbeatEvery is how often a quiet stream says it is alive.
const HeartbeatEvery = 5 * time.Second

// Line is one line of `lanes ls --json --watch` (docs/design.md §16).
type Line struct {
	Type string `json:"type"`
	// At is the streaming host's clock when it wrote the line (RFC 3339,
	// nanoseconds).
	At string `json:"at"`
	// Version and Host come on the snapshot: the stream's format and the
	// streaming host's own name (os.Hostname).
	Version int    `json:"version,omitempty"`
	Host    string `json:"host,omitempty"`
	// Sessions is the snapshot's listing, Session a session line's.
	Sessions []Session `json:"sessions,omitempty"`
	Session  *Session  `json:"session,omitempty"`
	// ID is the session a gone line speaks of.
	ID string `json:"id,omitempty"`
}

// Mirror is s as the board shows it on host: its facts as a record, its
// derivation as the listing host made it (never derived again here), and
// lost, the fact that the link to host is lost (state.Mirrored marks it).
func (s Session) Mirror(host string, lost bool) state.Derived {
	r := &state.Record{
		ID: s.ID, Name: s.Name, Agent: s.Agent, Dir: s.Dir, Branch: s.Branch,
		EventsApplied: s.EventsApplied, EventsDropped: s.EventsDropped,
		Muted: s.Muted, Adopted: s.Adopted, Usage: s.Usage.state(),
	}
	r.Runtime = state.Runtime{
		Socket: s.TmuxSocket, TmuxSession: s.TmuxSession, PaneID: s.PaneID,
		Launch: s.Launch, Terminated: s.IsTerminated, TerminatedReason: deref(s.TerminatedReason),
	}
	if s.IsTerminated {
		// A terminated session's since is when it ended (Derive's Done):
		// the record's Recent reads it, so one ended two hours ago is on
		// the board, one ended three days ago is not.
		r.Runtime.TerminatedAt = parse(s.Since)
	}
	if s.Exit != nil {
		r.Pane.Dead, r.Pane.ExitStatus, r.Pane.ExitSignal = true, s.Exit.Status, deref(s.Exit.Signal)
	}
	a := &r.Activity
	a.State, a.Dialog = s.Activity, s.Dialog
	a.Background, a.Automatic = state.BackgroundOf(s.Background.Jobs, s.Background.Agents), s.Automatic
	a.Failure, a.Retry = deref(s.Failure), deref(s.Retry)
	a.DialogAt = parse(deref(s.DialogAt))
	if s.Outcome != nil {
		a.Outcome = *s.Outcome
	}
	if s.Tool != nil {
		a.Tool, a.ToolInput = s.Tool.Name, s.Tool.Input
	}
	a.Question, a.LastMessage = deref(s.Question), deref(s.LastMessage)
	g := &r.Git
	g.Worktree, g.Base = deref(s.Worktree), deref(s.Base)
	if s.Changed != nil {
		// Read at a moment the listing does not carry: any non-zero one.
		g.Changed, g.Ahead, g.Behind, g.ReadAt = *s.Changed, -1, -1, time.Unix(0, 0)
		if s.Ahead != nil && s.Behind != nil {
			g.Ahead, g.Behind = *s.Ahead, *s.Behind
		}
	}
	for _, p := range s.PRs {
		r.PRs = append(r.PRs, state.PR{Number: p.Number, URL: p.URL, State: p.State, Review: p.Review,
			CI: p.CI, Mergeable: p.Mergeable, Base: p.Base, Head: p.Head})
	}
	d := state.Derivation{Status: s.Status, Zone: s.Zone, Marks: s.Marks, Since: parse(s.Since)}
	return state.Mirrored(r, d, host, lost)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// parse is an RFC 3339 moment of a listing, the zero time for "" or
// anything else.
func parse(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
