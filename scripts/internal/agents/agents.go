package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/scripts/internal/modelserver"
	"lanes/state"
)

// agent is what the harness needs to run one real agent offline under lanes:
// docs/real-agents.md has the verified recipe behind each field.
type agent struct {
	name string
	// quick: --quick (CI) runs its core scenarios.
	quick bool
	// env is the agent's settings for one run, given the model URL for it.
	env func(h *home, url string) []string
	// files writes the agent's config into the private HOME.
	files func(h *home, url string) error
	args  []string // the agent's own arguments, after lanes new's --
	// mode replaces args to start the agent in the mode a new user's
	// starts in where the harness runs it in another (Claude Code 2.1.332
	// starts in auto mode, which answers its own dialogs; the harness runs
	// it in manual mode to see them); nil: none.
	mode []string
	// plan starts it in its plan mode, where it asks before leaving it
	// (nil: it has none).
	plan []string
	// exitPlan is the tool call with which its model asks to leave plan
	// mode, showing a plan; planText, for an agent that asks on a plan
	// its model writes, that text. planCommand is the slash command that
	// enters plan mode once it runs ("": its plan args do), planDialog
	// what its plan question shows (nil: its dialog markers).
	// writePlan, for an agent whose model writes its plan to a file of
	// the agent's choosing before it asks, is that write.
	exitPlan, writePlan   *modelserver.ToolCall
	planText, planCommand string
	planDialog            []string
	// modeKey cycles its modes mid-session; planOn and planOff are what
	// its footer says in plan mode and in the mode the harness runs it
	// in ("": the campaign walks no plan).
	modeKey, planOn, planOff string

	// Screen markers: the idle prompt (any of them), and the dialog. Where
	// lanes' witness has markers for the agent these are they, so a release
	// that changes the screen fails the harness (docs/design.md §11).
	ready  []string
	dialog []string
	// Keys: answer the dialog yes, answer it no, stop a turn; trust the
	// folder it asks about before it starts ("" is Enter).
	approve, reject, interrupt, trust string
	exit, compact                     string // slash commands
	menu                              string // a slash command that opens a menu
	picker                            string // one that opens a picker with a search box ("": none walked)
	clear                             string // the slash command that starts a new conversation
	// quiet is a tool call that runs without asking; asks(cmd) one that asks.
	quiet modelserver.ToolCall
	asks  func(cmd string) modelserver.ToolCall
	// question and subagent are tool calls that ask the human / start a
	// subagent, with the tool name the agent must offer; nil: none known.
	question, subagent *modelserver.ToolCall
	// subAsks: its subagent tool asks first, as a shell call does.
	subAsks bool
	// restores: an interrupt puts the prompt back in its input, which
	// Ctrl-U clears.
	restores bool
	// background(secs) is a shell call the agent runs in the background
	// for about secs seconds, bgAgent a subagent it starts in the
	// background; nil: none known.
	background func(secs int) *modelserver.ToolCall
	bgAgent    *modelserver.ToolCall
	// bgQuiet: its background work ends with no turn of its own (only
	// its screen says it is over). bgMatch: what the parent's request
	// holding the tool's result contains ("" : Claude's tool_result).
	bgQuiet bool
	// bgAsks: its background job asks first, as any shell call does.
	bgAsks  bool
	bgMatch string
	// cron schedules a prompt that fires by itself within about a minute.
	cron *modelserver.ToolCall
	// retries is how often it retries a 429 before it gives the turn up
	// (with retryEnv); 0: the campaign walks no retries.
	retries int
	// limits: it says a usage limit of its own (a failed turn), or asks
	// in the box limitBox shows whether to keep trying, limitStop being
	// what the box shows once Down picks Stop.
	limits    bool
	limitBox  []string
	limitStop string
	// toolEvent is the hook event that shows a tool ran.
	toolEvent string
}

// home is one run's private HOME and project dir.
type home struct {
	dir, proj, tmp string
	seed           string // OpenCode's plugin package, to copy into config dirs
	tap            string // non-empty with --record: the tap command's file
	self           string // this program, which the tap hooks run
}

