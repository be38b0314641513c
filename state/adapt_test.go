package state

import (
	"testing"
	"time"
)

// translateCase is one spool line and the event Translate must make of it.
type translateCase struct {
	name string
	line Line
	want Event // At, Launch and Source are checked by runTranslate
	ok   bool
}

var (
	adaptAt     = time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	adaptLaunch = "l4unch01"
)

// hookLine is a spool line as `lanes hook AGENT` writes it.
func hookLine(agent, event string) Line {
	return Line{V: LineVersion, At: adaptAt, Session: "k3v9x2ab", Launch: adaptLaunch, Agent: agent, Event: event}
}

func runTranslate(t *testing.T, cases []translateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Translate(tc.line)
			if ok != tc.ok {
				t.Fatalf("Translate ok = %v, want %v (event %+v)", ok, tc.ok, got)
			}
			if !ok {
				if got != (Event{}) {
					t.Fatalf("unknown event must give the zero Event, got %+v", got)
				}
				return
			}
			want := tc.want
			want.At = tc.line.At
			want.Launch = tc.line.Launch
			if want.Source == "" {
				want.Source = "hook:" + tc.line.Agent
			}
			if want.ProviderSessionID == "" {
				want.ProviderSessionID = tc.line.ProviderSessionID
			}
			// Content passes through every adapter as the hook summarised it.
			l := tc.line
			want.ToolName, want.ToolInput, want.Question, want.Message = l.ToolName, l.ToolInput, l.Question, l.Message
			if want.PR != nil || got.PR != nil {
				if want.PR == nil || got.PR == nil || *want.PR != *got.PR {
					t.Fatalf("PR = %+v, want %+v", got.PR, want.PR)
				}
				want.PR, got.PR = nil, nil
			}
			if got != want {
				t.Fatalf("Translate =\n  %+v\nwant\n  %+v", got, want)
			}
		})
	}
}

func with(l Line, f func(*Line)) Line { f(&l); return l }

const (
	claudeSID   = "8f14e45f-ceea-467a-9a36-dedd6a3f1c52"
	claudeTool  = "toolu_01ABC123xyzDEF456ghiJKL"
	claudeAgent = "agent-a4d2c8f1e0b3a297"
)

func claudeLine(event string, f func(*Line)) Line {
	l := hookLine("claude", event)
	l.ProviderSessionID = claudeSID
	if f != nil {
		f(&l)
	}
	return l
}

