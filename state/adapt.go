package state

import "slices"

// Hook adapters: one spool line (what `lanes hook` wrote) becomes one input of
// the activity state machine. Each coding agent's adapter is its Reading's
// Translate, in the agent's own file: a table from its event names to an
// EventKind, plus the few rules a table cannot express (tool name,
// notification type, SessionEnd reason…), from the agents' documented hook
// payloads (docs/hooks-research.md lists them with their sources). Here:
// what they share, and lanes' own two sources (generic, lanes).

// Translate maps one spool line to a state machine Event. It returns false
// for an event it does not know (the caller counts it as dropped
// unknown_event); it never fails otherwise.
func Translate(l Line) (Event, bool) {
	switch l.Agent {
	case "generic":
		return genericEvent(l)
	case "lanes":
		return lanesEvent(l)
	}
	if r, ok := ReadingOf(Agent(l.Agent)); ok {
		return r.Translate(l)
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
		Background:        l.Background,
		BackgroundStart:   l.BackgroundStart,
		TaskDone:          l.TaskDone,
		Automatic:         l.Automatic,
		Scheduled:         l.Scheduled,
		PromptSum:         l.PromptSum,
		Transcript:        l.Transcript,
	}
}

// Qualified is "Event:qualifier" (e.g. Notification:permission_prompt), or
// the bare event name when there is no qualifier.
func Qualified(event, qualifier string) string {
	if qualifier == "" {
		return event
	}
	return event + ":" + qualifier
}

// sessionEnd qualifies a SessionEnd with its reason, and makes it a plain
// signal when the reason is one after which the agent process goes on.
func sessionEnd(e *Event, name, reason string, keeps []string) {
	e.Detail = Qualified(name, reason)
	if slices.Contains(keeps, reason) {
		e.Kind = KindSignal
	}
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