func (h *home) write(rel string, v any) error {
	path := filepath.Join(h.dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	var b []byte
	if s, ok := v.(string); ok {
		b = []byte(s)
	} else {
		var err error
		if b, err = json.MarshalIndent(v, "", "  "); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b, 0o600)
}

// tapHooks is a hook table (Claude/Codex/Gemini shape) running the tap for
// each event, so --record keeps the exact payloads the agent sent.
func (h *home) tapHooks(events []string, matcher bool) map[string]any {
	out := map[string]any{}
	for _, ev := range events {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command",
			"command": shq(h.self) + " tap " + ev + " " + shq(h.tap)}}}
		if matcher {
			group["matcher"] = "*"
		}
		out[ev] = []any{group}
	}
	return out
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func tool(name, input string) *modelserver.ToolCall {
	return &modelserver.ToolCall{Name: name, Input: json.RawMessage(input)}
}

func shell(cmd string) modelserver.ToolCall { return modelserver.ToolCall{Shell: cmd} }

const fakeKey = "sk-fake"

var claudeEvents = []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse",
	"PostToolUseFailure", "PermissionRequest", "PermissionDenied", "Notification", "Stop", "StopFailure",
	"SubagentStart", "SubagentStop", "PreCompact", "PostCompact"}

var codexEvents = []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
	"PostToolUse", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop"}

var geminiEvents = []string{"SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool",
	"BeforeModel", "Notification", "PreCompress"}

