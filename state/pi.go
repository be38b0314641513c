package state

import (
	"cmp"
	"strings"
)

// AgentPi is pi (pi-coding-agent).
const AgentPi Agent = "pi"

// pi, as lanes reads it: the events lanes' extension forwards (agent/pi.go;
// docs/real-agents.md), the ids it resumes by. It asks nothing (no
// permission dialog, no question tool) and its events say what it does, so
// its screen is read only for its pickers, and by send: whether its prompt
// shows yet, and its input holds nothing.
var pi = Reading{
	Usage: &piUsage,
	Agent: AgentPi, Translate: piEvent, Markers: &piMarkers,
	Menus:       &Menus{Find: piMenu},
	ResumeShape: uuidShape,
}

// pi's screen (testdata/real/pi/input): under its conversation, its
// editor between two rules of "─" across the pane, the text typed at the
// first column ("/" opens its command list below the lower rule), then its
// footer: the folder, then the context used, "0.0%/128k (auto)" ("?/128k"
// after a compaction), idle or busy. Before its first draw the pane is
// blank: a prompt typed then stayed in its input (a new-user trial).
var piMarkers = Markers{
	Idle: []string{"%/", "?/"},
	// Busy: " ⠼ Working..." over its editor (its footer shows busy too).
	Busy:      []string{"Working..."},
	InputRule: "───",
}

// piMenu finds pi's pickers: /resume "tab scope · re:<pattern> regex",
// /model "Only showing models from configured providers", /settings
// "Enter/Space to change · Esc to cancel", /tree "Type to search:"
// (testdata/real/menus; a new-user trial's send was refused as if its
// input held text). It draws them in its editor's place, below the
// screen's first rule at the first column; its conversation, above,
// is indented, so an answer quoting those words (pi offers to explain
// itself) is no picker (a hostile re-run).
func piMenu(s Screen) bool {
	below, ok := strings.CutPrefix(string(s), piMarkers.InputRule)
	if !ok {
		_, below, ok = strings.Cut(string(s), "\n"+piMarkers.InputRule)
	}
	return ok && Screen(below).Shows(piMenuWords)
}

var piMenuWords = []string{"tab scope · re:<pattern> regex", "Only showing models from configured providers",
	"Enter/Space to change · Esc to cancel", "  Type to search:"}

// pi's events as lanes' extension names them.
var piKinds = map[string]EventKind{
	"session_start":    KindSessionStart,
	"agent_start":      KindTurnStart,
	"agent_retry":      KindWorking, // its run again after an error it retries
	"tool_start":       KindToolStart,
	"tool_end":         KindToolEnd,
	"agent_end":        KindTurnEnd,
	"session_shutdown": KindAgentExit,
}

func piEvent(l Line) (Event, bool) {
	kind, ok := piKinds[l.Event]
	if !ok {
		return Event{}, false
	}
	e := hookEvent(l, kind, l.Event)
	switch l.Event {
	case "session_start":
		// startup and resume start its process's conversation; new,
		// fork and reload go on in the same process, as a /clear.
		e.SessionSource = l.Source
		if l.Source != "startup" && l.Source != "resume" {
			e.SessionSource = "clear"
		}
	case "agent_end":
		// The run's last assistant message's stopReason: stop, aborted
		// (Esc), error (the API's, retries given up or none).
		e.Detail = Qualified(l.Event, l.Reason)
		switch l.Reason {
		case "aborted":
			e.Outcome = OutcomeCancellation
		case "error":
			e.Outcome, e.Failure = OutcomeFailure, httpFailure(l.Status)
		}
	case "agent_retry":
		e.Retry = cmp.Or(retrySays(l.Reason), "retrying")
	case "session_shutdown":
		// Only quit ends the process; new, resume, fork and reload go on.
		sessionEnd(&e, l.Event, l.Reason, piEndKeeps)
	}
	return e, true
}

// pi's session_shutdown reasons after which it goes on.
var piEndKeeps = []string{"new", "resume", "fork", "reload"}

// pi: an assistant message's line with its usage and the cost pi
// computed from its model's prices (testdata/real/usage/pi).
var piUsage = UsageReading{Markers: markers(`"usage"`), Read: func(b []byte) (UsageLine, bool) {
	top := fields(b, "id", "type", "timestamp", "message")
	m := fields(top[3], "role", "usage")
	if str(top[1]) != "message" || str(m[0]) != "assistant" || m[1] == nil {
		return UsageLine{}, false
	}
	u := ints(m[1], "input", "output", "cacheRead", "cacheWrite")
	n := counts(Tokens{In: u[0], Out: u[1], CacheRead: u[2], CacheWrite: u[3], CostMicros: micros(jsonFloat(m[1], "cost", "total"))})
	ctx := n
	ctx.CostMicros = 0
	return UsageLine{Msg: str(top[0]), Tokens: n, Context: ctx.Total(), At: stamp(str(top[2]))}, true
}}
