package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"lanes/state"
)

// spawn is everything tmux needs to start (or respawn) a session's agent.
type spawn struct {
	command  []string // the agent's command as the user asked for it
	argv     []string // what the pane runs, hooks injected
	env      []string
	injected bool
	cleanup  func()
}

// spawnPlan resolves the agent's command and the environment lanes passes to
// the pane with -e: a tmux server gives new panes its own environment, not
// the caller's, so the session, launch and absolute state dir travel this way.
func (a *app) spawnPlan(r *state.Record, args []string) (spawn, error) {
	dir, err := a.stateDir()
	if err != nil {
		return spawn{}, err
	}
	sp := spawn{cleanup: func() {}}
	switch r.Agent {
	case state.AgentCustom:
		if len(args) == 0 {
			return spawn{}, fmt.Errorf("a custom agent needs a command after --")
		}
		sp.argv = args
	case state.AgentShell:
		sh := a.getenv("SHELL")
		if sh == "" {
			sh = "/bin/sh"
		}
		sp.argv = append([]string{sh}, args...)
	default:
		sp.argv = append([]string{string(r.Agent)}, args...)
	}
	if _, err := exec.LookPath(sp.argv[0]); err != nil {
		return spawn{}, fmt.Errorf("%s not found on PATH: install it, or run another command with `lanes new %s -- CMD`", sp.argv[0], r.Name)
	}
	sp.command = sp.argv
	sp.env = []string{
		"LANES_SESSION=" + r.ID,
		"LANES_LAUNCH=" + r.Runtime.Launch,
		"LANES_STATE_DIR=" + dir,
	}
	plan, err := hookPlan(r, dir, sp.argv)
	if err != nil {
		return spawn{}, err
	}
	if plan.injected {
		sp.argv, sp.injected = plan.argv, true
		sp.env = append(sp.env, plan.env...)
		for path, body := range plan.files {
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				return spawn{}, err
			}
			if err := os.WriteFile(path, body, 0o600); err != nil {
				return spawn{}, err
			}
		}
		sp.cleanup = func() { _ = os.RemoveAll(filepath.Join(dir, "hooks", r.ID)) }
	}
	return sp, nil
}

// agentArgs recovers the user's own arguments from a record's command, for a
// restart.
func agentArgs(r *state.Record) []string {
	if r.Agent == state.AgentCustom {
		return r.Command
	}
	if len(r.Command) > 1 {
		return r.Command[1:]
	}
	return nil
}
