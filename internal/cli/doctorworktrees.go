package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lanes/internal/session"
	"lanes/internal/shell"
	"lanes/state"
	"lanes/state/git"
)

// orphanWorktree is a worktree under lanes' worktree roots (the
// directories its records' worktrees are in) that no record owns: what an
// interrupted `lanes new --worktree` (a kill -9) or a record removed
// without --worktree left.
type orphanWorktree struct {
	path, repo, branch string
	empty              bool // nothing checked out in it: only its .git file
}

func orphanWorktrees(recs []*state.Record) []orphanWorktree {
	owned := map[string]bool{}
	var roots []string
	for _, r := range recs {
		if wt := r.Git.Worktree; wt != "" {
			owned[filepath.Clean(wt)] = true
			if root := filepath.Dir(filepath.Clean(wt)); !slices.Contains(roots, root) {
				roots = append(roots, root)
			}
		}
	}
	var out []orphanWorktree
	for _, root := range roots {
		entries, _ := os.ReadDir(root)
		for _, e := range entries {
			path := filepath.Join(root, e.Name())
			if !e.IsDir() || owned[path] {
				continue
			}
			repo := worktreeRepo(path)
			if repo == "" {
				continue // not a git worktree: not lanes'
			}
			in, _ := os.ReadDir(path)
			out = append(out, orphanWorktree{path: path, repo: repo, branch: git.Branch(path),
				empty: len(in) == 1 && in[0].Name() == ".git"})
		}
	}
	return out
}

// doctorWorktrees names each session whose checkout another user could
// change, and lists each orphan worktree with the commands that remove it
// and its branch, which doctor never runs itself (--repair removes the
// empty ones).
func doctorWorktrees(recs []*state.Record, add addFunc) {
	for _, r := range recs {
		if r.Git.Worktree == "" {
			// A checkout another user can change: lanes runs no git there,
			// but the agent will (the thirteenth re-run).
			if err := git.ForeignCheckout(r.Dir); r.Live() && r.Dir != "" && err != nil {
				add(false, "chmod go-w what it names, or move the checkout where only you can change it",
					"session %s's directory: %v — its agent runs git there", r.Name, err)
			}
			continue
		}
		if err := session.CheckWorktree(r.Git.Worktree); err != nil && !errors.Is(err, fs.ErrNotExist) {
			add(false, "chmod go-w the directory it names (or move the repository where only you can change it), then lanes restart "+shell.Quote(r.Name),
				"session %s's worktree: %v — restart and restore will not start its agent there", r.Name, err)
		}
	}
	for _, o := range orphanWorktrees(recs) {
		fix := "git -C " + shell.Quote(o.repo) + " worktree remove " + shell.Quote(o.path)
		if o.empty {
			fix = "lanes doctor --repair (nothing is checked out in it)"
		}
		if o.branch != "" {
			fix += "\n         git -C " + shell.Quote(o.repo) + " branch -D " + shell.Quote(o.branch) + "   (once nothing on it is wanted)"
		}
		add(false, fix, "worktree %s (branch %s) under lanes' root has no session: an interrupted lanes new --worktree, or a session removed without --worktree",
			o.path, cmp.Or(o.branch, "unknown"))
	}
}

// repairWorktrees removes the orphan worktrees with nothing checked out in
// them (a lanes new --worktree killed mid-checkout left one, locked
// "initializing"): nothing in them can be lost. Their branches stay.
func (a *app) repairWorktrees(ctx context.Context, recs []*state.Record) {
	for _, o := range orphanWorktrees(recs) {
		if !o.empty {
			continue
		}
		if err := git.ForeignCheckout(o.repo); err != nil {
			fmt.Fprintf(a.stdout, "repair: not removing %s: %s\n", o.path, state.CleanText(err.Error()))
			continue
		}
		cmd := git.Command(ctx, os.Environ(), "-C", o.repo, "worktree", "remove", "--force", "--force", o.path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			fmt.Fprintf(a.stdout, "repair: removing the empty worktree %s: %v %s\n", o.path, err, strings.TrimSpace(string(out)))
			continue
		}
		fmt.Fprintf(a.stdout, "repair: removed the empty worktree %s (an interrupted lanes new --worktree)", o.path)
		if o.branch != "" {
			fmt.Fprintf(a.stdout, "; its branch is kept: git -C %s branch -D %s", shell.Quote(o.repo), shell.Quote(o.branch))
		}
		fmt.Fprintln(a.stdout)
	}
}

// worktreeRepo is the main checkout a linked worktree at path belongs to
// (its .git file names the repository's .git/worktrees/NAME); "" for a
// directory that is not a linked worktree.
func worktreeRepo(path string) string {
	// Another user may have planted it (a FIFO, /dev/zero) where they can
	// write: read as every git file lanes reads (issue 30, item 5).
	b, err := git.ReadFile(filepath.Join(path, ".git"))
	if err != nil {
		return ""
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir = filepath.Clean(strings.TrimSpace(gitdir))
	if filepath.Base(filepath.Dir(gitdir)) != "worktrees" {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(gitdir))) // REPO/.git/worktrees/NAME → REPO
}
