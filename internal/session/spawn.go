package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"lanes/agent"
	"lanes/internal/fsafe"
	"lanes/state"
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
func (s *Service) spawnPlan(r *state.Record, args []string) (spawn, error) {
	dir, err := s.stateDir()
	if err != nil {
		return spawn{}, err
	}
	// A worktree's directories may have been swapped since (restore,
	// restart): no agent starts in one that is not the user's alone.
	if err := CheckWorktree(r.Git.Worktree); err != nil {
		return spawn{}, fmt.Errorf("%s: not starting its agent: %w", r.Name, err)
	}
	var self string
	if s.HookBinary != nil {
		if self, err = s.HookBinary(dir); err != nil {
			return spawn{}, err
		}
	}
	plan, err := agent.Launch(r.Agent, self, dir, r.ID, args, s.getenv)
	if err != nil {
		return spawn{}, err
	}
	// tmux starts the command in the session's directory: a relative
	// path (./agent.sh) is found there, not where lanes runs.
	look := plan.Args[0]
	if strings.ContainsRune(look, '/') && !filepath.IsAbs(look) && r.Dir != "" {
		look = filepath.Join(r.Dir, look)
	}
	if _, err := exec.LookPath(look); err != nil {
		return spawn{}, notRunnable(r, plan.Args[0], err)
	}
	if plan.Note != "" && plan.Injected && r.Activity.FirstSignalAt.IsZero() {
		// (Said until the session's hooks first report: a restart or a
		// restore of one whose hooks work needs no telling again.)
		s.warn("%s", plan.Note)
	}
	// Hooks report when injected, or, where injection was not possible,
	// when the user installed them in the agent's own config.
	reports := plan.Injected
	if !reports {
		reports, _ = agent.Installed(r.Agent, s.getenv("HOME"))
		if !reports && plan.Note != "" && r.Agent != state.AgentShell && r.Agent != state.AgentCustom {
			s.warn("%s; until then its card follows pane output only", plan.Note)
		}
	}
	sp := spawn{argv: plan.Args, hooks: reports, cleanup: func() {}}
	sp.command = args
	if r.Agent != state.AgentCustom {
		sp.command = append([]string{string(r.Agent)}, args...)
	}
	// The profile's variables first: lanes' own come after, and a
	// profile may not name them (config).
	sp.env = append(slices.Clone(r.Env),
		agent.EnvSession+"="+r.ID,
		agent.EnvLaunch+"="+r.Runtime.Launch,
		"LANES_STATE_DIR="+dir)
	sp.env = append(sp.env, plan.Env...)
	// Content off where lanes starts the agent stays off in its hooks: a
	// tmux server gives new sessions its own environment, not ours.
	if state.Off(s.getenv(state.EnvContent)) {
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

// agentArgs recovers the user's own arguments from a record's command,
// for a restart.
func agentArgs(r *state.Record) []string {
	if r.Agent == state.AgentCustom {
		return r.Command
	}
	if len(r.Command) > 1 {
		return r.Command[1:]
	}
	return nil
}

// notRunnable says why cmd, r's agent or its own command, cannot start:
// an agent not installed gets what to do; a command given by path, what
// is wrong with that file.
func notRunnable(r *state.Record, cmd string, err error) error {
	if strings.ContainsRune(cmd, '/') {
		why := "not an executable file"
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			why = pe.Err.Error()
		}
		return fmt.Errorf("cannot run %s: %s", cmd, why)
	}
	if r.Agent == state.AgentCustom || r.Agent == state.AgentShell {
		return fmt.Errorf("%s not found on PATH", cmd)
	}
	return fmt.Errorf("%s not found on PATH: install it, or run a command of your own as a custom agent (`lanes new %s -- CMD`)", cmd, r.Name)
}
