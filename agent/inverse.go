package agent

import (
	"os"
	"path/filepath"

	"lanes/state"
)

// UserCommand is the inverse of Launch for a repair that rebuilds a lost
// record: from argv, a pane's start command, the command as `lanes new`
// records it (the agent first, then the user's arguments; for custom, the
// user's command), so `lanes restart` can run it again. ok is false when
// the user's part cannot be told from what Launch added (Codex's -c
// overrides), or argv is not of the shape Launch gives a.
func UserCommand(a state.Agent, stateDir, sessionID string, argv []string) (cmd []string, ok bool) {
	if len(argv) == 0 {
		return nil, false
	}
	switch a {
	case state.AgentClaude:
		settings := filepath.Join(HookDir(stateDir, sessionID), "claude-settings.json")
		if len(argv) >= 3 && argv[0] == "claude" && argv[1] == "--settings" && argv[2] == settings {
			return append([]string{"claude"}, argv[3:]...), true
		}
	case state.AgentGemini, state.AgentOpenCode:
		if argv[0] == binaries[a] { // their hooks travel in files and the environment
			return argv, true
		}
	case state.AgentCustom:
		if len(argv) == 3 && argv[0] == "/usr/bin/env" && argv[1] == "--" {
			return argv[2:], true // a single word runs through env (tmux commandArgs)
		}
		return argv, true
	}
	return nil, false
}

// InjectedFor is the agent whose injected hook files a session's hook dir
// holds, "" when it holds none (Codex's hooks travel on its command line).
func InjectedFor(stateDir, sessionID string) state.Agent {
	dir := HookDir(stateDir, sessionID)
	for file, a := range map[string]state.Agent{
		"claude-settings.json":        state.AgentClaude,
		"gemini-system-defaults.json": state.AgentGemini,
		"opencode":                    state.AgentOpenCode,
	} {
		if _, err := os.Lstat(filepath.Join(dir, file)); err == nil {
			return a
		}
	}
	return ""
}
