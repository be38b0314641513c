// Package agent knows how each coding agent takes hooks: what lanes adds to
// an agent's command line, environment and files so that its hooks run
// `lanes hook AGENT` (Launch, docs/design.md §6 zero-config injection), and how to
// write the same hooks into the agent's own configuration (Install,
// `lanes hooks install`), and what to type so a prompt is submitted as
// written (Prompt). Everything here is computed, not performed: the
// caller writes the files, starts the pane and prints the diffs.
//
// docs/hooks-research.md lists the documented hook interfaces this relies on.
package agent

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"lanes/state"
)

// Plan is what lanes needs to start an agent with its hooks injected.
type Plan struct {
	// Args is the full argv, the agent's binary first (found on PATH).
	Args []string
	// Env is the extra KEY=VALUE pairs to pass with tmux new-session -e /
	// respawn-pane -e, besides LANES_SESSION, LANES_LAUNCH and
	// LANES_STATE_DIR, which the caller adds.
	Env []string
	// Files are absolute paths under the state dir to write (mode 0600, dirs
	// 0700) before the agent starts.
	Files map[string][]byte
	// Injected reports whether the agent's hooks will report to lanes.
	Injected bool
	// Note says why hooks were not injected (or what limits them), for a
	// warning and `lanes doctor`; empty when there is nothing to say.
	Note string
}

// Environment and flags shared with `lanes hook`.
const (
	// EnvInjected is set to "1" in every session whose hooks lanes injected.
	// Hooks installed in the agent's own config carry InstalledFlag, and
	// `lanes hook` drops those calls when EnvInjected is "1", so an event is
	// never recorded twice when both are present.
	EnvInjected = "LANES_HOOKS_INJECTED"
	// InstalledFlag marks the hook commands Install writes.
	InstalledFlag = "--installed"
	// EnvCodexNotifyChain holds, as a JSON array, the notify program the user
	// had configured for Codex before lanes' injected notify replaced it;
	// `lanes hook codex notify` runs it with the same payload argument.
	EnvCodexNotifyChain = "LANES_CODEX_NOTIFY_CHAIN"
	// EnvSession and EnvLaunch carry a session's id and launch into its
	// pane, where `lanes hook` reads them to know whose event it records.
	EnvSession = "LANES_SESSION"
	EnvLaunch  = "LANES_LAUNCH"
)

// Errors callers may test for.
var (
	// ErrNoHooks: the agent has no hook mechanism (shell, custom).
	ErrNoHooks = errors.New("agent has no hooks")
	// ErrNotOurs: a file lanes would write exists and was not written by lanes.
	ErrNotOurs = errors.New("file exists and was not written by lanes")
)

// binaries are the agents' program names, found on PATH.
var binaries = map[state.Agent]string{
	state.AgentClaude:   "claude",
	state.AgentCodex:    "codex",
	state.AgentGemini:   "gemini",
	state.AgentOpenCode: "opencode",
}

// HookDir is where a session's injected hook files live.
func HookDir(stateDir, sessionID string) string {
	return filepath.Join(stateDir, "hooks", sessionID)
}

// Launch computes how to start agent a for session sessionID so that its
// hooks run `lanesBin hook AGENT`. userArgs are the arguments the user gave
// the agent (for custom: the command and its arguments). env reads the
// caller's environment (HOME, CODEX_HOME, SHELL, GEMINI_CLI_SYSTEM_DEFAULTS_PATH,
// OPENCODE_CONFIG_DIR); Codex and Gemini launches read the user's existing
// config files it names, and never write them.
func Launch(a state.Agent, lanesBin, stateDir, sessionID string, userArgs []string, env func(string) string) (Plan, error) {
	if env == nil {
		env = func(string) string { return "" }
	}
	switch a {
	case state.AgentShell:
		sh := env("SHELL")
		if sh == "" {
			sh = "/bin/sh"
		}
		return Plan{Args: append([]string{sh}, userArgs...), Note: "shell sessions have no hooks; activity follows pane output"}, nil
	case state.AgentCustom:
		if len(userArgs) == 0 {
			return Plan{}, errors.New("custom agent: no command given")
		}
		return Plan{Args: slices.Clone(userArgs), Note: "custom commands have no hooks; activity follows pane output (or `lanes hook generic`)"}, nil
	}
	if _, ok := binaries[a]; !ok {
		return Plan{}, fmt.Errorf("unknown agent %q", a)
	}
	if !filepath.IsAbs(lanesBin) {
		return Plan{}, fmt.Errorf("lanes binary path %q is not absolute (hooks run outside lanes' working directory)", lanesBin)
	}
	if !filepath.IsAbs(stateDir) {
		return Plan{}, fmt.Errorf("state dir %q is not absolute", stateDir)
	}
	if !state.ValidID(sessionID) {
		return Plan{}, fmt.Errorf("invalid session id %q", sessionID)
	}
	dir := HookDir(stateDir, sessionID)
	switch a {
	case state.AgentClaude:
		return claudeLaunch(lanesBin, dir, userArgs)
	case state.AgentCodex:
		return codexLaunch(lanesBin, userArgs, env)
	case state.AgentGemini:
		return geminiLaunch(lanesBin, dir, userArgs, env)
	default:
		return opencodeLaunch(lanesBin, dir, userArgs, env)
	}
}

