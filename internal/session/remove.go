package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/agent"
	"lanes/internal/fsafe"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// Remove purges a terminated session's record, history, spool and
// indexes (`lanes rm`); an adopted one, live or not, is forgotten: its
// later hooks write nothing. A session whose agent exited in its pane is
// ended first (Kill), in the one step; one whose agent runs is refused.
func (s *Service) Remove(ctx context.Context, r *state.Record) error {
	if r.Live() && !r.Adopted {
		if err := s.EndExited(ctx, r); err != nil {
			return err
		}
	}
	st, err := s.Store()
	if err != nil {
		return err
	}
	if r.Adopted {
		// Forgotten for good: its later hooks write nothing (hook.go).
		path := ForgottenMark(st.Dir, r.ID)
		_ = os.MkdirAll(filepath.Dir(path), 0o700)
		if err := fsafe.WriteFile(path, nil, 0o600); err != nil {
			return fmt.Errorf("forgetting %s: %w", r.Name, err)
		}
	}
	if err := st.Update(func(tx *store.Tx) error { return tx.Delete(r.ID) }); err != nil {
		return err
	}
	spool, _ := filepath.Glob(filepath.Join(st.SpoolDir(), r.ID+"*.jsonl"))
	for _, f := range spool {
		_ = os.Remove(f)
	}
	_ = os.RemoveAll(agent.HookDir(st.Dir, r.ID))
	store.DropPaneIndex(st.Dir, r)
	if b, err := os.ReadFile(NameIndex(st.Dir, r.Name)); err == nil && strings.HasPrefix(string(b), r.ID) {
		_ = os.Remove(NameIndex(st.Dir, r.Name))
	}
	return nil
}

// EndExited ends the tmux session of r when its agent exited in its pane
// (the pane kept, dead), and only while tmux, as it ends it, still finds
// that pane dead: a restart in between respawned it, and then it runs and
// is refused. No pane of r's (found by its @lanes_id, never by a stored
// session id another session may have now) is nothing to end. A pane
// that runs is refused, with what to do.
func (s *Service) EndExited(ctx context.Context, r *state.Record) error {
	tc := s.Tmux(r.Runtime.Socket)
	pane, err := findPane(ctx, tc, r.ID)
	switch {
	case err != nil:
		return fmt.Errorf("%s is live, and its tmux server says nothing of its pane (%v); `lanes kill %s` first", r.Name, err, r.Name)
	case pane.PaneID == "":
		return nil
	case !pane.Dead:
		return fmt.Errorf("%s is live; `lanes kill %s` first", r.Name, r.Name)
	}
	if err := tc.KillSessionOfDeadPane(ctx, pane.PaneID); err != nil && !errors.Is(err, tmux.ErrNoSession) {
		return fmt.Errorf("ending %s's tmux session: %w; nothing was removed", r.Name, err)
	}
	switch after, err := findPane(ctx, tc, r.ID); {
	case err != nil && !errors.Is(err, tmux.ErrNoServer):
		return fmt.Errorf("reading %s's pane after ending it: %w; nothing was removed", r.Name, err)
	case after.PaneID != "" && !after.Dead:
		return fmt.Errorf("%s was started again meanwhile, and runs: nothing was removed; `lanes kill %s` first", r.Name, r.Name)
	case after.PaneID != "":
		return fmt.Errorf("ending %s's tmux session: it is still there; nothing was removed", r.Name)
	}
	return nil
}

// CleanUp is the one step after a session's PR merged (`lanes rm NAME
// --merged`, the board's d on a merged card): it ends the session when it
// runs, removes its worktree when that is clean (one with changes stays,
// and what it says names them), and removes its record. It says what it
// did.
func (s *Service) CleanUp(ctx context.Context, r *state.Record) (string, error) {
	if !r.Merged() {
		return "", fmt.Errorf("%s has no merged PR: `lanes rm %s` removes it (once it ended)", r.Name, r.Name)
	}
	if r.Live() && !r.Adopted {
		if err := s.Kill(ctx, r, false); err != nil {
			return "", err
		}
	}
	wt := ""
	if r.Git.Worktree != "" && !r.Adopted {
		wtPath := r.Git.Worktree
		switch lost, err := s.worktreeChanges(ctx, r); {
		case err != nil:
			wt = fmt.Sprintf("; its worktree %s stays (%v)", wtPath, err)
		case len(lost) > 0:
			more := ""
			if len(lost) > 3 {
				more = fmt.Sprintf(" and %d more", len(lost)-3)
			}
			wt = fmt.Sprintf("; its worktree %s stays, with work removing it would lose (%s%s): `git worktree remove %s` once that is dealt with",
				wtPath, strings.Join(lost[:min(len(lost), 3)], ", "), more, wtPath)
		default:
			if err := s.RemoveWorktree(ctx, r); err != nil {
				return "", fmt.Errorf("%w (its session was ended; `lanes rm %s --merged` again)", err, r.ID)
			}
			wt = fmt.Sprintf(" and its worktree %s; branch %s is kept", r.Git.Worktree, r.Branch)
		}
	}
	if err := s.Remove(ctx, r); err != nil {
		return "", err
	}
	return fmt.Sprintf("removed %s (its PR merged)%s", r.Name, wt), nil
}
