package state

import "slices"

// Hook adapters: one spool line (what `lanes hook` wrote) becomes one input of
// the activity state machine. Each agent has one table from its own event
// names to an EventKind, plus the few rules a table cannot express (tool name,
// notification type, SessionEnd reason…). The field names and values used here
// are the agents' documented hook payloads; docs/hooks-research.md lists them
// with their sources.

// Translate maps one spool line to a state machine Event. It returns false
// for an event it does not know (the caller counts it as dropped
// unknown_event); it never fails otherwise.
func Translate(l Line) (Event, bool) {
	switch l.Agent {
	case "claude":
		return claudeEvent(l)
	case "codex":
		return codexEvent(l)
	case "gemini":
		return geminiEvent(l)
	case "opencode":
		return opencodeEvent(l)
	case "generic":
		return genericEvent(l)
	case "lanes":
		return lanesEvent(l)
	}
	return Event{}, false
}

// hookEvent is the Event every adapter starts from: the line's time, launch
// and identifiers, provenance hook:<agent>, and the agent's event name as the
// history detail.
func hookEvent(l Line, kind EventKind, detail string) Event {
	return Event{
		Kind:              kind,
		At:                l.At,
		Launch:            l.Launch,
		Source:            "hook:" + l.Agent,
		ToolUseID:         l.ToolUseID,
		AgentID:           l.AgentID,
		ProviderSessionID: l.ProviderSessionID,
		Detail:            detail,
		ToolName:          l.ToolName,
		ToolInput:         l.ToolInput,
		Question:          l.Question,
		CallSum:           l.CallSum,
		Message:           l.Message,
	}
}

// qualified is "Event:qualifier" (e.g. Notification:permission_prompt), or
// the bare event name when there is no qualifier.
func qualified(event, qualifier string) string {
	if qualifier == "" {
		return event
	}
	return event + ":" + qualifier
}

// Claude Code hook events (hook_event_name) lanes registers.
var claudeKinds = map[string]EventKind{
	"SessionStart":       KindSessionStart,
	"UserPromptSubmit":   KindTurnStart,
	"PreToolUse":         KindToolStart,
	"PostToolUse":        KindToolEnd,
	"PostToolUseFailure": KindToolEnd,
	"PermissionRequest":  KindBlock,
	"Notification":       KindSignal, // refined by notification_type
	"Stop":               KindTurnEnd,
	"StopFailure":        KindTurnEnd, // outcome failure: the turn is over, the prompt free
	"SubagentStart":      KindSubagentStart,
	"SubagentStop":       KindSubagentStop,
	"PreCompact":         KindSignal,
	"SessionEnd":         KindAgentExit,
}

// Claude Code Notification notification_type values that change activity;
// every other type (auth_success, elicitation_complete, elicitation_response,
// agent_needs_input, agent_completed, future ones) is a plain signal.
var claudeNotificationKinds = map[string]EventKind{
	"permission_prompt":  KindBlock,
	"elicitation_dialog": KindAsk,
	"idle_prompt":        KindIdlePrompt,
}

func claudeEvent(l Line) (Event, bool) {
	kind, ok := claudeKinds[l.Event]
	if !ok {
		return Event{}, false
	}
	e := claudeShaped(l, kind, l.Event, askTools[AgentClaude])
	if l.Event == "Notification" {
		e.Detail = qualified(l.Event, l.NotificationType)
		if k, ok := claudeNotificationKinds[l.NotificationType]; ok {
			e.Kind = k
			e.Dialog = k == KindBlock || k == KindAsk // permission_prompt, elicitation_dialog
		}
	}
	return e, true
}

// claudeShaped makes the Event of a Claude Code hook, or of a Codex one
// (Codex's lifecycle hooks copy Claude Code's names and payloads): the
// session source, the tool that asks the human, an interrupted or failed
// stop, and the SessionEnd reasons after which the agent goes on.
func claudeShaped(l Line, kind EventKind, name, askTool string) Event {
	e := hookEvent(l, kind, name)
	switch name {
	case "SessionStart":
		e.SessionSource = l.Source
	case "PermissionRequest":
		e.Dialog = true
	case "PreToolUse":
		if l.ToolName == askTool {
			e.Kind, e.Dialog = KindAsk, true
		}
	case "Stop":
		if l.IsInterrupt {
			e.Outcome = OutcomeCancellation
		}
	case "StopFailure":
		e.Outcome = OutcomeFailure
	case "SessionEnd":
		sessionEnd(&e, name, l.Reason, claudeEndKeeps)
	}
	return e
}

