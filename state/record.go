package state

import (
	"errors"
	"maps"
	"slices"
	"time"
)

// Record is everything lanes stores about one session: facts only, each group
// with the source that set it and when. Status is never stored; Derive
// computes it.
type Record struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Agent   Agent    `json:"agent"`
	Command []string `json:"command"`
	// Env is the variables of the profile it was started with (KEY=VALUE),
	// given the agent again at each restart and restore. Never listed:
	// a value may be a secret.
	Env []string `json:"-"`
	// Profile is the config file's profile it was started with ("":
	// none), whose usage budget it counts against (usage.go).
	Profile   string    `json:"profile,omitempty"`
	Dir       string    `json:"dir"`
	Branch    string    `json:"branch,omitempty"`
	CreatedAt time.Time `json:"created_at"`

	Runtime  Runtime       `json:"runtime"`
	Pane     Pane          `json:"pane"`
	Activity ActivityFacts `json:"activity"`
	PRs      []PR          `json:"prs,omitempty"`

	EventsApplied int            `json:"events_applied"`
	EventsDropped map[string]int `json:"events_dropped,omitempty"`

	// Muted: the user asked not to be notified about this session
	// (docs/design.md §15).
	Muted bool `json:"muted,omitempty"`

	// Git holds the session's git facts beyond its live branch (§12).
	Git GitFacts `json:"git"`

	// Adopted: lanes did not start it; its hooks reported it (§13,
	// store/adopted.go). Its pane, if any, is found by id, not by @lanes_id.
	Adopted bool `json:"adopted,omitempty"`

	// Usage is what its agent spent, from the agent's own records
	// (usage.go).
	Usage Usage `json:"usage"`
}

// GitFacts are a session's worktree and how its branch stands against its
// base (docs/design.md §12).
type GitFacts struct {
	// Worktree is the worktree lanes created for the session ("" when it
	// runs in a directory of the user's); Base is the ref its branch
	// started from, what ahead, behind and the diff are against.
	Worktree string `json:"worktree,omitempty"`
	Base     string `json:"base,omitempty"`
	// Ahead and Behind the base (or the branch's upstream), and Changed
	// (files changed in the working tree and index against HEAD, untracked
	// included) as git said at ReadAt, when they last changed (zero: never
	// read; git/facts.go). Ahead and Behind are -1 when they cannot be
	// counted (no base git can track, such as a commit hash).
	Ahead   int       `json:"ahead,omitempty"`
	Behind  int       `json:"behind,omitempty"`
	Changed int       `json:"changed,omitempty"`
	ReadAt  time.Time `json:"read_at,omitzero"`
}

// Runtime holds the tmux-side facts of a session.
type Runtime struct {
	Socket        string    `json:"socket,omitempty"` // tmux -L name; empty = default server
	TmuxSession   string    `json:"tmux_session"`     // lanes-<name>
	SessionID     string    `json:"session_id"`       // $N
	PaneID        string    `json:"pane_id"`          // %N
	Launch        string    `json:"launch"`
	PaneStartedAt time.Time `json:"pane_started_at"`

	Terminated       bool      `json:"is_terminated"`
	TerminatedReason string    `json:"terminated_reason,omitempty"`
	TerminatedAt     time.Time `json:"terminated_at,omitzero"`

	// UnreachableSince is set while the tmux server does not answer.
	UnreachableSince time.Time `json:"unreachable_since,omitzero"`
	// GoneSeenAt is the start of the first answered read that lacked the
	// session; a second one ≥ 1 s later certifies it gone.
	GoneSeenAt time.Time `json:"gone_seen_at,omitzero"`
	// StartingAt is set while lanes spawns or respawns the pane; an exit
	// seen meanwhile is never taken for a clean one.
	StartingAt time.Time `json:"starting_at,omitzero"`
	// PrevLaunch and PrevPID are the launch and pane process a restart
	// replaces, kept while it is in flight (StartingAt set): until the
	// collector sees the respawned pane, the old agent may still be the
	// one running, and its events still count (docs/design.md §4).
	PrevLaunch string `json:"prev_launch,omitempty"`
	PrevPID    int    `json:"prev_pid,omitempty"`
	// ServerPID is the process of the tmux server the last answered read
	// found the session on: once it is gone, so is every session it held
	// (docs/design.md §5, a server that exits).
	ServerPID int `json:"server_pid,omitempty"`
	// KillingAt is when `lanes kill` set out to end the session, recorded
	// before tmux is asked: the session's end, found by a read, is the
	// kill even if the process that killed it was itself stopped before it
	// could say so (the 26th and 27th hostile re-runs); a read that finds
	// it still there KillGrace later lets it go.
	KillingAt time.Time `json:"killing_at,omitzero"`

	Source string    `json:"source"`
	At     time.Time `json:"at"`
}

