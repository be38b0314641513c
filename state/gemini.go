package state

import (
	"slices"
	"strings"
)

// AgentGemini is Gemini CLI.
const AgentGemini Agent = "gemini"

// Gemini CLI, as lanes reads it: its hooks, its screen
// (testdata/real/gemini), the tool it asks with, the ids it resumes by.
var gemini = Reading{
	Usage: &geminiUsage,
	Agent: AgentGemini, Translate: geminiEvent, Markers: &geminiMarkers,
	// Its menus (testdata/real/menus: /model "(Press Esc to close)",
	// /resume "Press q to exit"), and its shell mode ("!" at an empty
	// prompt), where what is typed runs as a shell command, not a prompt
	// (testdata/real/gemini/composer/shell.screen).
	Menus:   &Menus{Words: []string{"Press Esc to close", "Press q to exit", "shell mode enabled (esc to disable)"}},
	AskTool: "ask_user", ResumeShape: uuidShape, KeepsOnlyDone: true,
	Plan: &PlanReading{Tool: "exit_plan_mode", Read: geminiPlan},
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
		e.Detail = Qualified(l.Event, l.NotificationType)
		if l.NotificationType == geminiToolPermission {
			e.Kind, e.Dialog = KindBlock, true
		}
	case "SessionEnd":
		// reason: exit, clear, logout, prompt_input_exit, other.
		sessionEnd(&e, l.Event, l.Reason, geminiEndKeeps)
	}
	return e, true
}

// Gemini CLI's SessionEnd reason after which it goes on: a /clear.
var geminiEndKeeps = []string{"clear"}

// Its questions (ask_user, also a ToolPermission notification) draw
// "Answer Questions" over "Enter to select · ↑/↓ to navigate · Esc to
// cancel" (testdata/real/harness/gemini/question).
// Dialog: "Allow execution of [Shell]?" above "● 1. Allow once" and
// "3. No, suggest changes (esc)" (the last option of its edit, exec,
// info and MCP confirmations alike). Busy: "⠹ Thinking... (esc to
// cancel, 1s)", its spinner and timer ticking, while a tool runs too.
// Idle: the composer ">   Type your message or @path/to/file" (shown
// while busy too, hidden while a dialog shows). Esc on the dialog
// prints "ℹ Request cancelled." and fires no hook; Ctrl-C mid-turn
// fires AfterAgent (Idle, with nothing saying it was interrupted).
var geminiMarkers = Markers{
	Dialog: []string{"Allow execution of", "No, suggest changes (esc)", "Enter to select"},
	Idle:   []string{"Type your message"},
	Busy:   []string{"esc to cancel"},
	// The composer is the first line under the last rule that starts
	// " > ", its history's prompts drawn the same above the rule: " > Run
	// the command." holds that prompt (testdata/real/gemini/composer).
	Input:     " > ",
	InputRule: "───",
	Empty:     []string{" >   Type your message"},
	// In a folder never trusted (a fresh worktree is one): "Do you
	// trust the files in this folder?" over "● 1. Trust folder (NAME)",
	// "2. Trust parent folder", "3. Don't trust", before any hook
	// (testdata/real/harness/gemini/trust).
	Trust:       []string{"Do you trust the files in this folder?"},
	Interrupted: []string{"Request cancelled."},
	// A turn the API failed: "✕ [API Error: …]", AfterAgent firing as
	// for any turn's end (testdata/real/harness/gemini/api_error).
	Failed: []string{"✕ [API Error"},
	// Over its usage limit it asks, in a box, no hook firing: "Usage
	// limit reached for gemini-2.5-flash." over "● 1. Keep trying",
	// "2. Stop" (testdata/real/harness/gemini/usage_limit).
	Halts: []Halt{{Title: "Usage limit reached for", Option: "1. Keep trying"}},
	// A shell its model ran with is_background: "1 Background process"
	// at the right of the line under its prompt's rule, no hook at its
	// start or end (testdata/real/harness/gemini/background_shell).
	Shells:   " Background process",
	Animates: true,
	// Its model's answers start "✦ " (testdata/real/gemini/interrupt:
	// "✦ Thinking about it" then "ℹ Request cancelled." when Esc ended
	// the turn, AfterAgent firing as for any turn's end).
	Said: []string{"✦ "},
	// A prompt typed while a turn runs waits, no hook firing, under
	// "  Queued (press ↑ to edit):" above its composer, then runs as a
	// turn of its own: AfterAgent, BeforeAgent 0.3 s later
	// (testdata/real/gemini/queued).
	Queued: "  Queued (press ↑ to edit):",
}

