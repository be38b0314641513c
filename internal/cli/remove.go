package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/agent"
	"lanes/state"
	"lanes/state/fsafe"
)

func (a *app) cmdRm(ctx context.Context, args []string) int {
	fs := a.flags("rm")
	yes := fs.Bool("yes", false, "when tmux does not answer, remove a live session's record without asking")
	withWT := fs.Bool("worktree", false, "also remove the git worktree lanes made for it, only when it is clean (the branch is kept)")
	// rm does not pick between records of one name: which one goes is
	// the user's to say, by id.
	r, code, done := a.namedBy(ctx, fs, args, state.ResolveOne)
	if done {
		return code
	}
	if *withWT {
		// Checked before anything is done, so a refusal changes nothing.
		if err := a.checkWorktreeClean(ctx, r); err != nil {
			return a.fail(err)
		}
	}
	if r.Live() && !r.Adopted { // an adopted one is only forgotten (remove)
		// A live session is killed first; lanes does it here only when its
		// tmux does not answer (nothing else can), after a confirm.
		down := a.serverDown(ctx, r)
		if down == nil {
			return a.fail(fmt.Errorf("%s is live; `lanes kill %s` first", r.Name, r.Name))
		}
		if !*yes {
			if err := a.confirm(fmt.Sprintf("%v\nRemove %s anyway?", down, r.Name), down); err != nil {
				return a.fail(err)
			}
		}
		if err := a.kill(ctx, r, true); err != nil {
			return a.fail(err)
		}
	}
	if *withWT {
		if err := a.removeWorktree(ctx, r); err != nil {
			return a.fail(err)
		}
	}
	if err := a.remove(r); err != nil {
		return a.fail(err)
	}
	switch wt := r.Git.Worktree; {
	case *withWT:
		fmt.Fprintf(a.stdout, "removed %s (%s) and its worktree %s; branch %s is kept\n", r.Name, r.ID, wt, r.Branch)
	case wt != "":
		fmt.Fprintf(a.stdout, "removed %s (%s); its worktree stays at %s (`git worktree remove %s` when done with it)\n", r.Name, r.ID, wt, wt)
	default:
		fmt.Fprintf(a.stdout, "removed %s (%s)\n", r.Name, r.ID)
	}
	return exitOK
}

// remove purges a terminated session's record, history, spool and indexes.
func (a *app) remove(r *state.Record) error {
	if r.Live() && !r.Adopted {
		return fmt.Errorf("%s is live; `lanes kill %s` first", r.Name, r.Name)
	}
	st, err := a.store()
	if err != nil {
		return err
	}
	if r.Adopted {
		// Forgotten for good: its later hooks write nothing (hook.go).
		path := forgottenMark(st.Dir, r.ID)
		_ = os.MkdirAll(filepath.Dir(path), 0o700)
		if err := fsafe.WriteFile(path, nil, 0o600); err != nil {
			return fmt.Errorf("forgetting %s: %w", r.Name, err)
		}
	}
	if err := st.Update(func(tx *state.Tx) error { return tx.Delete(r.ID) }); err != nil {
		return err
	}
	spool, _ := filepath.Glob(filepath.Join(st.SpoolDir(), r.ID+"*.jsonl"))
	for _, f := range spool {
		_ = os.Remove(f)
	}
	_ = os.RemoveAll(agent.HookDir(st.Dir, r.ID))
	state.DropPaneIndex(st.Dir, r)
	if b, err := os.ReadFile(nameIndex(st.Dir, r.Name)); err == nil && strings.HasPrefix(string(b), r.ID) {
		_ = os.Remove(nameIndex(st.Dir, r.Name))
	}
	return nil
}
