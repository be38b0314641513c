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
	if a == state.AgentCustom {
		if len(argv) == 3 && argv[0] == "/usr/bin/env" && argv[1] == "--" {
			return argv[2:], true // a single word runs through env (tmux commandArgs)
		}
		return argv, true
	}
	d, ok := DriverOf(a)
	switch {
	case !ok:
		return nil, false
	case d.userCommand != nil:
		return d.userCommand(HookDir(stateDir, sessionID), argv)
	}
	// Its hooks travel in files and the environment: the command is the
	// user's own.
	return argv, argv[0] == d.Binary
}

// InjectedFor is the agent whose injected hook files a session's hook dir
// holds, "" when it holds none (Codex's hooks travel on its command line).
func InjectedFor(stateDir, sessionID string) state.Agent {
	dir := HookDir(stateDir, sessionID)
	for _, d := range drivers {
		if d.injected == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, d.injected)); err == nil {
			return d.Agent
		}
	}
	return ""
}
