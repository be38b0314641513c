package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
	"lanes/state"
)

// qwenEvents are Qwen Code's hook events the tap records.
var qwenEvents = []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse",
	"PostToolUseFailure", "PostToolBatch", "PermissionRequest", "PermissionDenied", "Notification", "Stop",
	"StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact"}

// qwenAgent is Qwen Code against the model server's chat completions
// (docs/real-agents.md): an API key, its own settings, none of its side
// requests (memory extraction, suggested next prompts), which would each
// take a scripted turn.
var qwenAgent = agent{
	name:  "qwen",
	quick: true, // the newest agent lanes drives
	env: func(h *home, url string) []string {
		return []string{"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=" + fakeKey, "OPENAI_MODEL=fake-model",
			"TMPDIR=" + h.tmp}
	},
	files: func(h *home, url string) error {
		settings := map[string]any{
			"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
			"model":    map[string]any{"name": "fake-model"},
			"privacy":  map[string]any{"usageStatisticsEnabled": false},
			"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
			// (Its optional "How is Qwen doing this session?" after a
			// conversation, at random: off, so a walk is the same twice.)
			"ui":     map[string]any{"enableFollowupSuggestions": false, "enableUserFeedback": false},
			"memory": map[string]any{"enableManagedAutoMemory": false, "enableManagedAutoDream": false},
		}
		if h.tap != "" {
			settings["hooks"] = h.tapHooks(qwenEvents, true)
		}
		if err := h.write(".qwen/settings.json", settings); err != nil {
			return err
		}
		return h.write(".qwen/trustedFolders.json", map[string]any{h.proj: "TRUST_FOLDER"})
	},
	// 0.24.4 starts in auto mode, whose classifier asks the model about
	// each call; the harness runs it asking, as --approval-mode default.
	args: []string{"--approval-mode", "default"},
	mode: []string{"--approval-mode", "auto-edit"},
	plan: []string{"--approval-mode", "plan"},
	// Shift+Tab cycles its modes; the footer names the one it is in.
	modeKey: "BTab", planOn: "plan mode (shift + tab", planOff: "⏸ Ask permissions",
	exitPlan: tool("exit_plan_mode", `{"plan":"# Greeting\n\nSay hello to the user."}`),
	ready:    lanesMarkers(state.AgentQwen).Idle,
	dialog:   lanesMarkers(state.AgentQwen).Dialog,
	approve:  "Enter", reject: "Escape", interrupt: "Escape",
	exit: "/quit", compact: "/compress", menu: "/model", clear: "/clear",
	// A read-only command runs without asking; a lone sleep it refuses
	// to run at all ("Blocked: standalone sleep").
	quiet:    qwenShell("echo hi"),
	asks:     func(cmd string) modelserver.ToolCall { return qwenShell("touch asked.txt && " + cmd) },
	question: tool("ask_user_question", `{"questions":[{"question":"Which colour should the button be?","header":"Colour","multiSelect":false,"options":[{"label":"Red","description":"a red button"},{"label":"Blue","description":"a blue button"}]}]}`),
	// Its agent tool runs the subagent in the background unless told
	// otherwise, and asks first, as a shell call does.
	subagent: tool("agent", `{"description":"Look around","prompt":"Say done.","subagent_type":"general-purpose","run_in_background":false}`),
	bgAgent:  tool("agent", `{"description":"Look around","prompt":"Say done.","subagent_type":"general-purpose","run_in_background":true}`),
	subAsks:  true,
	bgMatch:  `"role":"tool"`,
	// is_background returns at once; the footer counts "· 1 shell" while
	// it runs, and its end starts a turn of its own with no hook.
	background: func(secs int) *modelserver.ToolCall {
		return tool("run_shell_command", fmt.Sprintf(`{"command":"touch bg.txt && sleep %d","is_background":true}`, secs))
	},
	bgAsks:    true,
	restores:  true,
	toolEvent: "PreToolUse",
}

// qwenLimit: Qwen Code 0.24.4 retries a quota 429 silently for a minute or more,
// then ten times a minute apart, saying so ("✕ [API Error: 429 … quota
// exceeded] (Retrying in 59s… (attempt 1/10))"): Working with the retry
// said; Esc ends it.
func qwenLimit(r *run) error {
	if _, err := r.expect("quota → working + retrying, usage limit", 2*turnDeadline, func(s world.Session) bool {
		return working(s) && slices.Contains(s.Marks, "retrying") && s.Retry != nil && strings.HasPrefix(*s.Retry, "usage limit")
	}); err != nil {
		return err
	}
	r.capture("retrying")
	if err := r.press(r.a.interrupt); err != nil {
		return err
	}
	return idleAfter(r, "retry stopped")
}

// qwenShell is a call of Qwen Code's shell tool.
func qwenShell(cmd string) modelserver.ToolCall {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return modelserver.ToolCall{Name: "run_shell_command", Input: in}
}

func init() { agents = append(agents, qwenAgent) }
