package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"lanes/agent"
	"lanes/state"
	"lanes/state/fsafe"
)

// spawn is everything tmux needs to start (or respawn) a session's agent.
type spawn struct {
	command []string // the agent's command as the user asked for it
	argv    []string // what the pane runs, hooks injected
	env     []string
	hooks   bool // the agent's hooks report to lanes
	cleanup func()
}

// spawnPlan resolves the agent's command and the environment lanes passes to
// the pane with -e: a tmux server gives new panes its own environment, not
// the caller's, so the session, launch and absolute state dir travel this way.
func (a *app) spawnPlan(r *state.Record, args []string) (spawn, error) {
	dir, err := a.stateDir()
	if err != nil {
		return spawn{}, err
	}
	self, err := hookBinary(dir)
	if err != nil {
		return spawn{}, err
	}
	plan, err := agent.Launch(r.Agent, self, dir, r.ID, args, a.getenv)
	if err != nil {
		return spawn{}, err
	}
	if _, err := exec.LookPath(plan.Args[0]); err != nil {
		return spawn{}, fmt.Errorf("%s not found on PATH: install it, or run a command of your own as a custom agent (`lanes new %s -- CMD`)", plan.Args[0], r.Name)
	}
	if plan.Note != "" && plan.Injected && r.Activity.FirstSignalAt.IsZero() {
		// (Said until the session's hooks first report: a restart or a
		// restore of one whose hooks work needs no telling again.)
		a.warn("%s", plan.Note)
	}
	// Hooks report when injected, or, where injection was not possible,
	// when the user installed them in the agent's own config.
	reports := plan.Injected
	if !reports {
		reports, _ = agent.Installed(r.Agent, a.getenv("HOME"))
		if !reports && plan.Note != "" && r.Agent != state.AgentShell && r.Agent != state.AgentCustom {
			a.warn("%s; until then its card follows pane output only", plan.Note)
		}
	}
	sp := spawn{argv: plan.Args, hooks: reports, cleanup: func() {}}
	sp.command = args
	if r.Agent != state.AgentCustom {
		sp.command = append([]string{string(r.Agent)}, args...)
	}
	sp.env = append([]string{
		agent.EnvSession + "=" + r.ID,
		agent.EnvLaunch + "=" + r.Runtime.Launch,
		"LANES_STATE_DIR=" + dir,
	}, plan.Env...)
	// Content off where lanes starts the agent stays off in its hooks: a
	// tmux server gives new sessions its own environment, not ours.
	if state.Off(a.getenv(state.EnvContent)) {
		sp.env = append(sp.env, state.EnvContent+"=off")
	}
	for path, body := range plan.Files {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return spawn{}, err
		}
		if err := fsafe.WriteFile(path, body, 0o600); err != nil {
			return spawn{}, err
		}
	}
	if len(plan.Files) > 0 {
		sp.cleanup = func() { _ = os.RemoveAll(agent.HookDir(dir, r.ID)) }
	}
	return sp, nil
}

// hookBinary is the absolute path hooks run lanes by: the lanes binary
// next to lanes-board when the board asks, since hooks are on the agents'
// critical path and lanes starts faster. A binary from `go run` lives in a
// build cache directory that is deleted when it exits, while the sessions
// it starts live on, so such a binary is copied to $STATE/bin first.
func hookBinary(stateDir string) (string, error) {
	self, err := executable()
	if err != nil {
		return "", fmt.Errorf("finding the lanes binary for hooks: %w", err)
	}
	return hookBinaryFor(self, stateDir)
}

func hookBinaryFor(self, stateDir string) (string, error) {
	if filepath.Base(self) == boardName {
		if lean := filepath.Join(filepath.Dir(self), "lanes"); isExecutable(lean) {
			return lean, nil
		}
	}
	if !strings.Contains(self, string(filepath.Separator)+"go-build") {
		return self, nil
	}
	body, err := os.ReadFile(self)
	if err != nil {
		return "", err
	}
	stable := filepath.Join(stateDir, "bin", "lanes")
	if old, err := os.ReadFile(stable); err == nil && bytes.Equal(old, body) {
		return stable, nil
	}
	if err := os.MkdirAll(filepath.Dir(stable), 0o700); err != nil {
		return "", err
	}
	if err := fsafe.WriteFile(stable, body, 0o700); err != nil {
		return "", fmt.Errorf("copying lanes for hooks: %w", err)
	}
	return stable, nil
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
