package state

import (
	"cmp"
	"slices"
	"time"
)

// Apply runs one event through the activity state machine of docs/design.md §4.
// It returns the transition it caused (nil when the activity did not change)
// and, when the event was refused, the reason it was dropped. Counters are
// the caller's job: it knows whether the event came from the spool.
func Apply(r *Record, e Event) (tr *Transition, drop string) {
	if applyFact(r, e) {
		return nil, ""
	}
	if drop := admit(r, e); drop != "" {
		return nil, drop
	}
	if ValidTranscript(e.Transcript) {
		r.Usage.Follow(e.Transcript)
	}
	a := &r.Activity
	if a.FirstSignalAt.IsZero() && e.Source != "witness" {
		a.FirstSignalAt = e.At // a hook's: the witness says nothing of the hooks
	}
	a.LastEventAt, a.Retry = e.At, e.Retry // any other event: it is past retrying
	if e.ProviderSessionID != "" {
		a.ProviderSessionID = e.ProviderSessionID
	}
	if a.background(e) {
		return nil, "" // a background subagent's own work
	}
	held := !a.HeldEnd.IsZero() && a.Outcome != OutcomeCancellation
	next, ok := a.next(e)
	if !ok {
		return nil, ""
	}
	next = holdEnd(r, e, next)
	noteTurnSession(r, e, next, held)
	detail := e.Detail
	if e.Kind == KindTurnStart && a.Automatic {
		detail += DetailSep + "automatic (no human started it)"
	}
	if next == ActivityBlocked || next == ActivityWaitingInput {
		// The history says what was asked, not only which event asked.
		if what := cmp.Or(a.Question, ToolLine(a.Tool, a.ToolInput)); what != "" {
			detail += DetailSep + what
		}
	}
	return a.Move(next, e.At, e.Source, detail), ""
}

// admit is why r takes no event e, "" when it takes it: a terminated
// session, a launch that is neither the current one nor the one it
// replaced, an agent that exited (but for what starts it again). An event
// of the new launch settles a respawn in flight, taken or not.
func admit(r *Record, e Event) string {
	switch {
	case r.Runtime.Terminated:
		return DropTerminated
	case e.Launch != "" && e.Launch != r.Runtime.Launch && e.Launch != r.Runtime.PrevLaunch:
		return DropStaleLaunch
	}
	if e.Launch != "" && e.Launch == r.Runtime.Launch && r.Runtime.PrevLaunch != "" {
		Respawned(r) // the new agent speaks: the respawn happened
	}
	if r.Activity.State == ActivityExited && e.Kind != KindTurnStart && !startsSession(e) {
		return DropAfterExit
	}
	return ""
}

// next applies e's facts to a and returns the activity it moves to; false
// when e is a soft turn end that a dialog or hook-reported turns overrule
// (nothing changes then).
func (a *ActivityFacts) next(e Event) (Activity, bool) {
	from := a.State
	next := from
	asking := a.State == ActivityWaitingInput || a.State == ActivityBlocked
	switch e.Kind {
	case KindTurnStart:
		a.beginTurn(e, from)
		next = ActivityActive
	case KindTurnEnd:
		var ok bool
		if next, ok = a.endTurn(e); !ok {
			return from, false
		}
	case KindToolStart:
		a.startCall(e.ToolUseID)
		runs := asking && e.Runs && e.ToolName == a.Tool && e.ToolInput == a.ToolInput && e.CallSum == a.CallSum
		if runs {
			a.AskingTool, a.AskingAll, a.Question = "", false, "" // the asked call runs: answered
		}
		if !asking || runs {
			a.noteTool(e)
			next = ActivityActive
		}
	case KindToolEnd:
		if e.Reply != "" {
			a.Replied, a.RepliedAt = e.Reply, e.At
		}
		answered := a.endCall(e.ToolUseID)
		if !asking || answered {
			a.AskingTool, a.AskingAll = "", false
			a.Question = "" // answered, or a call of a turn that asks nothing
			next = ActivityActive
		}
	case KindWorking, KindSubagentStart:
		if e.Kind == KindSubagentStart && e.AgentID != "" && len(e.AgentID) <= subagentIDMax &&
			!slices.Contains(a.Subagents, e.AgentID) && len(a.Subagents) < BackgroundMax {
			a.Subagents = append(a.Subagents, e.AgentID)
		}
		if !asking {
			next = ActivityActive
		}
	case KindSubagentStop:
		a.Subagents = slices.DeleteFunc(a.Subagents, func(id string) bool { return id == e.AgentID })
		if len(a.Subagents) == 0 && a.PendingStop {
			a.PendingStop = false
			if from == ActivityActive && !a.takeQueued() {
				next = ActivityIdle
			}
		}
	case KindAsk, KindBlock:
		next = a.ask(e)
	case KindAnswered:
		if a.Dialog {
			a.AskingTool, a.AskingAll = "", false
			next = ActivityActive
		}
	case KindIdlePrompt:
		if from == ActivityActive || asking && e.AtPrompt {
			next = ActivityIdle
		}
	case KindSessionStart:
		if startsSession(e) {
			a.ClearTurn()
			a.clearWork()
			next = ActivityIdle
		}
		a.startConversation(e)
	case KindAgentExit:
		a.ClearTurn()
		a.clearWork()
		next = ActivityExited
	}
	return next, true
}

