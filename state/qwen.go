package state

import ()

// AgentQwen is Qwen Code.
const AgentQwen Agent = "qwen"

// Qwen Code, as lanes reads it: its hooks (Claude Code's names and
// payloads), its screen (testdata/real/harness/qwen; a Gemini CLI fork,
// it draws like one), the tool it asks with, the ids it resumes by.
var qwen = Reading{
	Usage: &qwenUsage,
	Agent: AgentQwen, Translate: qwenEvent, Markers: &qwenMarkers,
	// Its menus (testdata/real/harness/qwen/menu: /model "Enter to
	// select, ↑↓ to navigate, Esc to close", /resume "Type to search · Esc
	// to cancel", /approval-mode "Tab to configure scope").
	Menus:   &Menus{Words: []string{"↑↓ to navigate, Esc to close", "Type to search · Esc to cancel", "Tab to configure scope"}},
	AskTool: qwenAskTool, ResumeShape: uuidShape,
}

// turnIDMax bounds the turn ids lanes keeps (0.24.4's: "SESSION-UUID########N").
const turnIDMax = 128

// qwenAskTool is the tool Qwen Code asks its human a question with.
const qwenAskTool = "ask_user_question"

// Qwen Code's hook events are Claude Code's, by the same names and
// payloads: lanes reads the same ones (claudeKinds).

func qwenEvent(l Line) (Event, bool) {
	kind, ok := claudeKinds[l.Event]
	if !ok {
		return Event{}, false
	}
	// Its question asks through PermissionRequest, and its PreToolUse
	// fires only once the human answered (0.24.4): no ask tool there.
	e := claudeShaped(l, kind, l.Event, "")
	if len(l.TurnID) <= turnIDMax {
		e.TurnID = l.TurnID
	}
	if l.Event != "Stop" {
		// Only its Stop lists what runs past the turn: its SubagentStop
		// lists the (foreground) subagent that stops as running
		// (testdata/real/harness/qwen/subagent).
		e.Background = nil
	}
	switch l.Event {
	case "PreToolUse":
		// It fires once the call may run, after its dialog was answered
		// (0.24.4; a subagent's own calls aside).
		e.Runs = l.AgentID == ""
	case "UserPromptSubmit":
		// It fires before every model call of a turn, with an empty
		// prompt after a tool's result: that goes on with the turn.
		if l.NoPrompt {
			e.Kind = KindWorking
		}
	case "PermissionRequest":
		if l.ToolName == qwenAskTool {
			e.Kind = KindAsk
		}
	case "Notification":
		e.Detail = Qualified(l.Event, l.NotificationType)
		switch l.NotificationType {
		case "permission_prompt":
			e.Kind, e.Dialog = KindBlock, true
		case "idle_prompt":
			// At its prompt again: after every turn, and after Esc or No
			// on a dialog, where no Stop fires; never while a dialog
			// shows (every recorded walk).
			e.Kind, e.AtPrompt = KindIdlePrompt, true
		}
	}
	return e, true
}

// Busy: "⠏ Compiling the 1s and 0s... (3s · ↓ 6 tokens · esc to cancel)"
// over its composer, the footer "Enter to steer · Ctrl+Q to queue · ⏸ Ask
// permissions (shift + tab to cycle)". Idle: the composer ">   Type your
// message or @path/to/file" (shown while busy too, hidden while a dialog
// shows). Dialog: "Allow execution of: 'echo'?" over "› 1. Yes, allow
// once" … "4. No, suggest changes (esc)", "⠏ Waiting for user
// confirmation..." under it; its questions "↑/↓: Navigate | Enter: Select
// | Esc: Cancel"; its plan "4. No, keep planning (esc)". Esc mid-turn or
// on a dialog: "Request cancelled." or the call struck out, no Stop.
var qwenMarkers = Markers{
	Dialog: []string{"Waiting for user confirmation...", "No, suggest changes (esc)", "↑/↓: Navigate | Enter: Select", "No, keep planning (esc)"},
	// Its composer shows the placeholder while empty; its footer "(shift
	// + tab to cycle)", in every mode, also once Esc put the prompt back
	// in it (testdata/real/harness/qwen/interrupt).
	Idle:        []string{"Type your message", "(shift + tab to cycle)"},
	Input:       "> ",
	Empty:       []string{">   Type your message"},
	Busy:        []string{"esc to cancel"},
	Interrupted: []string{"Request cancelled."},
	// An API error it gave up on: "✕ [API Error: 400 …] (Press Ctrl+Y to
	// retry)", and StopFailure (testdata/real/harness/qwen/api_error).
	Failed: []string{"✕ [API Error"},
	// A quota 429 it retries ten times a minute apart, saying so on the
	// error's line: "✕ [API Error: 429 … quota exceeded] (Retrying in
	// 59s… (attempt 1/10))" (testdata/real/harness/qwen/usage_limit); a
	// rate limit's retries it says nothing of.
	Retrying: []string{"] (Retrying in "},
	// A shell its model ran with is_background: "· 1 shell" at the end of
	// its footer; a turn of its own starts, with no hook, when it ends.
	Shells:   " shell",
	Animates: true,
	// Its model's answers start "◆︎ ".
	Said: []string{"◆︎ "},
}

// Qwen Code: an assistant message's line with the API's usage metadata
// (testdata/real/usage/qwen); the prompt's count holds the cached part.
var qwenUsage = UsageReading{Markers: markers(`"usageMetadata"`), Read: func(b []byte) (UsageLine, bool) {
	top := fields(b, "uuid", "type", "timestamp", "usageMetadata")
	if str(top[1]) != "assistant" || top[3] == nil {
		return UsageLine{}, false
	}
	u := ints(top[3], "promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "cachedContentTokenCount")
	n := counts(Tokens{In: u[0] - u[3], Out: u[1] + u[2], CacheRead: u[3]})
	return UsageLine{Msg: str(top[0]), Tokens: n, Context: n.Total(), At: stamp(str(top[2]))}, true
}}