// Pane holds what tmux reads said about the session's pane.
type Pane struct {
	PID            int       `json:"pid,omitempty"`
	Dead           bool      `json:"dead"`
	ExitStatus     *int      `json:"exit_status"`
	ExitSignal     string    `json:"exit_signal,omitempty"`
	DeadTime       time.Time `json:"dead_time,omitzero"`
	DeadSeenAt     time.Time `json:"dead_seen_at,omitzero"`
	Confirmations  int       `json:"confirmations"`
	ConfirmedAt    time.Time `json:"confirmed_at,omitzero"` // start of the read that last confirmed
	NoTimeReads    int       `json:"no_time_reads,omitempty"`
	WindowActivity time.Time `json:"window_activity,omitzero"`
	// ActivityBase is window_activity as the first read of this pane saw
	// it: tmux sets it when it creates the window, so only a later value
	// is output.
	ActivityBase time.Time `json:"window_activity_base,omitzero"`
	ObservedAt   time.Time `json:"observed_at,omitzero"`
	// ObservedBy and ObservedSeq name the collector whose read set
	// ObservedAt and that read's place in its sequence: reads of one
	// collector are ordered by the sequence, whatever the wall clock did.
	ObservedBy  string `json:"observed_by,omitempty"`
	ObservedSeq int    `json:"observed_seq,omitempty"`
}