func TestTranslateClaude(t *testing.T) {
	tool := func(name string) func(*Line) {
		return func(l *Line) { l.ToolName, l.ToolUseID = name, claudeTool }
	}
	notif := func(nt string) func(*Line) { return func(l *Line) { l.NotificationType = nt } }
	runTranslate(t, []translateCase{
		{"SessionStart startup", claudeLine("SessionStart", func(l *Line) { l.Source = "startup" }),
			Event{Kind: KindSessionStart, SessionSource: "startup", Detail: "SessionStart"}, true},
		{"SessionStart resume", claudeLine("SessionStart", func(l *Line) { l.Source = "resume" }),
			Event{Kind: KindSessionStart, SessionSource: "resume", Detail: "SessionStart"}, true},
		{"SessionStart compact", claudeLine("SessionStart", func(l *Line) { l.Source = "compact" }),
			Event{Kind: KindSessionStart, SessionSource: "compact", Detail: "SessionStart"}, true},
		{"UserPromptSubmit", claudeLine("UserPromptSubmit", nil),
			Event{Kind: KindTurnStart, Detail: "UserPromptSubmit", Queues: true}, true},
		{"PreToolUse Bash", claudeLine("PreToolUse", tool("Bash")),
			Event{Kind: KindToolStart, ToolUseID: claudeTool, Detail: "PreToolUse"}, true},
		{"PreToolUse AskUserQuestion", claudeLine("PreToolUse", tool("AskUserQuestion")),
			Event{Kind: KindAsk, ToolUseID: claudeTool, Detail: "PreToolUse", Dialog: true}, true},
		{"PostToolUse", claudeLine("PostToolUse", tool("Edit")),
			Event{Kind: KindToolEnd, ToolUseID: claudeTool, Detail: "PostToolUse"}, true},
		{"PostToolUseFailure", claudeLine("PostToolUseFailure", tool("Bash")),
			Event{Kind: KindToolEnd, ToolUseID: claudeTool, Detail: "PostToolUseFailure"}, true},
		{"PreCompact", claudeLine("PreCompact", nil),
			Event{Kind: KindSignal, Detail: "PreCompact"}, true},
		{"SubagentStart", claudeLine("SubagentStart", func(l *Line) { l.AgentID = claudeAgent }),
			Event{Kind: KindSubagentStart, AgentID: claudeAgent, Detail: "SubagentStart"}, true},
		{"SubagentStop", claudeLine("SubagentStop", func(l *Line) { l.AgentID = claudeAgent }),
			Event{Kind: KindSubagentStop, AgentID: claudeAgent, Detail: "SubagentStop"}, true},
		{"PermissionRequest without tool_use_id", claudeLine("PermissionRequest", func(l *Line) { l.ToolName = "Bash" }),
			Event{Kind: KindBlock, Detail: "PermissionRequest", Dialog: true}, true},
		{"PermissionRequest with tool_use_id", claudeLine("PermissionRequest", tool("Bash")),
			Event{Kind: KindBlock, ToolUseID: claudeTool, Detail: "PermissionRequest", Dialog: true}, true},
		{"Notification permission_prompt", claudeLine("Notification", notif("permission_prompt")),
			Event{Kind: KindBlock, Detail: "Notification:permission_prompt", Dialog: true}, true},
		{"Notification elicitation_dialog", claudeLine("Notification", notif("elicitation_dialog")),
			Event{Kind: KindAsk, Detail: "Notification:elicitation_dialog", Dialog: true}, true},
		{"Notification idle_prompt", claudeLine("Notification", notif("idle_prompt")),
			Event{Kind: KindIdlePrompt, Detail: "Notification:idle_prompt"}, true},
		{"Notification auth_success", claudeLine("Notification", notif("auth_success")),
			Event{Kind: KindSignal, Detail: "Notification:auth_success"}, true},
		{"Notification elicitation_complete", claudeLine("Notification", notif("elicitation_complete")),
			Event{Kind: KindSignal, Detail: "Notification:elicitation_complete"}, true},
		{"Notification without type", claudeLine("Notification", nil),
			Event{Kind: KindSignal, Detail: "Notification"}, true},
		{"Stop", claudeLine("Stop", nil),
			Event{Kind: KindTurnEnd, Detail: "Stop"}, true},
		{"Stop is_interrupt", claudeLine("Stop", func(l *Line) { l.IsInterrupt = true }),
			Event{Kind: KindTurnEnd, Outcome: OutcomeCancellation, Detail: "Stop"}, true},
		{"StopFailure rate_limit", claudeLine("StopFailure", nil),
			Event{Kind: KindTurnEnd, Outcome: OutcomeFailure, Detail: "StopFailure"}, true},
		{"SessionEnd prompt_input_exit", claudeLine("SessionEnd", func(l *Line) { l.Reason = "prompt_input_exit" }),
			Event{Kind: KindAgentExit, Detail: "SessionEnd:prompt_input_exit"}, true},
		{"SessionEnd logout", claudeLine("SessionEnd", func(l *Line) { l.Reason = "logout" }),
			Event{Kind: KindAgentExit, Detail: "SessionEnd:logout"}, true},
		{"SessionEnd other", claudeLine("SessionEnd", func(l *Line) { l.Reason = "other" }),
			Event{Kind: KindAgentExit, Detail: "SessionEnd:other"}, true},
		{"SessionEnd clear", claudeLine("SessionEnd", func(l *Line) { l.Reason = "clear" }),
			Event{Kind: KindSignal, Detail: "SessionEnd:clear"}, true},
		{"SessionEnd resume", claudeLine("SessionEnd", func(l *Line) { l.Reason = "resume" }),
			Event{Kind: KindSignal, Detail: "SessionEnd:resume"}, true},
		{"unknown event", claudeLine("CwdChanged", nil), Event{}, false},
		{"wrong case", claudeLine("stop", nil), Event{}, false},
		{"empty event", claudeLine("", nil), Event{}, false},
	})
}