// beginTurn applies a turn's start: a prompt queued behind the running
// turn, whose own turn starts at that one's end, or a turn of its own.
func (a *ActivityFacts) beginTurn(e Event, from Activity) {
	automatic := e.Automatic || a.scheduledPrompt(e.PromptSum)
	if e.Queues && from == ActivityActive && !automatic {
		a.Queued, a.Unseen = min(a.Queued+1, queuedMax), OutcomeNone
		return
	}
	a.QueuedTurn = false
	a.startTurn(automatic)
	a.TurnID = e.TurnID
}

// startTurn applies a turn's start (only hooks start turns); automatic:
// the agent started it, no human. An outcome the human has not seen
// outlives an automatic turn (docs/design.md §4); a human's turn ends it.
func (a *ActivityFacts) startTurn(automatic bool) {
	a.HookTurns = true // only hooks start turns; a soft end never does
	switch {
	case !automatic:
		a.Unseen = OutcomeNone
	case a.Outcome != OutcomeNone && a.SeenAt.Before(a.Since) && a.Unseen != OutcomeFailure:
		a.Unseen = a.Outcome
	}
	a.Automatic = automatic
	a.ClearTurn()
	a.Outcome = OutcomeNone
	// The last message is the last turn's: a turn that ends saying
	// nothing (refused, interrupted) must not show an older one.
	a.LastMessage = ""
}

// endTurn applies a turn's end and returns the activity it moves to:
// active while subagents still run, else idle; false for a soft end that
// a dialog or hook-reported turns overrule (nothing changes then).
func (a *ActivityFacts) endTurn(e Event) (Activity, bool) {
	if e.SoftEnd && (a.Dialog || a.HookTurns) {
		return a.State, false
	}
	if e.TurnID != "" && e.TurnID != a.TurnID && a.State == ActivityIdle {
		// The end of a turn no hook started: the agent's own (or, a
		// human's whose start hook was lost, taken for one).
		a.startTurn(true)
		a.TurnID = e.TurnID
	}
	a.clearCalls()
	a.Outcome, a.Failure = e.Outcome, keptFailure(a, e)
	if e.Message != "" {
		a.LastMessage = e.Message
	}
	if len(a.Subagents) > 0 {
		a.PendingStop = true
		return ActivityActive, true
	}
	if e.Source != "witness" && e.Outcome != OutcomeCancellation && a.takeQueued() {
		return ActivityActive, true
	}
	return ActivityIdle, true
}

// takeQueued starts a queued prompt's turn, which no hook reports, and
// reports whether one was queued.
func (a *ActivityFacts) takeQueued() bool {
	if a.Queued == 0 {
		return false
	}
	a.Queued, a.QueuedTurn = a.Queued-1, true
	return true
}

// queuedMax bounds the prompts Queued counts.
const queuedMax = 8

// ask records a question or a block and returns the activity it puts the
// agent in.
func (a *ActivityFacts) ask(e Event) Activity {
	if e.Kind == KindAsk && e.ToolUseID != "" {
		a.startCall(e.ToolUseID) // the question is itself a call in flight
	}
	a.setAsking(e.ToolUseID)
	// A dialog opens, or another call's dialog replaces it — another
	// input, or the same one asked again by a new call: DialogAt names it
	// (an answer from lanes is meant for one dialog). A second event of
	// the same dialog keeps its time.
	call := e.ToolUseID
	if call == "" && len(a.ToolsInFlight) > 0 {
		call = a.ToolsInFlight[len(a.ToolsInFlight)-1] // the newest call asks
	}
	newCall := a.Dialog && call != "" && a.DialogCall != "" && call != a.DialogCall
	if another := a.noteTool(e); e.Dialog && (!a.Dialog || another || newCall) {
		a.DialogAt, a.AnsweredAt, a.DialogCall = e.At, time.Time{}, call
	}
	a.Dialog, a.DialogGoneAt = e.Dialog, time.Time{}
	if e.Kind == KindAsk {
		return ActivityWaitingInput
	}
	return ActivityBlocked
}

// startsSession: SessionStart from startup or resume is a start; clear and
// compact happen inside a running session (compaction mid-turn).
func startsSession(e Event) bool {
	return e.Kind == KindSessionStart && e.SessionSource != "clear" && e.SessionSource != "compact"
}

