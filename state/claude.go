package state

import (
	"strings"
)

// AgentClaude is Claude Code.
const AgentClaude Agent = "claude"

// Claude Code, as lanes reads it: its hooks (docs/hooks-research.md),
// its screen (testdata/real/claude), the tool it asks with, the ids it
// resumes by.
var claude = Reading{
	Usage: &claudeUsage,
	Agent: AgentClaude, Translate: claudeEvent, Markers: &claudeMarkers,
	// Its menus (testdata/real/menus: /config "Esc to go back", /resume
	// "Esc to close"; /model and /rewind end like its dialogs).
	Menus:   &Menus{Words: []string{"Esc to go back", "Esc to close"}},
	AskTool: claudeAskTool, ResumeShape: uuidShape,
	Plan: &PlanReading{Tool: "ExitPlanMode", Read: claudePlan},
}

// claudeAskTool is the tool Claude Code asks its human a question with.
const claudeAskTool = "AskUserQuestion"

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
	e := claudeShaped(l, kind, l.Event, claudeAskTool)
	// A prompt typed while a turn runs is queued, and its own turn starts
	// at that turn's Stop with no hook (2.1.332: UserPromptSubmit twice,
	// then Stop twice; the campaign's slow/type).
	e.Queues = l.Event == "UserPromptSubmit"
	if l.Event == "Notification" {
		e.Detail = Qualified(l.Event, l.NotificationType)
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
		if askTool != "" && l.ToolName == askTool {
			e.Kind, e.Dialog = KindAsk, true
		}
	case "Stop":
		if l.IsInterrupt {
			e.Outcome = OutcomeCancellation
		}
	case "UserPromptSubmit":
		// Who wrote the prompt, where its hook says (Claude Code's schema:
		// "user" the composer, "sdk" -p; "loop_wakeup" a ScheduleWakeup,
		// "schedule_wakeup" a CronCreate fire, "system" a task
		// notification or another injected turn, "poll_event"): any
		// other than a human's is an automatic turn.
		e.Automatic = e.Automatic || l.Source != "" && l.Source != "user" && l.Source != "sdk"
	case "StopFailure":
		e.Outcome, e.Detail, e.Failure = OutcomeFailure, Qualified(name, l.Reason), claudeFailures[l.Reason]
	case "SessionEnd":
		sessionEnd(&e, name, l.Reason, claudeEndKeeps)
	}
	return e
}

// Claude Code's StopFailure errors, as a card says them (an unknown one
// says nothing: its last message has the API's words).
var claudeFailures = map[string]string{
	"rate_limit": "rate limited", "server_error": "server error", "overloaded_error": "server overloaded",
	"billing_error": "billing", "authentication_failed": "authentication failed",
	"invalid_request": "invalid request", "max_output_tokens": "output too long",
}

// Claude Code's SessionEnd reasons after which it goes on: a /clear, or an
// interactive /resume switching to another conversation.
var claudeEndKeeps = []string{"clear", "resume"}