const (
	codexThread = "0199a213-81c0-7800-8aa1-bbab2a035a53"
	codexCall   = "call_Zx2kQ8pL0vR4mT7wY1bN"
)

func codexLine(event string, f func(*Line)) Line {
	l := hookLine("codex", event)
	l.ProviderSessionID = codexThread
	if f != nil {
		f(&l)
	}
	return l
}

func TestTranslateCodex(t *testing.T) {
	bash := func(l *Line) { l.ToolName, l.ToolUseID = "Bash", codexCall }
	runTranslate(t, []translateCase{
		{"SessionStart startup", codexLine("SessionStart", func(l *Line) { l.Source = "startup" }),
			Event{Kind: KindSessionStart, SessionSource: "startup", Detail: "SessionStart"}, true},
		{"SessionStart clear", codexLine("SessionStart", func(l *Line) { l.Source = "clear" }),
			Event{Kind: KindSessionStart, SessionSource: "clear", Detail: "SessionStart"}, true},
		{"UserPromptSubmit", codexLine("UserPromptSubmit", nil),
			Event{Kind: KindTurnStart, Detail: "UserPromptSubmit"}, true},
		{"PreToolUse", codexLine("PreToolUse", bash),
			Event{Kind: KindToolStart, ToolUseID: codexCall, Detail: "PreToolUse"}, true},
		{"PreToolUse request_user_input", codexLine("PreToolUse", func(l *Line) { l.ToolName, l.ToolUseID = "request_user_input", codexCall }),
			Event{Kind: KindAsk, ToolUseID: codexCall, Detail: "PreToolUse", Dialog: true}, true},
		{"PostToolUse", codexLine("PostToolUse", bash),
			Event{Kind: KindToolEnd, ToolUseID: codexCall, Detail: "PostToolUse"}, true},
		{"PermissionRequest", codexLine("PermissionRequest", func(l *Line) { l.ToolName = "Bash" }),
			Event{Kind: KindBlock, Detail: "PermissionRequest", Dialog: true}, true},
		{"Stop", codexLine("Stop", nil),
			Event{Kind: KindTurnEnd, Detail: "Stop"}, true},
		{"StopFailure", codexLine("StopFailure", nil),
			Event{Kind: KindTurnEnd, Outcome: OutcomeFailure, Detail: "StopFailure"}, true},
		{"SubagentStart", codexLine("SubagentStart", func(l *Line) { l.AgentID = "019a0d2e-agent" }),
			Event{Kind: KindSubagentStart, AgentID: "019a0d2e-agent", Detail: "SubagentStart"}, true},
		{"PreCompact", codexLine("PreCompact", nil),
			Event{Kind: KindSignal, Detail: "PreCompact"}, true},
		{"notify agent-turn-complete", codexLine("notify", func(l *Line) { l.Type = "agent-turn-complete" }),
			Event{Kind: KindTurnEnd, Detail: "notify:agent-turn-complete", SoftEnd: true}, true},
		{"notify by type only", codexLine("", func(l *Line) { l.Type = "agent-turn-complete" }),
			Event{Kind: KindTurnEnd, Detail: "notify:agent-turn-complete", SoftEnd: true}, true},
		{"notify type as event", codexLine("agent-turn-complete", nil),
			Event{Kind: KindTurnEnd, Detail: "notify:agent-turn-complete", SoftEnd: true}, true},
		{"notify other type", codexLine("notify", func(l *Line) { l.Type = "approval-requested" }),
			Event{Kind: KindSignal, Detail: "notify:approval-requested"}, true},
		{"notify without type", codexLine("notify", nil),
			Event{Kind: KindSignal, Detail: "notify"}, true},
		{"Interrupt", codexLine("Interrupt", nil),
			Event{Kind: KindTurnEnd, Outcome: OutcomeCancellation, Detail: "Interrupt"}, true},
		{"unknown", codexLine("Bogus", nil), Event{}, false},
		{"empty", codexLine("", nil), Event{}, false},
	})
}

