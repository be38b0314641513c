package cli

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lanes/internal/remote"
	"lanes/state"
)

// doctorWorktrees lists the worktrees under lanes' worktree roots (the
// directories its records' worktrees are in) that no record owns: what an
// interrupted `lanes new --worktree` (a kill -9) or a record removed
// without --worktree left, each with the commands that remove it and its
// branch, which doctor never runs itself.
func doctorWorktrees(recs []*state.Record, add addFunc) {
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
			branch := state.GitBranch(path)
			fix := "git -C " + remote.Quote(repo) + " worktree remove " + remote.Quote(path)
			if branch != "" {
				fix += "\n         git -C " + remote.Quote(repo) + " branch -D " + remote.Quote(branch) + "   (once nothing on it is wanted)"
			}
			add(false, fix, "worktree %s (branch %s) under lanes' root has no session: an interrupted lanes new --worktree, or a session removed without --worktree",
				path, cmp.Or(branch, "unknown"))
		}
	}
}

// worktreeRepo is the main checkout a linked worktree at path belongs to
// (its .git file names the repository's .git/worktrees/NAME); "" for a
// directory that is not a linked worktree.
func worktreeRepo(path string) string {
	b, err := os.ReadFile(filepath.Join(path, ".git"))
	if err != nil || len(b) > 4096 {
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