var agents = []agent{
	{
		name:    "claude",
		quick:   true,
		retries: 6, // retryEnv's
		env: func(h *home, url string) []string {
			// No retries: a scripted 529 ends the turn at once (StopFailure).
			return []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_AUTH_TOKEN=" + fakeKey,
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_RETRIES=0"}
		},
		files: func(h *home, url string) error {
			if h.tap != "" {
				if err := h.write(".claude/settings.json", map[string]any{"hooks": h.tapHooks(claudeEvents, true)}); err != nil {
					return err
				}
			}
			return h.write(".claude.json", map[string]any{"hasCompletedOnboarding": true,
				"projects": map[string]any{h.proj: map[string]any{"hasTrustDialogAccepted": true}}})
		},
		args: []string{"--permission-mode", "manual"},
		mode: []string{"--permission-mode", "auto"},
		plan: []string{"--permission-mode", "plan"},
		// Shift+Tab cycles its modes; the footer names the one it is in.
		modeKey: "BTab", planOn: "plan mode on", planOff: "manual mode on",
		// 2.1.332 takes no plan in the call (its input is {}): its model
		// writes the plan to the file plan mode names ("You should create
		// your plan at …"), and the dialog ("Ready to code?") shows it;
		// with no plan written it says only "Exit plan mode?".
		exitPlan: tool("ExitPlanMode", `{}`),
		writePlan: &modelserver.ToolCall{Name: "Write", Fill: `create your plan at ([^\s"\\]+\.md)`,
			Input: json.RawMessage(`{"file_path":"$FILL","content":"# Greeting\n\nSay hello to the user.\n"}`)},
		ready:   lanesMarkers(state.AgentClaude).Idle,
		dialog:  lanesMarkers(state.AgentClaude).Dialog,
		approve: "Enter", reject: "Escape", interrupt: "Escape",
		// 2.1.332 highlights "❯ No, exit" over "Yes, I trust this folder".
		trust: "Down Enter",
		exit:  "/exit", compact: "/compact", menu: "/model", clear: "/clear", picker: "/resume",
		quiet:    shell("echo hi"),
		asks:     func(cmd string) modelserver.ToolCall { return shell("touch asked.txt && " + cmd) },
		question: tool("AskUserQuestion", `{"questions":[{"question":"Which colour should the button be?","header":"Colour","multiSelect":false,"options":[{"label":"Red","description":"a red button"},{"label":"Blue","description":"a blue button"}]}]}`),
		subagent: tool("Agent", `{"description":"Look around","prompt":"Say done.","subagent_type":"general-purpose"}`),
		background: func(secs int) *modelserver.ToolCall {
			return tool("Bash", fmt.Sprintf(`{"command":"sleep %d","description":"Wait a while","run_in_background":true}`, secs))
		},
		bgAgent:   tool("Agent", `{"description":"Look around","prompt":"Say done.","subagent_type":"general-purpose","run_in_background":true}`),
		cron:      tool("CronCreate", `{"cron":"* * * * *","prompt":"Check the build.","recurring":false}`),
		toolEvent: "PreToolUse",
	},
	{
		name:  "codex",
		quick: true,
		env: func(h *home, url string) []string {
			return []string{"FAKE_KEY=" + fakeKey}
		},
		files: func(h *home, url string) error {
			if h.tap != "" {
				if err := h.write(".codex/hooks.json", map[string]any{"hooks": h.tapHooks(codexEvents, false)}); err != nil {
					return err
				}
			}
			return h.write(".codex/config.toml", fmt.Sprintf(`model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %q
env_key = "FAKE_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[features]
plugins = false
default_mode_request_user_input = true

[analytics]
enabled = false

[projects.%q]
trust_level = "trusted"
`, url+"/v1", h.proj))
		},
		// lanes injects its hooks with -c; Codex runs untrusted hooks only with this flag.
		args: []string{"--dangerously-bypass-hook-trust"},
		// Another approval policy than the harness's default.
		mode:    []string{"--dangerously-bypass-hook-trust", "--ask-for-approval", "never"},
		ready:   lanesMarkers(state.AgentCodex).Idle,
		dialog:  lanesMarkers(state.AgentCodex).Dialog,
		approve: "Enter", reject: "Escape", interrupt: "C-c",
		exit: "/quit", compact: "/compact", menu: "/model", clear: "/new",
		quiet: shell("echo hi"),
		asks: func(cmd string) modelserver.ToolCall {
			return modelserver.ToolCall{Shell: cmd, Escalated: true}
		},
		// exec_command returns after yield_time_ms, its process left
		// running as a background terminal.
		background: func(secs int) *modelserver.ToolCall {
			return tool("exec_command", fmt.Sprintf(`{"cmd":"sleep %d","yield_time_ms":1000}`, secs))
		},
		bgQuiet: true,
		// /plan switches to its Plan collaboration mode; a plan its model
		// wraps in <proposed_plan> makes it ask "Implement this plan?".
		plan:        []string{"--dangerously-bypass-hook-trust"},
		planCommand: "/plan",
		// Shift+Tab cycles Plan and Default; only Plan is in its footer.
		modeKey: "BTab", planOn: "Plan mode (shift+tab",
		limits:     true,
		planText:   "<proposed_plan>\n# Greeting\n\nSay hello to the user.\n</proposed_plan>",
		planDialog: []string{"Implement this plan?"},
		question:   tool("request_user_input", `{"questions":[{"id":"colour","header":"Colour","question":"Which colour should the button be?","options":[{"label":"Red","description":"a red button"},{"label":"Blue","description":"a blue button"}]}]}`),
		toolEvent:  "PreToolUse",
	},
	{
		name: "gemini",
		env: func(h *home, url string) []string {
			return []string{"GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_API_KEY=" + fakeKey, "TMPDIR=" + h.tmp}
		},
		files: func(h *home, url string) error {
			settings := map[string]any{
				"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
				"privacy":  map[string]any{"usageStatisticsEnabled": false},
				// (plan.directory: the plans dir is the project's plans/,
				// not one per session under ~/.gemini/tmp.)
				"general": map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true,
					"plan": map[string]any{"directory": "plans"}},
			}
			if h.tap != "" {
				settings["hooks"] = h.tapHooks(geminiEvents, false)
			}
			if err := h.write(".gemini/settings.json", settings); err != nil {
				return err
			}
			// The plan its model hands exit_plan_mode, in its plans dir.
			if err := os.MkdirAll(filepath.Join(h.proj, "plans"), 0o700); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(h.proj, "plans", "greeting.md"), []byte("# Greeting\n\nSay hello to the user.\n"), 0o600); err != nil {
				return err
			}
			return h.write(".gemini/trustedFolders.json", map[string]any{h.proj: "TRUST_FOLDER"})
		},
		args: []string{"-m", "gemini-2.5-flash"},
		// Its other modes name themselves in the footer ("auto-accept
		// edits Shift+Tab to plan"); the idle prompt stays.
		mode:     []string{"-m", "gemini-2.5-flash", "--approval-mode", "auto_edit"},
		plan:     []string{"-m", "gemini-2.5-flash", "--approval-mode", "plan"},
		exitPlan: tool("exit_plan_mode", `{"plan_filename":"greeting.md"}`),
		// Shift+Tab cycles manual, auto-accept edits and plan; the
		// footer says which ("plan Shift+Tab to manual").
		modeKey: "BTab", planOn: "plan Shift+Tab to manual", planOff: "Shift+Tab to accept edits",
		// Its usage limit asks whether to keep trying (testdata/real/harness/gemini/usage_limit).
		limits: true, limitBox: []string{"Usage limit reached for"}, limitStop: "● 2. Stop",
		// run_shell_command's is_background returns at once; the footer
		// counts "1 Background process" while it runs, and no hook says
		// when it ends.
		background: func(secs int) *modelserver.ToolCall {
			return tool("run_shell_command", fmt.Sprintf(`{"command":"timeout %d tail -f /dev/null","is_background":true}`, secs))
		},
		bgQuiet: true, bgAsks: true,
		ready:   lanesMarkers(state.AgentGemini).Idle,
		dialog:  lanesMarkers(state.AgentGemini).Dialog,
		approve: "Enter", reject: "Escape", interrupt: "Escape",
		exit: "/quit", compact: "/compress", menu: "/model", clear: "/clear",
		quiet:     modelserver.ToolCall{Name: "list_directory", Input: json.RawMessage(`{"dir_path":"."}`)},
		asks:      shell,
		question:  tool("ask_user", `{"questions":[{"question":"Which colour should the button be?","header":"Colour","type":"choice","options":[{"label":"Red","description":"a red button"},{"label":"Blue","description":"a blue button"}]}]}`),
		toolEvent: "BeforeTool",
	},
	{
		name:    "opencode",
		retries: 5, // its own, for a 429 (testdata/real/harness/opencode/retry)
		env: func(h *home, url string) []string {
			// (Background subagents are behind this flag in 1.18.33.)
			return []string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=true"}
		},
		// Its Plan agent (Tab switches to it).
		mode: []string{"--agent", "plan"},
		files: func(h *home, url string) error {
			cfg := filepath.Join(".config", "opencode")
			if err := h.write(filepath.Join(cfg, "opencode.json"), map[string]any{
				"model": "fake/fake-model",
				"provider": map[string]any{"fake": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Fake",
					"options": map[string]any{"baseURL": url + "/v1", "apiKey": fakeKey},
					"models":  map[string]any{"fake-model": map[string]any{"name": "Fake Model"}}}},
				"permission": map[string]any{"bash": "ask"}, "autoupdate": false, "share": "disabled",
			}); err != nil {
				return err
			}
			if h.tap != "" {
				if err := h.write(filepath.Join(cfg, "plugins", "tap.js"), opencodeTap(h.tap)); err != nil {
					return err
				}
			}
			return seedOpenCode(h.seed, filepath.Join(h.dir, cfg))
		},
		ready:   []string{"ctrl+p commands"},
		dialog:  []string{"Permission required"},
		approve: "Enter", reject: "Escape", interrupt: "Escape Escape",
		exit: "/exit", compact: "/compact", menu: "/models", clear: "/new",
		quiet:     modelserver.ToolCall{Name: "glob", Input: json.RawMessage(`{"pattern":"*"}`)},
		asks:      shell,
		question:  tool("question", `{"questions":[{"question":"Which colour should the button be?","header":"Colour","options":[{"label":"Red","description":"a red button"},{"label":"Blue","description":"a blue button"}]}]}`),
		subagent:  tool("task", `{"description":"Look around","prompt":"Say done.","subagent_type":"general"}`),
		bgAgent:   tool("task", `{"description":"Look around","prompt":"Say done.","subagent_type":"general","background":true}`),
		bgMatch:   `"role":"tool"`,
		toolEvent: "tool.execute.before",
	},
}

// opencodeTap is a plugin that appends every bus event and tool hook, whole.
func opencodeTap(file string) string {
	f, _ := json.Marshal(file)
	return `import { appendFileSync } from "node:fs";
const FILE = ` + string(f) + `;
const tap = (event, payload) => { try { appendFileSync(FILE, JSON.stringify({ event, payload }) + "\n"); } catch {} };
export const TapPlugin = async () => ({
  event: async ({ event }) => tap(event && event.type, event),
  "chat.message": async (input) => tap("chat.message", input),
  "tool.execute.before": async (input) => tap("tool.execute.before", input),
  "tool.execute.after": async (input) => tap("tool.execute.after", input),
});
`
}

func findAgent(name string) (agent, bool) {
	for _, a := range agents {
		if a.name == name {
			return a, true
		}
	}
	return agent{}, false
}

// lanesMarkers are the witness's screen markers for a, which the harness
// checks against the real agent.
func lanesMarkers(a state.Agent) state.Markers {
	m, _ := state.MarkersOf(a)
	return m
}
