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

	"lanes/internal/shell"
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
	d, ok := DriverOf(a)
	if !ok {
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
	return d.launch(lanesBin, HookDir(stateDir, sessionID), userArgs, env)
}

// hookSpec is one event an agent's hooks are registered for; Matcher "" means
// the group carries no matcher (it then matches every occurrence).
type hookSpec struct {
	Event   string
	Matcher string
}

// hookCommand is the shell command an agent's hook runs: the lanes binary,
// single-quoted so any path survives the shell, then `hook AGENT`, then
// InstalledFlag for hooks written into the agent's own config.
func hookCommand(lanesBin, agent string, installed bool) string {
	cmd := shell.Quoted(lanesBin) + " hook " + agent
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

// cutShellQuoted splits a leading shell.Quoted word off s.
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

func injectedEnv(extra ...string) []string {
	return append([]string{EnvInjected + "=1"}, extra...)
}