// sessionEnd qualifies a SessionEnd with its reason, and makes it a plain
// signal when the reason is one after which the agent process goes on.
func sessionEnd(e *Event, name, reason string, keeps []string) {
	e.Detail = qualified(name, reason)
	if slices.Contains(keeps, reason) {
		e.Kind = KindSignal
	}
}

// SessionEnd reasons after which the agent process goes on: a /clear, or an
// interactive /resume switching to another conversation.
var (
	claudeEndKeeps = []string{"clear", "resume"}
	geminiEndKeeps = []string{"clear"}
)

// Codex lifecycle hook events (same names and payloads as Claude Code) and
// the legacy notify program.
var codexKinds = map[string]EventKind{
	"SessionStart":      KindSessionStart,
	"UserPromptSubmit":  KindTurnStart,
	"PreToolUse":        KindToolStart,
	"PostToolUse":       KindToolEnd,
	"PermissionRequest": KindBlock,
	"Stop":              KindTurnEnd,
	"StopFailure":       KindTurnEnd,
	"SubagentStart":     KindSubagentStart,
	"SubagentStop":      KindSubagentStop,
	"PreCompact":        KindSignal,
	"PostCompact":       KindSignal,
	"SessionEnd":        KindAgentExit,
	// Interrupt: the human pressed Esc (on a dialog too) or Ctrl-C; the
	// turn ends there, with no Stop (testdata/real/codex).
	"Interrupt": KindTurnEnd,
	"notify":    KindSignal, // refined by type
}

// codexTurnComplete is the notify payload type of a finished turn (the
// only type Codex documents for notify).
const codexTurnComplete = "agent-turn-complete"

func codexEvent(l Line) (Event, bool) {
	name := l.Event
	if name == "" && l.Type != "" {
		name = "notify" // a notify payload whose event name was not kept
	}
	if name == codexTurnComplete {
		name = "notify" // the notify type written as the event name
		if l.Type == "" {
			l.Type = codexTurnComplete
		}
	}
	kind, ok := codexKinds[name]
	if !ok {
		return Event{}, false
	}
	e := claudeShaped(l, kind, name, askTools[AgentCodex])
	if name == "Interrupt" {
		e.Outcome = OutcomeCancellation
	}
	if name == "notify" {
		e.Detail = qualified(name, l.Type)
		if l.Type == codexTurnComplete {
			// Codex 0.171 also sent it as its approval dialog opened
			// (testdata/real/codex/permission-approve): its Stop hook
			// ends the turn then.
			e.Kind, e.SoftEnd = KindTurnEnd, true
		}
	}
	return e, true
}

// Gemini CLI hook events.
var geminiKinds = map[string]EventKind{
	"SessionStart": KindSessionStart,
	"BeforeAgent":  KindTurnStart,
	"BeforeTool":   KindToolStart,
	"AfterTool":    KindToolEnd,
	"BeforeModel":  KindWorking,
	"AfterModel":   KindWorking,
	"Notification": KindSignal, // refined by notification_type
	"AfterAgent":   KindTurnEnd,
	"PreCompress":  KindSignal,
	"SessionEnd":   KindAgentExit,
}

// geminiToolPermission is the Gemini CLI Notification type shown when a tool
// waits for the human's confirmation.
const geminiToolPermission = "ToolPermission"

func geminiEvent(l Line) (Event, bool) {
	kind, ok := geminiKinds[l.Event]
	if !ok {
		return Event{}, false
	}
	e := hookEvent(l, kind, l.Event)
	switch l.Event {
	case "SessionStart":
		e.SessionSource = l.Source // startup, resume, clear
	case "Notification":
		e.Detail = qualified(l.Event, l.NotificationType)
		if l.NotificationType == geminiToolPermission {
			e.Kind, e.Dialog = KindBlock, true
		}
	case "SessionEnd":
		// reason: exit, clear, logout, prompt_input_exit, other.
		sessionEnd(&e, l.Event, l.Reason, geminiEndKeeps)
	}
	return e, true
}