const geminiSID = "2c3f0b6e-5d1a-4f7e-9b8c-0a1b2c3d4e5f"

func geminiLine(event string, f func(*Line)) Line {
	l := hookLine("gemini", event)
	l.ProviderSessionID = geminiSID
	if f != nil {
		f(&l)
	}
	return l
}

func TestTranslateGemini(t *testing.T) {
	shell := func(l *Line) { l.ToolName = "run_shell_command" }
	runTranslate(t, []translateCase{
		{"SessionStart startup", geminiLine("SessionStart", func(l *Line) { l.Source = "startup" }),
			Event{Kind: KindSessionStart, SessionSource: "startup", Detail: "SessionStart"}, true},
		{"SessionStart clear", geminiLine("SessionStart", func(l *Line) { l.Source = "clear" }),
			Event{Kind: KindSessionStart, SessionSource: "clear", Detail: "SessionStart"}, true},
		{"BeforeAgent", geminiLine("BeforeAgent", nil),
			Event{Kind: KindTurnStart, Detail: "BeforeAgent"}, true},
		{"BeforeTool", geminiLine("BeforeTool", shell),
			Event{Kind: KindToolStart, Detail: "BeforeTool"}, true},
		{"AfterTool", geminiLine("AfterTool", shell),
			Event{Kind: KindToolEnd, Detail: "AfterTool"}, true},
		{"BeforeModel", geminiLine("BeforeModel", nil),
			Event{Kind: KindWorking, Detail: "BeforeModel"}, true},
		{"AfterModel", geminiLine("AfterModel", nil),
			Event{Kind: KindWorking, Detail: "AfterModel"}, true},
		{"Notification ToolPermission", geminiLine("Notification", func(l *Line) { l.NotificationType = "ToolPermission" }),
			Event{Kind: KindBlock, Detail: "Notification:ToolPermission", Dialog: true}, true},
		{"Notification other", geminiLine("Notification", func(l *Line) { l.NotificationType = "Info" }),
			Event{Kind: KindSignal, Detail: "Notification:Info"}, true},
		{"AfterAgent", geminiLine("AfterAgent", nil),
			Event{Kind: KindTurnEnd, Detail: "AfterAgent"}, true},
		{"PreCompress", geminiLine("PreCompress", nil),
			Event{Kind: KindSignal, Detail: "PreCompress"}, true},
		{"SessionEnd exit", geminiLine("SessionEnd", func(l *Line) { l.Reason = "exit" }),
			Event{Kind: KindAgentExit, Detail: "SessionEnd:exit"}, true},
		{"SessionEnd prompt_input_exit", geminiLine("SessionEnd", func(l *Line) { l.Reason = "prompt_input_exit" }),
			Event{Kind: KindAgentExit, Detail: "SessionEnd:prompt_input_exit"}, true},
		{"SessionEnd clear", geminiLine("SessionEnd", func(l *Line) { l.Reason = "clear" }),
			Event{Kind: KindSignal, Detail: "SessionEnd:clear"}, true},
		{"Claude name is not Gemini's", geminiLine("UserPromptSubmit", nil), Event{}, false},
		{"unknown", geminiLine("BeforeToolSelection", nil), Event{}, false},
	})
}

const (
	opencodeSID   = "ses_5a1c2e7f3ffeQ9xY2bLm8nR4tV"
	opencodeCall  = "toolu_vrtx_01Hq3Zr8mNcA5sKd"
	opencodeChild = "ses_5a1c2d90dffe7Pq1Wn3Kx6Yz0a"
)

func opencodeLine(event string, f func(*Line)) Line {
	l := hookLine("opencode", event)
	l.ProviderSessionID = opencodeSID
	if f != nil {
		f(&l)
	}
	return l
}

