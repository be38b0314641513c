package session

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/state"
	"lanes/state/git"
)

// A worktree per session (docs/design.md §12): `lanes new --worktree`
// makes one with `git worktree add` and starts the agent in it; `lanes rm
// --worktree` removes it only when clean. lanes never passes --force, and
// removes a branch only when the attempt that made it failed.

// EnvWorktreeRoot overrides where worktrees go: $LANES_WORKTREE_ROOT/REPO/NAME
// instead of REPO.lanes/NAME beside the repository.
const EnvWorktreeRoot = "LANES_WORKTREE_ROOT"

// errNoGit is git missing from PATH.
var errNoGit = errors.New("--worktree needs git, and there is none on PATH; install git")

// gitEnvKeys are the variables of this invocation git sees as they are
// (the service's Getenv, not only the process's: tests give git a
// private configuration this way).
var gitEnvKeys = []string{"HOME", "PATH", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"}

// git runs git in dir with argv (never a shell) and returns its output
// without the final newline; an error carries what git said.
func (s *Service) git(ctx context.Context, dir string, args ...string) (string, error) {
	if s.LookPath("git") == "" {
		return "", errNoGit
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := git.Command(ctx, s.Environ(), append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("git %s in %s gave no answer in %s (stopped)", args[0], dir, gitTimeout)
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	// Only the last newline: porcelain lines start with a space.
	return strings.TrimSuffix(stdout.String(), "\n"), nil
}

// gitTimeout bounds one git command of lanes' own (a worktree added in a
// large repository takes seconds; one that hangs on a planted file would
// take forever).
const gitTimeout = 2 * time.Minute

// LookPath is name on this invocation's PATH (its absolute entries only:
// git.AbsPATH), "" when there is none.
func (s *Service) LookPath(name string) string {
	for _, d := range filepath.SplitList(git.AbsPATH(s.getenv("PATH"))) {
		if p := filepath.Join(d, name); IsExecutable(p) {
			return p
		}
	}
	return ""
}

// WorktreePlan is a worktree `lanes new --worktree` is about to make,
// checked before anything is made.
type WorktreePlan struct {
	repo   string // the main checkout's top directory
	path   string // where the worktree goes
	branch string // the new branch, or the one it continues on (existing)
	// existing: the branch was there (--branch EXISTING): the worktree
	// continues on it, and a failure leaves it as it was.
	existing bool
	base     string // what it starts from: a branch name, or a commit
	// madeRoot is the directory holding worktrees when this attempt
	// created it (removed again on failure when empty).
	madeRoot string
	// sub is where in the repository the user asked to start (--dir a
	// subdirectory: a package of a monorepo); "" at its top.
	sub string
}

// startDir is where the agent starts: the same place in the worktree as
// --dir named in the repository, where the worktree has it.
func (p *WorktreePlan) startDir() string {
	if p.sub != "" {
		if d := filepath.Join(p.path, p.sub); isDir(d) {
			return d
		}
	}
	return p.path
}

// IsExecutable reports whether path is a regular file someone may run.
func IsExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// PlanWorktree checks everything `git worktree add` needs for session
// name in the repository dir is in, making nothing: git present, dir in a
// main checkout, the branch new, the path free, the base a commit.
func (s *Service) PlanWorktree(ctx context.Context, name, dir, branch, from string) (*WorktreePlan, error) {
	if s.LookPath("git") == "" {
		return nil, errNoGit
	}
	if err := git.ForeignCheckout(dir); err != nil {
		return nil, fmt.Errorf("--worktree in %s: %w", dir, err)
	}
	out, err := s.git(ctx, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return nil, fmt.Errorf("--worktree needs a git repository: %s is not in one", dir)
		}
		return nil, fmt.Errorf("reading the git repository at %s: %w", dir, err)
	}
	paths := strings.Split(out, "\n")
	if len(paths) != 3 {
		return nil, fmt.Errorf("reading the git repository at %s: git rev-parse said %q", dir, out)
	}
	top, gitDir, common := paths[0], filepath.Clean(paths[1]), filepath.Clean(paths[2])
	if gitDir != common {
		return nil, fmt.Errorf("%s is a worktree of %s: lanes refuses a worktree of a worktree: run it in the main checkout", top, filepath.Dir(common))
	}
	p := &WorktreePlan{repo: top, branch: branch}
	if p.branch == "" {
		p.branch = cmp.Or(s.BranchPrefix, DefaultBranchPrefix) + name
	}
	from = cmp.Or(from, s.WorktreeFrom)
	if _, err := s.git(ctx, top, "check-ref-format", "--branch", p.branch); err != nil {
		return nil, fmt.Errorf("%q is not a valid branch name; choose another --branch", p.branch)
	}
	if _, err := s.git(ctx, top, "rev-parse", "--verify", "--quiet", "refs/heads/"+p.branch); err == nil {
		if err := s.existingBranch(ctx, top, name, branch, p.branch); err != nil {
			return nil, err
		}
		p.existing = true
	}
	if p.base, err = s.worktreeBase(ctx, top, from); err != nil {
		return nil, err
	}
	root := filepath.Join(filepath.Dir(top), filepath.Base(top)+".lanes")
	if env := s.getenv(EnvWorktreeRoot); env != "" {
		if !filepath.IsAbs(env) {
			return nil, fmt.Errorf("$%s is %q: it must be an absolute path (a relative one would depend on where lanes runs)", EnvWorktreeRoot, env)
		}
		root = filepath.Join(env, filepath.Base(top))
	}
	p.path = filepath.Join(root, name)
	if err := ancestorsSafe(filepath.Dir(root)); err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(dir); err == nil {
		if rel, err := filepath.Rel(top, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			p.sub = rel
		}
	}
	if _, err := os.Lstat(p.path); err == nil {
		return nil, fmt.Errorf("worktree path %s is taken; choose another name, or move what is there", p.path)
	}
	switch _, err := os.Lstat(root); {
	case errors.Is(err, os.ErrNotExist):
		p.madeRoot = root
	case err != nil:
		return nil, fmt.Errorf("worktree root %s: %w", root, err)
	default:
		if err := WorktreeDirSafe(root); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// worktreeBase is what a new worktree starts from: from when given (it
// must name a commit), else the branch the repository is on, or, on a
// detached HEAD, its commit.
func (s *Service) worktreeBase(ctx context.Context, top, from string) (string, error) {
	if from != "" {
		hash, err := s.git(ctx, top, "rev-parse", "--verify", "--quiet", from+"^{commit}")
		if err != nil {
			return "", fmt.Errorf("--from %s: no commit by that name in %s", from, top)
		}
		// A branch or tag stays a name (ahead and behind count against
		// it); anything else (HEAD~1, a hash) is fixed to its commit now,
		// so it means later what it meant at the start.
		for _, ref := range []string{"refs/heads/" + from, "refs/tags/" + from} {
			if _, err := s.git(ctx, top, "show-ref", "--verify", "--quiet", ref); err == nil {
				return from, nil
			}
		}
		return hash, nil
	}
	head, err := s.git(ctx, top, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return "", fmt.Errorf("%s has no commit yet to start a worktree from; commit first, or give --from", top)
	}
	if b, err := s.git(ctx, top, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil && b != "" {
		return b, nil
	}
	return head, nil
}

// add makes the worktree and its branch; on failure it leaves neither.
// The root is made by lanes, as the user (0755), unless it was there and
// passed WorktreeDirSafe; root and worktree are checked again once git made
// it, so one another user swapped in meanwhile gets no agent.
func (p *WorktreePlan) add(ctx context.Context, s *Service) error {
	if p.madeRoot != "" {
		// ($LANES_WORKTREE_ROOT itself may not be there yet.)
		err := os.MkdirAll(filepath.Dir(p.madeRoot), 0o755)
		if err == nil {
			err = os.Mkdir(p.madeRoot, 0o755)
		}
		if err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("creating worktree root %s: %w", p.madeRoot, err)
		} else if err != nil {
			p.madeRoot = "" // another made it first: it is checked below
		}
	}
	if err := WorktreeDirSafe(filepath.Dir(p.path)); err != nil {
		p.removeRoot()
		return err
	}
	args := []string{"worktree", "add", "--quiet", "-b", p.branch, p.path, p.base}
	if p.existing {
		args = []string{"worktree", "add", "--quiet", p.path, p.branch}
	}
	_, err := s.git(ctx, p.repo, args...)
	if err == nil {
		if err = CheckWorktree(p.path); err != nil {
			// Not removed: what is there now may not be what git made.
			return fmt.Errorf("%w; look at it, then `git worktree remove --force %s` and `git branch -D %s`", err, p.path, p.branch)
		}
		return nil
	}
	// git makes the branch before the checkout, and keeps it when the
	// checkout fails.
	ctx = context.WithoutCancel(ctx)
	if _, berr := s.git(ctx, p.repo, "rev-parse", "--verify", "--quiet", "refs/heads/"+p.branch); berr == nil && !p.existing {
		_, _ = s.git(ctx, p.repo, "branch", "-D", p.branch)
	}
	p.removeRoot()
	return fmt.Errorf("creating worktree %s: %w", p.path, err)
}

// undo removes the worktree and the branch this attempt made, once what
// came after `git worktree add` failed. Both are brand new, so no --force
// is needed; what cannot be removed is said.
func (p *WorktreePlan) undo(ctx context.Context, s *Service) {
	ctx = context.WithoutCancel(ctx)
	if _, err := s.git(ctx, p.repo, "worktree", "remove", p.path); err != nil {
		s.warn("removing the worktree %s made for it: %v; remove it with `git worktree remove %s`", p.path, err, p.path)
		return
	}
	if p.existing { // the user's, from before: kept
		p.removeRoot()
		return
	}
	if _, err := s.git(ctx, p.repo, "branch", "-D", p.branch); err != nil {
		s.warn("removing the branch %s made for it: %v", p.branch, err)
	}
	p.removeRoot()
}

// removeRoot removes the worktree root this attempt created, if empty.
func (p *WorktreePlan) removeRoot() {
	if p.madeRoot != "" {
		_ = os.Remove(p.madeRoot)
	}
}

// Continues reports whether the worktree goes on an existing branch
// (--branch EXISTING), rather than a new one.
func (p *WorktreePlan) Continues() bool { return p.existing }

// facts are the git facts a session in the worktree starts with.
func (p *WorktreePlan) facts() state.GitFacts {
	return state.GitFacts{Worktree: p.path, Base: p.base}
}

// lostShown is how many lines of a dirty worktree's status a refusal lists.
const lostShown = 20

// CheckWorktreeClean refuses `rm --worktree` for a session without a
// worktree lanes made, or whose worktree has changes or untracked files,
// listing them.
func (s *Service) CheckWorktreeClean(ctx context.Context, r *state.Record) error {
	wt := r.Git.Worktree
	if wt == "" {
		return fmt.Errorf("%s has no worktree made by lanes; drop --worktree", r.Name)
	}
	if _, err := os.Stat(wt); err != nil {
		return fmt.Errorf("%s's worktree %s: %w; drop --worktree to remove the record (`git worktree prune` forgets a worktree deleted by hand)", r.Name, wt, err)
	}
	if err := git.ForeignCheckout(wt); err != nil {
		return fmt.Errorf("%s's worktree %s: %w", r.Name, wt, err)
	}
	lines, err := s.worktreeChanges(ctx, r)
	if err != nil || len(lines) == 0 {
		return err
	}
	shown := lines[:min(len(lines), lostShown)]
	more := ""
	if n := len(lines) - len(shown); n > 0 {
		more = fmt.Sprintf("\n  and %d more", n)
	}
	return fmt.Errorf("%s's worktree %s has work that removing it would lose:\n  %s%s\nnothing was removed: commit or discard it first, or `lanes rm %s` keeps the worktree",
		r.Name, wt, strings.Join(shown, "\n  "), more, r.Name)
}

// worktreeChanges are the lines of `git status --porcelain` of r's
// worktree: what removing it would lose.
func (s *Service) worktreeChanges(ctx context.Context, r *state.Record) ([]string, error) {
	// Not into submodules: their config is not checked (a filter there ran,
	// the twelfth re-run), and git refuses to remove a worktree holding one.
	out, err := s.git(ctx, r.Git.Worktree, "status", "--porcelain", "--untracked-files=all", "--ignore-submodules=all")
	if err != nil {
		return nil, fmt.Errorf("reading %s's worktree %s: %w", r.Name, r.Git.Worktree, err)
	}
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// RemoveWorktree removes a session's clean worktree with `git worktree
// remove`, never forced: git refuses what changed since the check. The
// root lanes put it in (REPO.lanes) goes with the last worktree in it.
func (s *Service) RemoveWorktree(ctx context.Context, r *state.Record) error {
	if _, err := s.git(ctx, r.Git.Worktree, "worktree", "remove", r.Git.Worktree); err != nil {
		return fmt.Errorf("removing %s's worktree %s: %w; nothing was removed", r.Name, r.Git.Worktree, err)
	}
	_ = os.Remove(filepath.Dir(r.Git.Worktree)) // only if empty
	return nil
}