// Dialog: "Do you want to proceed?" above "❯ 1. Yes" and the footer
// "Esc to cancel · Tab to amend · ctrl+e to explain". Busy: the footer
// "esc to interrupt · ← for agents" under a "✻ Sautéing… (2s · ↓ 29
// tokens)" spinner (its word changes, its timer ticks). Idle: the footer
// "? for shortcuts · ← for agents".
var claudeMarkers = Markers{
	// Its plan approval, in plan mode, has neither: "Exit plan mode? ·
	// Claude wants to exit plan mode · ❯ 1. Yes, and switch to default
	// (ask each time) for this session · 2. No"
	// (testdata/real/claude/plan-unwritten): without it the
	// witness took the dialog for answered in 3 s (issue 32, item 4).
	// With the plan its model wrote, the dialog is "Ready to code? ·
	// Here is Claude's plan: · … · Would you like to proceed? · ❯ 1. Yes,
	// and use auto mode" (testdata/real/harness/claude/plan_approval).
	Dialog: []string{"Do you want to proceed?", "Esc to cancel", "Exit plan mode?", "Ready to code?"},
	// In another permission mode the footer names the mode instead:
	// "⏵⏵ auto mode on (shift+tab to cycle)" in auto mode, the one Claude
	// Code 2.1.332 starts in (testdata/real/harness/claude/mode_interrupt;
	// busy, "· esc to interrupt" follows); issue 32 saw plan mode's and
	// accept-edits' end the same way.
	// While background work runs it names that instead: "⏸ manual mode
	// on · 1 shell · ↓ to manage", "⏸ manual mode on · /tasks to see
	// subagents" (testdata/real/harness/claude/background_*).
	Idle: []string{"? for shortcuts", "(shift+tab to cycle)", "↓ to manage", "/tasks to see subagents"},
	Busy: []string{"esc to interrupt"},
	// A refused dialog, or Esc on one: "⎿ Interrupted · What should
	// Claude do instead?" (testdata/real/claude/permission-reject).
	Interrupted: []string{"Interrupted · What should Claude do instead?"},
	// In a folder never trusted: "Quick safety check: Is this a
	// project you created or one you trust?" over "❯ 1. Yes, I trust
	// this folder" and "2. No, exit", before any hook
	// (testdata/real/harness/claude/trust).
	Trust: []string{"Is this a project you created or one you trust?", "Yes, I trust this folder"},
	// Retrying an API error by itself: "✻ 429 … · retrying in 19s ·
	// attempt 6/6" (testdata/real/harness/claude/retry).
	Retrying: []string{" · retrying in "},
	Animates: true,
}

// claudePlan reads Claude Code's plan approval as 2.1.332 draws it with
// the plan its model wrote (testdata/real/harness/claude/plan_approval),
// the options under the question and its footer the last line:
//
//	 Ready to code?
//	 Here is Claude's plan:
//	╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
//	 Greeting
//	 Say hello to the user.
//	╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
//	─────────────────────────
//	 Claude has written up a plan and is ready to execute. Would you like to proceed?
//	 ❯ 1. Yes, and use auto mode
//	   2. Yes, manually approve edits
//	   3. Tell Claude what to change
//	      shift+tab to approve with this feedback
//	 ctrl+g to edit in Vim · ~/.claude/plans/SLUG.md
func claudePlan(lines []string) (PlanDialog, bool) {
	title, ok1 := onlyOnce(lines, "Ready to code?")
	head, ok2 := onlyOnce(lines, "Here is Claude's plan:")
	q, ok3 := onlyOnce(lines, "Claude has written up a plan and is ready to execute. Would you like to proceed?")
	if !ok1 || !ok2 || !ok3 || head < title || head+1 >= q || !blankFrom(lines[:head], title+1) || !ruleOf(lines[head+1], '╌') {
		return PlanDialog{}, false
	}
	end := head + 2
	for end < q && !ruleOf(lines[end], '╌') {
		end++
	}
	foot := q + 1
	for foot < len(lines) && !strings.HasPrefix(TrimPlain(lines[foot]), "ctrl+g to edit") {
		foot++
	}
	if end == q || foot == len(lines) || !blankFrom(lines, foot+1) {
		return PlanDialog{}, false
	}
	for _, l := range lines[end+1 : q] {
		if TrimPlain(l) != "" && !ruleOf(l, '─') {
			return PlanDialog{}, false // something else between the plan and its question
		}
	}
	return PlanDialog{Plan: strings.Trim(strings.Join(lines[head+2:end], "\n"), "\n"), Options: lines[q+1 : foot]}, true
}

// Claude Code: an assistant message's line, once per content block, each
// with the message's usage (testdata/real/usage/claude).
var claudeUsage = UsageReading{Markers: markers(`"usage"`), Read: func(b []byte) (UsageLine, bool) {
	top := fields(b, "type", "message", "timestamp")
	m := fields(top[1], "id", "usage")
	if str(top[0]) != "assistant" || m[1] == nil {
		return UsageLine{}, false
	}
	n := ints(m[1], "input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
	t := counts(Tokens{In: n[0], Out: n[1], CacheRead: n[2], CacheWrite: n[3]})
	return UsageLine{Msg: str(m[0]), Tokens: t, Context: t.Total(), At: stamp(str(top[2]))}, true
}}
