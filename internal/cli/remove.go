package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"lanes/state"
)

func (a *app) cmdRm(ctx context.Context, args []string) int {
	fs := a.flags("rm")
	yes := fs.Bool("yes", false, "do not ask: when tmux does not answer, remove a live session's record anyway; with --done, remove them all")
	withWT := fs.Bool("worktree", false, "also remove the git worktree lanes made for it, only when it is clean (the branch is kept)")
	merged := fs.Bool("merged", false, "for a session whose PR merged: end it if it runs, remove its worktree when clean (one with changes stays, named), and its record: the board's d on a merged card")
	fs.Bool("done", false, "remove every terminated session (the Done lane) instead of one NAME, asking once (--yes: at once); worktrees stay")
	if slices.Contains(args, "--done") || slices.Contains(args, "-done") {
		if code, done := a.parse(fs, args); done {
			return code
		}
		if fs.NArg() > 0 || *withWT {
			return a.usageErr(fs, "rm --done takes no NAME and no --worktree")
		}
		return a.rmDone(ctx, *yes)
	}
	// rm does not pick between records of one name: which one goes is
	// the user's to say, by id.
	r, code, done := a.namedBy(ctx, fs, args, state.ResolveOne)
	if done {
		return code
	}
	if *merged {
		said, err := a.svc().CleanUp(ctx, r)
		if err != nil {
			return a.fail(err)
		}
		fmt.Fprintln(a.stdout, state.CleanLines(said))
		return exitOK
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
	ended := false              // its tmux session, by this rm
	if r.Live() && !r.Adopted { // an adopted one is only forgotten (remove)
		down := a.svc().ServerDown(ctx, r)
		if down == nil {
			if err := a.svc().EndExited(ctx, r); err != nil {
				return a.fail(err)
			}
			ended = true
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
		if err := a.svc().RemoveWorktree(ctx, r); err != nil && ended {
			return a.fail(fmt.Errorf("%w; its tmux session was ended (its agent had exited), its record and worktree are kept: `lanes rm %s --worktree` again", err, r.ID))
		} else if err != nil {
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

// rmDone removes every terminated record lanes started (the Done lane's,
// however old), after one question that says how many and which; an
// adopted one is left to `lanes rm NAME`. Worktrees stay.
func (a *app) rmDone(ctx context.Context, yes bool) int {
	recs, err := a.lsRecords(ctx, a.cycle)
	if err != nil {
		return a.fail(err)
	}
	var done []*state.Record
	var names []string
	for _, r := range recs {
		if r.InDoneToClear() {
			done, names = append(done, r), append(names, state.CleanText(r.Name))
		}
	}
	if len(done) == 0 {
		fmt.Fprintln(a.stdout, "nothing in Done")
		return exitOK
	}
	if !yes {
		q := fmt.Sprintf("Remove %d done session(s): %s? Their records, history and spool are deleted; worktrees stay.", len(done), strings.Join(names, ", "))
		if err := a.confirm(q, fmt.Errorf("%d done session(s): rm --done asks first, and stdin is no terminal: --yes removes them", len(done))); err != nil {
			return a.fail(err)
		}
	}
	gone := 0
	for _, r := range done {
		if err := a.svc().Remove(ctx, r); err != nil {
			fmt.Fprintf(a.stderr, "lanes: %s: %v\n", r.Name, err)
			continue
		}
		gone++
	}
	fmt.Fprintf(a.stdout, "removed %d done session(s)\n", gone)
	if gone < len(done) {
		return exitError
	}
	return exitOK
}
