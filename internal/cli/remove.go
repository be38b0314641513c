package cli

import (
	"context"
	"fmt"

	"lanes/state"
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
		if err := a.svc().CheckWorktreeClean(ctx, r); err != nil {
			return a.fail(err)
		}
	}
	// A live session is ended first, before its worktree goes: at once
	// when its agent exited, and when its tmux does not answer (nothing
	// else can tell) after a confirm; one whose agent runs is refused.
	if r.Live() && !r.Adopted { // an adopted one is only forgotten (remove)
		down := a.svc().ServerDown(ctx, r)
		if down == nil {
			if err := a.svc().EndExited(ctx, r); err != nil {
				return a.fail(err)
			}
		} else {
			if !*yes {
				if err := a.confirm(fmt.Sprintf("%v\nRemove %s anyway?", down, r.Name), down); err != nil {
					return a.fail(err)
				}
			}
			if err := a.svc().Kill(ctx, r, true); err != nil {
				return a.fail(err)
			}
		}
	}
	if *withWT {
		if err := a.svc().RemoveWorktree(ctx, r); err != nil {
			return a.fail(err)
		}
	}
	if err := a.svc().Remove(ctx, r); err != nil {
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
