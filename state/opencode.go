package state

import (
	"cmp"
	"strings"
)

// AgentOpenCode is OpenCode.
const AgentOpenCode Agent = "opencode"

// OpenCode, as lanes reads it: the events lanes' plugin forwards, the tool
// it asks with, the ids it resumes by. It has no screen markers because it
// needs none: its plugin events report what the witness reads elsewhere
// (testdata/real/opencode): permission.replied for approve and Esc,
// session.error MessageAbortedError for an interrupt.
var opencode = Reading{
	Agent: AgentOpenCode, Translate: opencodeEvent,
	AskTool: "question", ResumeShape: opencodeShape,
	// Its pickers (testdata/real/menus: /models "Connect provider
	// ctrl+a", /sessions "pin/unpin ctrl+f"; the others by their shape).
	Menus: &Menus{Words: []string{"Connect provider ctrl+a", "pin/unpin ctrl+f"}, Find: opencodePicker},
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
	"message.usage":       KindUsage,
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

// opencodeReplies maps permission.replied's reply to the answer it is.
var opencodeReplies = map[string]string{"once": ReplyYes, "always": ReplyAlways, "reject": ReplyNo}

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
	if kind == KindUsage {
		e.Usage = opencodeUsage(l)
		return e, true
	}
	switch l.Event {
	case "lanes.start":
		e.SessionSource = "startup"
	case "session.status":
		e.Detail = Qualified(l.Event, l.Status)
		if k, ok := opencodeStatusKinds[l.Status]; ok {
			e.Kind = k
		}
		if l.Status == "retry" {
			// "Too Many Requests · attempt 2": its own event says it
			// retries (testdata/real/harness/opencode/retry).
			e.Retry = cmp.Or(retrySays(l.Reason), "retrying")
		}
	case "permission.asked", "permission.updated", "question.asked":
		e.Dialog = true // OpenCode asks in its TUI
	case "permission.replied":
		// The option its dialog took, as the plugin passes it (the
		// reply's word): an answer from lanes checks it took the one meant.
		e.Detail = Qualified(l.Event, l.Reason)
		e.Reply = opencodeReplies[l.Reason]
	case "session.error":
		e.Detail = Qualified(l.Event, l.Reason)
		e.Outcome, e.Failure = OutcomeFailure, httpFailure(l.Status)
		if l.Reason == opencodeAborted {
			e.Outcome = OutcomeCancellation
		}
	}
	return e, true
}

// opencodeShape: "ses_" and 10 to 64 letters and digits.
func opencodeShape(s string) bool {
	rest, ok := strings.CutPrefix(s, "ses_")
	if !ok || len(rest) < 10 || len(rest) > 64 {
		return false
	}
	for _, c := range []byte(rest) {
		if !isDigit(c) && !isLower(c) && !('A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// opencodeUsage reads a message.usage line, what the plugin sends once an
// assistant message is complete: the message's counts (its input counts
// no cache) and the cost OpenCode gave it; nil when it says none.
func opencodeUsage(l Line) *UsageLine {
	u := l.Usage
	if u == nil {
		return nil
	}
	t := counts(Tokens{In: u.In, Out: u.Out, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, CostMicros: u.CostMicros})
	ctx := t
	ctx.CostMicros = 0
	return &UsageLine{Msg: u.Msg, Tokens: t, Context: ctx.Total(), At: l.At}
}