// geminiPlan reads Gemini CLI's plan approval, a box whose bottom is the
// screen's last line (testdata/real/harness/gemini/plan_approval):
//
//	╭──────────────────────────────────────────────╮
//	│ Ready to start implementation?               │
//	│ Greeting                                     │
//	│ Say hello to the user.                       │
//	│ ● 1.  Yes, automatically accept edits        │
//	│       Approves plan and allows tools to run… │
//	│   2.  Yes, manually accept edits             │
//	│   3.  Type your feedback...                  │
//	│ Enter to select · ↑/↓ to navigate · … Esc to cancel │
//	╰──────────────────────────────────────────────╯
func geminiPlan(lines []string) (PlanDialog, bool) {
	inner, boxed := make([]string, len(lines)), make([]bool, len(lines))
	for i, l := range lines {
		if in, ok := strings.CutPrefix(l, "│"); ok {
			if in, ok = strings.CutSuffix(in, "│"); ok {
				inner[i], boxed[i] = strings.TrimRight(in, " "), true
			}
		}
	}
	title, ok := onlyOnce(inner, "Ready to start implementation?")
	if !ok || title == 0 || !strings.HasPrefix(lines[title-1], "╭") {
		return PlanDialog{}, false
	}
	// Read from the box's bottom up: its footer the last line in it, the
	// options from the last "1." above it (a plan's own numbered list is
	// drawn above them), and between those only options, their
	// descriptions and blank lines.
	bottom := title + 1
	for bottom < len(lines) && boxed[bottom] {
		bottom++
	}
	if bottom == len(lines) || !strings.HasPrefix(lines[bottom], "╰") || !blankFrom(lines, bottom+1) {
		return PlanDialog{}, false
	}
	foot := bottom - 1
	for foot > title && TrimPlain(inner[foot]) == "" {
		foot--
	}
	opts := foot - 1
	for opts > title && !strings.HasPrefix(strings.TrimPrefix(TrimPlain(inner[opts]), "● "), "1. ") {
		opts--
	}
	if opts == title || !strings.HasPrefix(TrimPlain(inner[foot]), "Enter to select") || !slices.ContainsFunc(inner[opts:foot], geminiOption) {
		return PlanDialog{}, false
	}
	for _, l := range inner[opts:foot] {
		if !geminiOption(l) && TrimPlain(l) != "" && !strings.HasPrefix(l, "      ") {
			return PlanDialog{}, false // neither an option nor its description
		}
	}
	return PlanDialog{Plan: strings.Trim(strings.Join(inner[title+1:opts], "\n"), "\n"), Options: inner[opts:foot]}, true
}

// geminiOption: a line of its option list, "● 1.  Yes, …" or "  2.  …".
func geminiOption(l string) bool {
	t := strings.TrimPrefix(TrimPlain(l), "● ")
	digits := strings.TrimLeft(t, "0123456789")
	return len(digits) < len(t) && strings.HasPrefix(digits, ". ")
}

// Gemini CLI: a "gemini" message's line, written again when the message
// gains its tool calls (testdata/real/usage/gemini). Its input counts the
// cached part too; its thoughts are output.
var geminiUsage = UsageReading{Markers: markers(`"tokens"`), Read: func(b []byte) (UsageLine, bool) {
	top := fields(b, "id", "type", "timestamp", "tokens")
	if str(top[1]) != "gemini" || top[3] == nil {
		return UsageLine{}, false
	}
	t := ints(top[3], "input", "output", "cached", "thoughts", "tool")
	n := counts(Tokens{In: t[0] - t[2] + t[4], Out: t[1] + t[3], CacheRead: t[2]})
	return UsageLine{Msg: str(top[0]), Tokens: n, Context: n.Total(), At: stamp(str(top[2]))}, true
}}