// OpenCode events, named as the lanes OpenCode plugin passes them: the bus
// event types it forwards (session.*, permission.*, question.*), the plugin
// hooks it implements (chat.message, tool.execute.*), and three names of its
// own: lanes.start (the plugin loaded, i.e. the agent started) and
// subagent.start / subagent.stop (a child session began or went idle).
var opencodeKinds = map[string]EventKind{
	"lanes.start":         KindSessionStart,
	"chat.message":        KindTurnStart,
	"session.status":      KindSignal, // refined by status
	"session.idle":        KindTurnEnd,
	"session.error":       KindTurnEnd,
	"session.deleted":     KindAgentExit,
	"tool.execute.before": KindToolStart,
	"tool.execute.after":  KindToolEnd,
	"permission.asked":    KindBlock,
	"permission.updated":  KindBlock, // the name before OpenCode 1.x
	"permission.replied":  KindToolEnd,
	"question.asked":      KindAsk,
	"question.replied":    KindToolEnd,
	"question.rejected":   KindToolEnd,
	"subagent.start":      KindSubagentStart,
	"subagent.stop":       KindSubagentStop,
}

// OpenCode session.status types: busy and retry (an API error being retried
// on a timer, still inside the turn) are work; idle ends the turn.
var opencodeStatusKinds = map[string]EventKind{
	"busy":  KindWorking,
	"retry": KindWorking,
	"idle":  KindTurnEnd,
}

// opencodeAborted is the session.error name OpenCode gives a turn the user
// interrupted; the plugin passes the error name as the line's reason.
const opencodeAborted = "MessageAbortedError"

// opencodeEvent notes: a permission or question reply is the human's answer,
// so it maps to the completion of the asking call (ToolEnd with the call id
// the plugin remembered from permission.asked's tool.callID). That clears
// blocked/waiting_input exactly as a Claude PostToolUse of the asking call
// does; the tool's own tool.execute.after later finds the call already gone.
func opencodeEvent(l Line) (Event, bool) {
	kind, ok := opencodeKinds[l.Event]
	if !ok {
		return Event{}, false
	}
	e := hookEvent(l, kind, l.Event)
	switch l.Event {
	case "lanes.start":
		e.SessionSource = "startup"
	case "session.status":
		e.Detail = qualified(l.Event, l.Status)
		if k, ok := opencodeStatusKinds[l.Status]; ok {
			e.Kind = k
		}
	case "permission.asked", "permission.updated", "question.asked":
		e.Dialog = true // OpenCode asks in its TUI
	case "session.error":
		e.Detail = qualified(l.Event, l.Reason)
		e.Outcome = OutcomeFailure
		if l.Reason == opencodeAborted {
			e.Outcome = OutcomeCancellation
		}
	}
	return e, true
}

// generic: the event is an activity name (`lanes hook generic ACTIVITY`).
var genericKinds = map[string]EventKind{
	string(ActivityActive):       KindTurnStart,
	string(ActivityIdle):         KindTurnEnd,
	string(ActivityWaitingInput): KindAsk,
	string(ActivityBlocked):      KindBlock,
	string(ActivityExited):       KindAgentExit,
}

func genericEvent(l Line) (Event, bool) {
	kind, ok := genericKinds[l.Event]
	if !ok {
		return Event{}, false
	}
	return hookEvent(l, kind, l.Event), true
}

// lanesEvent: lines lanes itself writes (`lanes pr`). PR facts are not agent
// events: their provenance is the user.
func lanesEvent(l Line) (Event, bool) {
	if l.Event != "pr" || l.PR == nil {
		return Event{}, false
	}
	pr := *l.PR
	return Event{Kind: KindPR, At: l.At, Launch: l.Launch, Source: "user", Detail: l.Event, PR: &pr}, true
}