// ActivityFacts is the activity state machine's stored state.
type ActivityFacts struct {
	State         Activity  `json:"state"`
	Since         time.Time `json:"since"`
	Source        string    `json:"source"`
	FirstSignalAt time.Time `json:"first_signal_at,omitzero"`
	LastEventAt   time.Time `json:"last_event_at,omitzero"`
	ToolsInFlight []string  `json:"tools_in_flight,omitempty"`
	// AnonTools counts tool calls in flight that carried no tool_use_id.
	AnonTools int      `json:"anon_tools,omitempty"`
	Subagents []string `json:"subagents,omitempty"`
	// PendingStop: the turn ended while subagents were live; the last
	// SubagentStop ends it.
	PendingStop bool    `json:"pending_stop,omitempty"`
	Outcome     Outcome `json:"outcome,omitempty"`
	// AskingTool is the tool call whose completion answers the pending
	// question; AskingAll means "once every call in flight has completed".
	AskingTool string `json:"asking_tool,omitempty"`
	AskingAll  bool   `json:"asking_all,omitempty"`
	// Dialog: the agent shows a dialog that Enter would answer (a
	// permission prompt, a question in its TUI), not a generic script's
	// stdin prompt. True only while blocked or waiting_input; only it
	// refuses send (docs/design.md §8), and the witness watches it (§11).
	Dialog bool `json:"dialog,omitempty"`
	// WitnessAt is when the witness last captured the pane; DialogGoneAt
	// the first capture that no longer showed the dialog (zero while it
	// shows). Stored, since every lanes process runs cycles.
	WitnessAt    time.Time `json:"witness_at,omitzero"`
	DialogGoneAt time.Time `json:"dialog_gone_at,omitzero"`
	// HookTurns: a hook started a turn in this launch, so the agent's
	// hooks run and its own turn end will come; a soft turn end (Codex's
	// notify, sent mid-turn too) then ends nothing.
	HookTurns bool `json:"hook_turns,omitempty"`
	// HooksReport: the agent's hooks report to lanes, injected at launch or
	// installed in its own config (docs/design.md §6), so its silence means
	// something: the one name of this fact ("hook-capable" in the design).
	// The JSON name is the one schema-1 stores were written with, read by
	// their migration (TestStoredSchema1Opens): it stays.
	HooksReport       bool   `json:"hooks_injected"`
	ProviderSessionID string `json:"provider_session_id,omitempty"`
	// TurnSession is the agent's session id when a turn last started: the
	// conversation a restore can resume (one with no prompt cannot be;
	// noteTurnSession, the one place that sets it from events).
	TurnSession string `json:"turn_session_id,omitempty"`

	// What the session is doing or asking (docs/design.md §2), from the
	// hooks' payloads: the current or last tool call, a summary of its
	// input and the question it asks (a dialog's, or a question tool's),
	// the start of the last assistant message.
	Tool        string `json:"tool,omitempty"`
	ToolInput   string `json:"tool_input,omitempty"`
	Question    string `json:"question,omitempty"`
	LastMessage string `json:"last_message,omitempty"`
	// DialogAt is when the dialog that shows opened: with AskingTool it
	// names the dialog an answer from the board is meant for (§15).
	DialogAt time.Time `json:"dialog_at,omitzero"`
	// AnsweredAt is when lanes sent an answer to the dialog that shows
	// (§15): it takes one; the witness then says what the screen shows.
	AnsweredAt time.Time `json:"answered_at,omitzero"`
	// CallSum is the digest of the current tool call as its agent's dialog
	// prints it (agent.CallSum; the call itself is never kept): a key goes
	// into a dialog only when the screen's shows this call (§15).
	CallSum string `json:"call_sum,omitempty"`
	// DialogCall is the tool call the dialog that shows is about: another
	// call's dialog, even for the same tool and input, is another dialog.
	DialogCall string `json:"dialog_call,omitempty"`

	// Background is the work the agent runs past its turns, "KIND:ID"
	// each (background.go); Automatic: the turn now running (or last
	// run) was started by the agent itself, not a human.
	Background []string `json:"background,omitempty"`
	Automatic  bool     `json:"automatic,omitempty"`
	// Scheduled: digests of the prompts the agent said it will submit by
	// itself (scheduled.go), whose turns are automatic.
	Scheduled []string `json:"scheduled,omitempty"`
	// SeenAt is when the human last looked at the session (attached,
	// answered, sent to, selected it on the board); Unseen is the outcome
	// of a turn they had not seen when an automatic turn began, kept
	// until they do (docs/design.md §4).
	SeenAt time.Time `json:"seen_at,omitzero"`
	Unseen Outcome   `json:"unseen,omitempty"`
	// Failure is why the last failed turn failed, in a few words ("rate
	// limited", "server error"), where the agent said (kept with an
	// unseen failure, §4).
	Failure string `json:"failure,omitempty"`
	// Retry is what the pane says while the agent retries an API error by
	// itself ("rate limited, attempt 6/10"; retry.go), "" when it does
	// not; any event clears it.
	Retry string `json:"retry,omitempty"`
	// Replied is the answer the agent last said its dialog took (ReplyYes,
	// ReplyNo, ReplyAlways), and RepliedAt when, where it says
	// (OpenCode's permission.replied): an answer from lanes reads whether
	// its keys took the option meant (§15).
	Replied   string    `json:"replied,omitempty"`
	RepliedAt time.Time `json:"replied_at,omitzero"`
	// Menu: the idle pane showed one of the agent's menus when the
	// witness last looked (menus.go); leaving idle clears it.
	Menu bool `json:"menu,omitempty"`
	// Queued: prompts the human sent while a turn ran, which the agent
	// runs as turns of their own after it (Event.Queues); a turn's end
	// with one queued starts the next at once. Idle or exit clears it.
	Queued int `json:"queued,omitempty"`
	// QueuedTurn: the running turn is a queued prompt's, which no hook
	// started; should the pane go idle with no interrupt, the prompt went
	// into the turn it was typed in.
	QueuedTurn bool `json:"queued_turn,omitempty"`
	// HeldEnd: when a hook said the running turn ended, not confirmed yet
	// by a look (Markers.Queued, heldend.go): the card stays working.
	HeldEnd time.Time `json:"held_end,omitzero"`
	// TurnID: the agent's id for the turn a hook last started, where its
	// hooks say (Event.TurnID).
	TurnID string `json:"turn_id,omitempty"`
}

// The answers an agent says its dialog took (ActivityFacts.Replied): the
// words of lanes' own answers (agent.Answer).
const (
	ReplyYes    = "yes"
	ReplyNo     = "no"
	ReplyAlways = "always"
)

// PR is the facts about one pull request attributed to a session.
type PR struct {
	Number         int       `json:"number"`
	URL            string    `json:"url,omitempty"`
	State          string    `json:"state"`
	Review         string    `json:"review"`
	CI             string    `json:"ci"`
	Mergeable      string    `json:"mergeable"`
	Base           string    `json:"base,omitempty"`
	Head           string    `json:"head,omitempty"`
	StateChangedAt time.Time `json:"state_changed_at,omitzero"` // state, review, ci or mergeable last changed
	Source         string    `json:"source,omitempty"`
	At             time.Time `json:"at,omitzero"`
}

// Transition is one accepted activity change, kept in a bounded history.
type Transition struct {
	At     time.Time `json:"at"`
	From   Activity  `json:"from"`
	To     Activity  `json:"to"`
	Source string    `json:"source"`
	Detail string    `json:"detail,omitempty"`
}