// Move sets the activity and returns the transition, if any. A dialog lasts
// only while the activity is blocked or waiting: every way out clears it.
func (a *ActivityFacts) Move(to Activity, at time.Time, source, detail string) *Transition {
	if to != ActivityBlocked && to != ActivityWaitingInput {
		a.Dialog, a.DialogGoneAt, a.DialogAt, a.AnsweredAt, a.DialogCall = false, time.Time{}, time.Time{}, time.Time{}, ""
	}
	if to != ActivityIdle {
		a.Menu = false // a menu shows only at the prompt
	}
	if to == ActivityIdle || to == ActivityExited {
		a.Queued, a.QueuedTurn = 0, false // an interrupt puts queued prompts back in the agent's input
	}
	if to == a.State {
		return nil
	}
	tr := &Transition{At: at, From: a.State, To: to, Source: source, Detail: detail}
	a.State, a.Source = to, source
	if at.After(a.Since) || a.Since.IsZero() {
		a.Since = at
	}
	return tr
}

func (a *ActivityFacts) clearCalls() {
	a.ToolsInFlight, a.AnonTools = nil, 0
	a.AskingTool, a.AskingAll = "", false
	a.Question = "" // no call left to ask it
}

// ClearTurn ends what a turn was doing: its calls, subagents and current
// tool.
func (a *ActivityFacts) ClearTurn() {
	a.clearCalls()
	a.Subagents, a.PendingStop = nil, false
	a.Tool, a.ToolInput, a.CallSum = "", "", ""
}

func (a *ActivityFacts) startCall(id string) {
	if id == "" {
		a.AnonTools++
	} else if !slices.Contains(a.ToolsInFlight, id) {
		a.ToolsInFlight = append(a.ToolsInFlight, id)
	}
}

// endCall removes a call from flight and reports whether that completion is
// the answer to a pending question.
func (a *ActivityFacts) endCall(id string) bool {
	if id != "" && slices.Contains(a.ToolsInFlight, id) {
		a.ToolsInFlight = slices.DeleteFunc(a.ToolsInFlight, func(t string) bool { return t == id })
	} else if a.AnonTools > 0 {
		a.AnonTools--
	}
	if a.AskingTool != "" {
		return id == a.AskingTool
	}
	return a.AskingAll && len(a.ToolsInFlight) == 0 && a.AnonTools == 0
}

// setAsking records which completion will answer the question: the named
// call, else the only call in flight, else all of them; with none in flight
// only a turn boundary answers.
func (a *ActivityFacts) setAsking(id string) {
	a.AskingTool, a.AskingAll = "", false
	n := len(a.ToolsInFlight) + a.AnonTools
	switch {
	case id != "":
		a.AskingTool = id
	case n == 1 && len(a.ToolsInFlight) == 1:
		a.AskingTool = a.ToolsInFlight[0]
	case n >= 1:
		a.AskingAll = true
	}
}

// KilledWhileDown is the termination reason of a session marked terminated
// while its tmux server did not answer: its agent may still run.
const KilledWhileDown = "killed while tmux was down"

// Terminate records the end of a session (lanes kill, tmux session certified
// gone, clean-exit close): is_terminated with its reason, activity exited.
func Terminate(r *Record, reason, source string, at time.Time) *Transition {
	if r.Runtime.Terminated {
		return nil
	}
	r.Runtime.Terminated = true
	r.Runtime.TerminatedReason = reason
	r.Runtime.TerminatedAt = at
	r.Runtime.UnreachableSince, r.Runtime.KillingAt = time.Time{}, time.Time{} // (the kill's end is recorded)
	r.Runtime.Source, r.Runtime.At = source, at
	r.Activity.ClearTurn()
	r.Activity.clearWork()
	return r.Activity.Move(ActivityExited, at, source, reason)
}

// Restart records a respawn with a new launch: the pane observations, calls
// in flight, subagents, outcome and first signal reset, and activity becomes
// idle from the user (docs/design.md §4). The respawn is in flight until
// Respawned or NotRespawned: meanwhile the previous launch's events still
// apply, since its agent may be the one running. A restart over one still
// in flight keeps the first one's previous launch: no respawn has been seen
// since (a cycle would have settled it), so that agent is the one running.
func Restart(r *Record, launch string, at time.Time) *Transition {
	if r.Runtime.PrevLaunch == "" {
		r.Runtime.PrevLaunch, r.Runtime.PrevPID = r.Runtime.Launch, r.Pane.PID
	}
	r.Runtime.StartingAt, r.Runtime.KillingAt = at, time.Time{} // a new launch: no kill of it set out
	r.Runtime.Launch = launch
	r.Runtime.PaneStartedAt = at
	r.Runtime.Source, r.Runtime.At = "user", at
	r.Pane = Pane{}
	a := &r.Activity
	a.ClearTurn()
	a.clearWork()
	a.Outcome = OutcomeNone
	a.FirstSignalAt = time.Time{}
	a.HookTurns = false
	a.LastMessage = "" // a new agent has said nothing yet
	return a.Move(ActivityIdle, at, "user", "restart")
}