// hookSpec is one event an agent's hooks are registered for; Matcher "" means
// the group carries no matcher (it then matches every occurrence).
type hookSpec struct {
	Event   string
	Matcher string
}

// Claude Code events lanes registers (state.Translate maps each of them).
var claudeHooks = []hookSpec{
	{"SessionStart", ""},
	{"SessionEnd", ""},
	{"UserPromptSubmit", ""},
	{"PreToolUse", "*"},
	{"PostToolUse", "*"},
	{"PostToolUseFailure", "*"},
	{"PermissionRequest", "*"},
	{"Notification", ""},
	{"Stop", ""},
	{"StopFailure", ""},
	{"SubagentStart", ""},
	{"SubagentStop", ""},
	{"PreCompact", ""},
}

// Codex lifecycle events lanes registers: the set every Codex release with
// hooks documents, and Interrupt, the only sign of an Esc or Ctrl-C (Codex
// 0.171; a Codex that does not know an event name ignores it: 0.171 runs
// with `-c hooks.Bogus=…`). Newer releases add SubagentStart/Stop,
// PreCompact, PostCompact and StopFailure (Translate maps them); they are
// left out so an older Codex never meets more names than it must.
var codexHooks = []hookSpec{
	{"SessionStart", ""},
	{"UserPromptSubmit", ""},
	{"PreToolUse", ""},
	{"PermissionRequest", ""},
	{"PostToolUse", ""},
	{"Stop", ""},
	{"Interrupt", ""},
}

// Gemini CLI events lanes registers. AfterModel is left out: it fires for
// every streamed chunk, and BeforeModel already shows the model working.
var geminiHooks = []hookSpec{
	{"SessionStart", ""},
	{"SessionEnd", ""},
	{"BeforeAgent", ""},
	{"AfterAgent", ""},
	{"BeforeTool", "*"},
	{"AfterTool", "*"},
	{"BeforeModel", ""},
	{"Notification", ""},
	{"PreCompress", ""},
}

// Hook timeouts: Claude Code counts seconds, Gemini CLI milliseconds. `lanes
// hook` appends one line and exits; the timeout only bounds a wedged disk.
const (
	claudeTimeoutSec = 10
	geminiTimeoutMs  = 10000
)

// hookCommand is the shell command an agent's hook runs: the lanes binary,
// single-quoted so any path survives the shell, then `hook AGENT`, then
// InstalledFlag for hooks written into the agent's own config.
func hookCommand(lanesBin, agent string, installed bool) string {
	cmd := shellQuote(lanesBin) + " hook " + agent
	if installed {
		cmd += " " + InstalledFlag
	}
	return cmd
}

// isLanesCommand reports whether a hook command is one lanes wrote for agent
// (injected or installed, whatever the binary path): exactly a single-quoted
// path, then " hook AGENT", then optionally InstalledFlag. Anything else,
// however similar, is the user's.
func isLanesCommand(cmd, agent string) bool {
	_, rest, ok := cutShellQuoted(strings.TrimSpace(cmd))
	return ok && (rest == " hook "+agent || rest == " hook "+agent+" "+InstalledFlag)
}

// installedBinary is the lanes binary an installed hook command (one
// Install wrote for agent, whatever the binary path) runs; ok is false for
// any other command, injected ones included.
func installedBinary(cmd, agent string) (bin string, ok bool) {
	bin, rest, ok := cutShellQuoted(strings.TrimSpace(cmd))
	if !ok || rest != " hook "+agent+" "+InstalledFlag {
		return "", false
	}
	return bin, true
}

// cutShellQuoted splits a leading shellQuote'd word off s.
func cutShellQuoted(s string) (word, rest string, ok bool) {
	var b strings.Builder
	for {
		if !strings.HasPrefix(s, "'") {
			return "", "", false
		}
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", false
		}
		b.WriteString(s[1 : 1+end])
		s = s[2+end:]
		if !strings.HasPrefix(s, `\''`) {
			return b.String(), s, b.Len() > 0
		}
		b.WriteByte('\'')
		s = s[2:] // the escaped quote; the next part reopens the quoting
	}
}