func TestTranslateOpenCode(t *testing.T) {
	status := func(s string) func(*Line) { return func(l *Line) { l.Status = s } }
	call := func(l *Line) { l.ToolName, l.ToolUseID = "bash", opencodeCall }
	runTranslate(t, []translateCase{
		{"lanes.start", opencodeLine("lanes.start", nil),
			Event{Kind: KindSessionStart, SessionSource: "startup", Detail: "lanes.start"}, true},
		{"chat.message", opencodeLine("chat.message", nil),
			Event{Kind: KindTurnStart, Detail: "chat.message"}, true},
		{"session.status busy", opencodeLine("session.status", status("busy")),
			Event{Kind: KindWorking, Detail: "session.status:busy"}, true},
		{"session.status retry", opencodeLine("session.status", status("retry")),
			Event{Kind: KindWorking, Detail: "session.status:retry", Retry: "retrying"}, true},
		{"session.status retry, said", opencodeLine("session.status", func(l *Line) { l.Status, l.Reason = "retry", "Too Many Requests · attempt 2" }),
			Event{Kind: KindWorking, Detail: "session.status:retry", Retry: "rate limited, attempt 2"}, true},
		{"session.status retry, overloaded", opencodeLine("session.status", func(l *Line) { l.Status, l.Reason = "retry", "Provider is overloaded · attempt 4" }),
			Event{Kind: KindWorking, Detail: "session.status:retry", Retry: "server overloaded, attempt 4"}, true},
		{"session.error 429", opencodeLine("session.error", func(l *Line) { l.Reason, l.Status = "APIError", "429" }),
			Event{Kind: KindTurnEnd, Outcome: OutcomeFailure, Detail: "session.error:APIError", Failure: "rate limited"}, true},
		{"session.error 500", opencodeLine("session.error", func(l *Line) { l.Reason, l.Status = "APIError", "500" }),
			Event{Kind: KindTurnEnd, Outcome: OutcomeFailure, Detail: "session.error:APIError", Failure: "server error"}, true},
		{"session.status idle", opencodeLine("session.status", status("idle")),
			Event{Kind: KindTurnEnd, Detail: "session.status:idle"}, true},
		{"session.status unknown", opencodeLine("session.status", status("compacting")),
			Event{Kind: KindSignal, Detail: "session.status:compacting"}, true},
		{"session.idle", opencodeLine("session.idle", nil),
			Event{Kind: KindTurnEnd, Detail: "session.idle"}, true},
		{"session.error", opencodeLine("session.error", func(l *Line) { l.Reason = "APIError" }),
			Event{Kind: KindTurnEnd, Outcome: OutcomeFailure, Detail: "session.error:APIError"}, true},
		{"session.error aborted", opencodeLine("session.error", func(l *Line) { l.Reason = "MessageAbortedError" }),
			Event{Kind: KindTurnEnd, Outcome: OutcomeCancellation, Detail: "session.error:MessageAbortedError"}, true},
		{"session.deleted", opencodeLine("session.deleted", nil),
			Event{Kind: KindAgentExit, Detail: "session.deleted"}, true},
		{"tool.execute.before", opencodeLine("tool.execute.before", call),
			Event{Kind: KindToolStart, ToolUseID: opencodeCall, Detail: "tool.execute.before"}, true},
		{"tool.execute.after", opencodeLine("tool.execute.after", call),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "tool.execute.after"}, true},
		{"permission.asked", opencodeLine("permission.asked", call),
			Event{Kind: KindBlock, ToolUseID: opencodeCall, Detail: "permission.asked", Dialog: true}, true},
		{"permission.asked without call", opencodeLine("permission.asked", nil),
			Event{Kind: KindBlock, Detail: "permission.asked", Dialog: true}, true},
		{"permission.updated (pre-1.x)", opencodeLine("permission.updated", call),
			Event{Kind: KindBlock, ToolUseID: opencodeCall, Detail: "permission.updated", Dialog: true}, true},
		{"permission.replied", opencodeLine("permission.replied", call),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "permission.replied"}, true},
		{"permission.replied reject", opencodeLine("permission.replied", func(l *Line) { call(l); l.Reason = "reject" }),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "permission.replied:reject", Reply: ReplyNo}, true},
		{"permission.replied once", opencodeLine("permission.replied", func(l *Line) { call(l); l.Reason = "once" }),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "permission.replied:once", Reply: ReplyYes}, true},
		{"permission.replied always", opencodeLine("permission.replied", func(l *Line) { call(l); l.Reason = "always" }),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "permission.replied:always", Reply: ReplyAlways}, true},
		{"permission.replied unknown word", opencodeLine("permission.replied", func(l *Line) { call(l); l.Reason = "maybe" }),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "permission.replied:maybe"}, true},
		{"question.asked", opencodeLine("question.asked", call),
			Event{Kind: KindAsk, ToolUseID: opencodeCall, Detail: "question.asked", Dialog: true}, true},
		{"question.replied", opencodeLine("question.replied", call),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "question.replied"}, true},
		{"question.rejected", opencodeLine("question.rejected", call),
			Event{Kind: KindToolEnd, ToolUseID: opencodeCall, Detail: "question.rejected"}, true},
		{"subagent.start", opencodeLine("subagent.start", func(l *Line) { l.AgentID = opencodeChild }),
			Event{Kind: KindSubagentStart, AgentID: opencodeChild, Detail: "subagent.start"}, true},
		{"subagent.stop", opencodeLine("subagent.stop", func(l *Line) { l.AgentID = opencodeChild }),
			Event{Kind: KindSubagentStop, AgentID: opencodeChild, Detail: "subagent.stop"}, true},
		{"unknown bus event", opencodeLine("message.part.updated", nil), Event{}, false},
	})
}

