package session

import (
	"context"
	"errors"
	"fmt"
	"os"

	"lanes/agent"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// The board's R (docs/design.md §13) and `lanes restore`: start a session
// whose tmux session is gone again, after a confirm that shows what will
// run.

// restoring is how `lanes restore` brings a session back: its agent's
// arguments with the resume arguments appended, and the id resumed ("" for
// a fresh start).
type restoring struct {
	args     []string
	resumeID string
}

// shows is the agent's command as restore runs it, without the flags lanes
// injects, for the board's confirm.
func (p restoring) shows(r *state.Record) []string {
	if r.Agent == state.AgentCustom {
		return p.args
	}
	return append([]string{string(r.Agent)}, p.args...)
}

// ErrRunning: the session's tmux session is there; nothing to restore.
// ErrExitedInPlace: so is its pane, its agent exited in it: restart, not
// restore, starts it again.
var (
	ErrRunning       = errors.New("still has its tmux session")
	ErrExitedInPlace = fmt.Errorf("%w, its agent exited", ErrRunning)
)

// RestorePlan is the agent's command as `lanes restore` would run it for r
// (its resume arguments included, lanes' injected flags not), or why r
// cannot be restored.
func (s *Service) RestorePlan(ctx context.Context, r *state.Record) ([]string, error) {
	all, err := s.records()
	if err != nil {
		return nil, err
	}
	plan, err := s.planRestore(ctx, r, all, true)
	if err != nil {
		return nil, err
	}
	return plan.shows(r), nil
}

// Restore is the board's R on r; it says how the session came back.
func (s *Service) Restore(ctx context.Context, r *state.Record) (string, error) {
	all, err := s.records()
	if err != nil {
		return "", err
	}
	return s.RestoreAmong(ctx, r, all, true)
}

// RestoreAmong starts r, whose tmux session went away, again (`lanes
// restore`), resuming its agent's conversation where the agent can, and
// says how; all is every record, to refuse a name a live session has
// taken since. named: the user named r (not --all), so one they killed
// comes back too (state.Restorable).
func (s *Service) RestoreAmong(ctx context.Context, r *state.Record, all []*state.Record, named bool) (string, error) {
	plan, err := s.planRestore(ctx, r, all, named)
	if err != nil {
		return "", err
	}
	if r.Runtime.Terminated {
		if err := s.Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
			if err := state.Revive(cur, named); err != nil {
				return err
			}
			*r = *cur
			return nil
		}); err != nil {
			return "", fmt.Errorf("restoring %s: %w", r.Name, err)
		}
	}
	if _, err := s.restart(ctx, r, plan.args); err != nil {
		return "", err
	}
	if plan.resumeID == "" {
		return fmt.Sprintf("restored %s (%s): no conversation to resume; started afresh", r.Name, r.ID), nil
	}
	return fmt.Sprintf("restored %s (%s): resumed %s conversation %s", r.Name, r.ID, r.Agent, plan.resumeID), nil
}

// planRestore is how r would be restored, or why it is not.
func (s *Service) planRestore(ctx context.Context, r *state.Record, all []*state.Record, named bool) (restoring, error) {
	// The name first: a hint to restore it by id (state.Restorable) would
	// name a command that refuses (a new-user trial's).
	if r.Runtime.Terminated {
		for _, o := range all {
			if o.Live() && o.Name == r.Name {
				return restoring{}, &state.SessionError{Name: r.Name, Reason: fmt.Errorf("%w: live session %s has its name now (it comes back once that one is gone; `lanes rm %s` forgets it)", state.ErrNotRestorable, o.ID, r.ID)}
			}
		}
	}
	if err := state.Restorable(r, named); err != nil {
		return restoring{}, err
	}
	if err := NotStarted(r); err != nil {
		return restoring{}, err
	}
	if err := CheckWorktree(r.Git.Worktree); err != nil {
		return restoring{}, &state.SessionError{Name: r.Name, Reason: fmt.Errorf("%w: not starting its agent: %w", state.ErrNotRestorable, err)}
	}
	pane, err := findPane(ctx, s.Tmux(r.Runtime.Socket), r.ID)
	not := func(verb bool, format string, args ...any) (restoring, error) {
		return restoring{}, &state.SessionError{Name: r.Name, Reason: fmt.Errorf(format, args...), Verb: verb}
	}
	switch {
	case IsDown(err) && !errors.Is(err, tmux.ErrNoServer):
		return not(false, "tmux is not answering (%v); restore it once tmux does", err)
	case err != nil && !errors.Is(err, tmux.ErrNoServer):
		return not(false, "reading its tmux server: %w", err)
	case pane.PaneID != "" && pane.Dead:
		return not(true, "%w; `lanes restart %s` starts it again", ErrExitedInPlace, r.Name)
	case pane.PaneID != "":
		return not(true, "%w; `lanes attach %s`", ErrRunning, r.Name)
	}
	if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
		return not(false, "%w: its directory %s is gone", state.ErrNotRestorable, r.Dir)
	}
	id := state.ResumeID(r)
	return restoring{args: append(agentArgs(r), agent.ResumeArgs(r.Agent, id)...), resumeID: id}, nil
}