// shellQuote quotes s for a POSIX shell: s goes inside single quotes, and
// each single quote in it closes the quoting, is written escaped with a
// backslash, and reopens it.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func injectedEnv(extra ...string) []string {
	return append([]string{EnvInjected + "=1"}, extra...)
}

// claudeLaunch: `claude --settings FILE ARGS…`. Claude Code merges a
// --settings file with the user, project and local settings, hook arrays
// included, so the user's own hooks keep running.
func claudeLaunch(lanesBin, dir string, userArgs []string) (Plan, error) {
	settings, err := patchHooks(nil, "claude", claudeHooks, claudeHandler(lanesBin, false))
	if err != nil {
		return Plan{}, err
	}
	file := filepath.Join(dir, "claude-settings.json")
	return Plan{
		Args:     append([]string{"claude", "--settings", file}, userArgs...),
		Env:      injectedEnv(),
		Files:    map[string][]byte{file: settings},
		Injected: true,
	}, nil
}

func claudeHandler(lanesBin string, installed bool) hookHandler {
	return hookHandler{Type: "command", Command: hookCommand(lanesBin, "claude", installed), Timeout: claudeTimeoutSec}
}

func geminiHandler(lanesBin string, installed bool) hookHandler {
	return hookHandler{Name: "lanes", Type: "command", Command: hookCommand(lanesBin, "gemini", installed), Timeout: geminiTimeoutMs}
}

func codexHandler(lanesBin string, installed bool) hookHandler {
	return hookHandler{Type: "command", Command: hookCommand(lanesBin, "codex", installed)}
}

// codexLaunch: `codex -c hooks.EVENT=[…]… -c notify=[…] ARGS…`. The -c
// overrides form Codex's session-flags config layer; hooks from every layer
// run, so the user's own hooks keep running. notify is a single setting, so
// lanes' notify replaces the user's, and `lanes hook codex notify` runs the
// user's program (EnvCodexNotifyChain) with the same payload.
func codexLaunch(lanesBin string, userArgs []string, env func(string) string) (Plan, error) {
	var args []string
	for _, h := range codexHooks {
		args = append(args, "-c", codexHookOverride(h, hookCommand(lanesBin, "codex", false)))
	}
	notify := []string{lanesBin, "hook", "codex", "notify"}
	args = append(args, "-c", "notify="+tomlStringArray(notify))
	p := Plan{Env: injectedEnv(), Injected: true,
		Note: "Codex runs lanes' hooks only once trusted: the first time, it asks at start (the card shows Needs you); choose \"Trust all and continue\" (until then only each turn's end reports)"}

	chain, err := userCodexNotify(env)
	switch {
	case err != nil:
		// Never drop a notify program we could not read: keep the user's
		// setting and rely on the lifecycle hooks alone.
		args = args[:len(args)-2]
		p.Note = "Codex notify left as configured (" + err.Error() + "); " + p.Note
	case len(chain) > 0 && !isLanesNotify(chain):
		p.Env = append(p.Env, EnvCodexNotifyChain+"="+string(mustJSON(chain)))
	}
	p.Args = append(append([]string{"codex"}, args...), userArgs...)
	return p, nil
}

// codexHookOverride is one `-c` value: hooks.EVENT=[{hooks=[{…}]}] in TOML.
func codexHookOverride(h hookSpec, command string) string {
	var b strings.Builder
	b.WriteString("hooks." + h.Event + "=[{")
	if h.Matcher != "" {
		b.WriteString("matcher=" + tomlString(h.Matcher) + ",")
	}
	b.WriteString(`hooks=[{type="command",command=` + tomlString(command) + "}]}]")
	return b.String()
}

// isLanesNotify: the configured notify program is already lanes' (chaining
// it would record every turn end twice).
func isLanesNotify(argv []string) bool {
	for i := 0; i+2 < len(argv); i++ {
		if argv[i] == "hook" && argv[i+1] == "codex" && argv[i+2] == "notify" {
			return true
		}
	}
	return false
}

// codexHome is $CODEX_HOME, else ~/.codex ("" when neither is known).
func codexHome(env func(string) string) string {
	if h := env("CODEX_HOME"); h != "" {
		return h
	}
	if home := env("HOME"); home != "" {
		return filepath.Join(home, ".codex")
	}
	return ""
}
