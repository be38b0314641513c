package state

import (
	"strconv"
	"time"
)

// AgentCodex is Codex.
const AgentCodex Agent = "codex"

// Codex, as lanes reads it: its lifecycle hooks (Claude Code's names and
// payloads) and notify program, its screen (testdata/real/codex), the
// tool it asks with, the ids it resumes by.
var codex = Reading{
	Usage: &codexUsage,
	Agent: AgentCodex, Translate: codexEvent, Markers: &codexMarkers,
	// Its menus and pickers (testdata/real/menus: the hooks-review list
	// "esc close", /model and /permissions "esc back", /resume "esc
	// exit", /statusline and /experimental "enter save · esc cancel",
	// Ctrl-R).
	Menus:   &Menus{Words: []string{"esc close", "esc back", "esc exit", "enter save · esc cancel", "reverse-i-search:"}},
	AskTool: codexAskTool, ResumeShape: uuidShape,
}

// codexAskTool is the tool Codex asks its human a question with.
const codexAskTool = "request_user_input"

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
	e := claudeShaped(l, kind, name, codexAskTool)
	if name == "Interrupt" {
		e.Outcome = OutcomeCancellation
	}
	if name == "notify" {
		e.Detail = Qualified(name, l.Type)
		if l.Type == codexTurnComplete {
			// Codex 0.171 also sent it as its approval dialog opened
			// (testdata/real/codex/permission-approve): its Stop hook
			// ends the turn then.
			e.Kind, e.SoftEnd = KindTurnEnd, true
		}
	}
	return e, true
}

// Dialog: "Would you like to run the following command?" and "Press
// enter to confirm or esc to cancel". Busy: "• Working (3s • esc to
// interrupt)", its timer ticking. Idle: the composer's footer "← for
// agents · ? for shortcuts" (shown while busy too; the busy line tells).
// Its questions (request_user_input) end in "tab to add notes | enter
// to submit answer | esc to interrupt" (testdata/real/harness/codex/
// question): the busy marker shows there too, the dialog marker rules.
// A failed turn fires no hook: "■ We’re currently experiencing high
// demand, which may cause temporary errors." above the prompt (a 500);
// an interrupt prints "■ Conversation interrupted - use /feedback …".
var codexMarkers = Markers{
	// In a repository it was never told to trust, a few seconds after
	// its prompt: "Folder access … Trust this folder? … › 1. Trust and
	// continue  2. Back to Agent Command Center" (testdata/real/
	// harness/codex/trust).
	Trust: []string{"Trust and continue", "Folder access"},
	// Then, without the bypass flag, on hooks it has not run before:
	// "Hooks need review … › 1. Review hooks  2. Trust all and continue
	// 3. Continue without trusting (hooks won't run)".
	HookReview:  []string{"Hooks need review"},
	Dialog:      []string{"Would you like to run the following command?", "Press enter to confirm or esc to cancel", "enter to submit answer"},
	Idle:        []string{"? for shortcuts"},
	Busy:        []string{"esc to interrupt"},
	Failed:      []string{"■ "},
	Interrupted: []string{"■ Conversation interrupted"},
	Animates:    true,
	// A command it left running (exec_command's yield_time_ms over):
	// "1 background terminal running · /ps to view · /stop to close"
	// above its prompt, no hook at its start or end (testdata/real/
	// harness/codex/background_shell).
	Shells: " background terminal",
	// Its Plan mode's question on a plan its model wrote ("Implement
	// this plan?" over "1. Yes, implement this plan"), no hook firing
	// (testdata/real/harness/codex/plan_approval).
	Halts: []Halt{{Title: "Implement this plan?", Option: "Yes, implement this plan"}},
}

// Codex: token_count events in its session rollout, with the thread's
// running total, the last request's, the model's window and the
// account's limit windows (testdata/real/usage/codex). Its input counts
// the cached part too.
var codexUsage = UsageReading{Markers: markers(`"token_count"`), Read: func(b []byte) (UsageLine, bool) {
	top := fields(b, "timestamp", "payload")
	p := fields(top[1], "type", "info", "rate_limits")
	if str(p[0]) != "token_count" {
		return UsageLine{}, false
	}
	l := UsageLine{At: stamp(str(top[0]))}
	if i := fields(p[1], "total_token_usage", "last_token_usage", "model_context_window"); i[0] != nil {
		n := ints(i[0], "input_tokens", "cached_input_tokens", "output_tokens", "cache_write_input_tokens")
		l.Cumulative = true
		l.Tokens = counts(Tokens{In: n[0] - n[1], Out: n[2], CacheRead: n[1], CacheWrite: n[3]})
		window, _ := strconv.ParseInt(string(i[2]), 10, 64)
		l.Context, l.Window = max(ints(i[1], "total_tokens")[0], 0), max(window, 0)
	}
	for _, name := range []string{"primary", "secondary"} {
		w, _ := jsonAt(p[2], name)
		used := jsonFloat(w, "used_percent")
		if len(w) == 0 || string(w) == "null" || !(used >= 0 && used <= 100) {
			continue
		}
		n := ints(w, "window_minutes", "resets_at")
		var at time.Time
		if n[1] > 0 {
			at = time.Unix(n[1], 0).UTC()
		}
		l.Limits = append(l.Limits, Limit{Name: name, UsedPct: used, WindowMin: max(n[0], 0), ResetsAt: at})
	}
	return l, l.Cumulative || l.Limits != nil
}}