// HistoryLimit is how many transitions are kept per session.
const HistoryLimit = 200

// Known is the stored activity as one of the vocabulary: a value this build
// does not know reads as unknown.
func (a ActivityFacts) Known() Activity { return ParseActivity(string(a.State)) }

// Merged reports whether one of the session's PRs merged.
func (r *Record) Merged() bool { return anyMerged(r.PRs) }

// Live reports whether the session has not been terminated.
func (r *Record) Live() bool { return !r.Runtime.Terminated }

// InDoneToClear reports whether clearing Done (`lanes rm --done`, the
// board's C) removes r: terminated, and started by lanes (an adopted one
// is forgotten only by name).
func (r *Record) InDoneToClear() bool { return !r.Live() && !r.Adopted }

// Exit describes the pane's exit as (status, signal); both nil-able.
func (r *Record) Exit() (status *int, signal string, ok bool) {
	if !r.Pane.Dead {
		return nil, "", false
	}
	return r.Pane.ExitStatus, r.Pane.ExitSignal, true
}

// Clone is a deep copy: nothing it holds is shared with r.
func (r *Record) Clone() *Record {
	var c Record
	r.CloneInto(&c)
	return &c
}

// CloneInto makes c a deep copy of r, so callers can place copies in one
// allocation (a cycle copies every cached record).
func (r *Record) CloneInto(c *Record) {
	*c = *r
	c.Command = slices.Clone(r.Command)
	c.Env = slices.Clone(r.Env)
	c.PRs = slices.Clone(r.PRs)
	c.EventsDropped = maps.Clone(r.EventsDropped)
	c.Activity.ToolsInFlight = slices.Clone(r.Activity.ToolsInFlight)
	c.Activity.Subagents = slices.Clone(r.Activity.Subagents)
	c.Activity.Background = slices.Clone(r.Activity.Background)
	c.Activity.Scheduled = slices.Clone(r.Activity.Scheduled)
	c.Usage.Limits = slices.Clone(r.Usage.Limits)
	c.Usage.Days = slices.Clone(r.Usage.Days)
	c.Usage.Past = slices.Clone(r.Usage.Past)
	if r.Pane.ExitStatus != nil {
		st := *r.Pane.ExitStatus
		c.Pane.ExitStatus = &st
	}
}

// Recent reports whether the session belongs on the default views: live,
// or terminated within DoneRecentInterval of now.
func (r *Record) Recent(now time.Time) bool {
	return !r.Runtime.Terminated || now.Sub(r.Runtime.TerminatedAt) <= DoneRecentInterval
}

// StartWindow is how long a start or restart may stay in flight: a session
// `lanes new` wrote but tmux never showed is removed after it, and a restart
// whose pane kept its process gets its previous launch back
// (docs/design.md §5, starting).
const StartWindow = 30 * time.Second

// ErrStarting: lanes wrote the record, but no tmux read has shown its
// session yet, so there is no pane to act on (an interrupted `lanes new`
// leaves this until the session shows up or StartWindow passes).
var ErrStarting = errors.New("still starting (no tmux session seen yet)")

// Starting reports whether the session is live but lanes has not yet seen
// its tmux session: a start in flight, not a restart (which knows its
// session).
func (r *Record) Starting() bool {
	return r.Live() && r.Runtime.SessionID == "" && !r.Runtime.StartingAt.IsZero()
}

// Respawned ends a restart in flight whose new pane is running: the new
// launch holds alone.
func Respawned(r *Record) {
	r.Runtime.PrevLaunch, r.Runtime.PrevPID, r.Runtime.StartingAt = "", 0, time.Time{}
}

// CommandLost reports whether r's command is only known as text (see
// LostCommand): restart refuses it rather than guessing.
func (r *Record) CommandLost() bool { return len(r.Command) > 0 && r.Command[0] == "" }

// ReasonServerExited: the tmux server the session was on is gone, and
// every session with it (a crash, a kill-server, a reboot): not its
// agent's exit, nor a user's kill of it. `lanes restore` takes it as it
// takes a gone session.
const ReasonServerExited = "tmux server exited"

// BranchUnreadable is the branch of a checkout whose HEAD is there but is
// no git file (a FIFO, a device, a huge file: planted by another user).
// git allows no space in a branch name, so no real branch is called so;
// nothing reads ahead, behind or PRs for it (Record.OnBranch).
const BranchUnreadable = "HEAD unreadable"

// OnBranch reports whether r's directory is on a branch lanes can follow
// (ahead, behind, changed, PRs): one it read.
func (r *Record) OnBranch() bool { return r.Branch != "" && r.Branch != BranchUnreadable }