func TestTranslateGeneric(t *testing.T) {
	g := func(ev string) Line { return hookLine("generic", ev) }
	runTranslate(t, []translateCase{
		{"active", g("active"), Event{Kind: KindTurnStart, Detail: "active"}, true},
		{"idle", g("idle"), Event{Kind: KindTurnEnd, Detail: "idle"}, true},
		{"waiting_input", g("waiting_input"), Event{Kind: KindAsk, Detail: "waiting_input"}, true},
		{"blocked", g("blocked"), Event{Kind: KindBlock, Detail: "blocked"}, true},
		{"exited", g("exited"), Event{Kind: KindAgentExit, Detail: "exited"}, true},
		{"unknown is never stored", g("unknown"), Event{}, false},
		{"Claude name", g("Stop"), Event{}, false},
	})
}

func TestTranslateLanes(t *testing.T) {
	pr := PR{Number: 12, URL: "https://github.com/acme/api/pull/12", State: PRStateOpen, Review: ReviewPending,
		CI: CIPassing, Mergeable: MergeableUnknown, Base: "main", Head: "fix-login"}
	l := hookLine("lanes", "pr")
	l.Launch = ""
	l.PR = &pr
	runTranslate(t, []translateCase{
		{"pr", l, Event{Kind: KindPR, Source: "user", Detail: "pr", PR: &pr}, true},
		{"pr without facts", with(l, func(l *Line) { l.PR = nil }), Event{}, false},
		{"other lanes event", with(l, func(l *Line) { l.Event = "kill" }), Event{}, false},
	})
	// The event owns its PR copy: changing the line afterwards changes nothing.
	e, _ := Translate(l)
	l.PR.Number = 13
	if e.PR.Number != 12 {
		t.Fatalf("event PR aliases the line's: %d", e.PR.Number)
	}
}

func TestTranslateUnknownAgent(t *testing.T) {
	for _, agent := range []string{"", "aider", "Claude", "shell", "custom"} {
		if e, ok := Translate(hookLine(agent, "Stop")); ok {
			t.Errorf("agent %q: got %+v, want unknown", agent, e)
		}
	}
}

// The spool line carries the identifiers straight through to the event.
func TestTranslateCopiesIdentifiers(t *testing.T) {
	l := claudeLine("PostToolUse", func(l *Line) {
		l.ToolUseID, l.AgentID = claudeTool, claudeAgent
	})
	e, ok := Translate(l)
	if !ok {
		t.Fatal("PostToolUse unknown")
	}
	if e.At != adaptAt || e.Launch != adaptLaunch || e.ToolUseID != claudeTool ||
		e.AgentID != claudeAgent || e.ProviderSessionID != claudeSID || e.Source != "hook:claude" {
		t.Fatalf("identifiers not copied: %+v", e)
	}
}
