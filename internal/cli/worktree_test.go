package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/session"
	"lanes/state/statetest"
)

// tempRepo makes a repository "proj" with files files and one commit.
func tempRepo(t testing.TB, files int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	statetest.Git(t, dir, "init", "-q")
	for i := range max(files, 1) {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), []byte("hi\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	statetest.Git(t, dir, "add", ".")
	statetest.Git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// gitEnv is a cli test env whose git (the one lanes runs) has a private
// configuration.
func gitEnv(t *testing.T) *env {
	e := newEnv(t)
	e.vars["GIT_CONFIG_GLOBAL"] = "/dev/null"
	e.vars["GIT_CONFIG_NOSYSTEM"] = "1"
	return e
}

// gitView is what a failed `lanes new --worktree` must leave as it was.
type gitView struct{ worktrees, branches string }

func viewGit(t *testing.T, repo string) gitView {
	return gitView{statetest.Git(t, repo, "worktree", "list", "--porcelain"), statetest.Git(t, repo, "branch", "--list")}
}

// nothingMade checks a failed new of name left no tmux session, no record,
// and git as it was.
func (e *env) nothingMade(name, repo string, before gitView) {
	e.t.Helper()
	if after := viewGit(e.t, repo); after != before {
		e.t.Errorf("git changed:\nbefore %+v\nafter  %+v", before, after)
	}
	if _, err := e.tc.Run(context.Background(), "has-session", "-t", "=lanes-"+name); err == nil {
		e.t.Errorf("tmux session lanes-%s left behind", name)
	}
	if _, ok := e.ls()[name]; ok {
		e.t.Errorf("record %s left behind", name)
	}
}

// new --worktree makes the worktree beside the repository on lanes/NAME
// from the branch the repo is on, starts the session there, and records
// it; kill keeps worktree and branch; rm --worktree removes a clean one.
func TestNewWorktree(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1000)
	start := time.Now()
	e.must("new", "api", "--worktree", "--dir", repo, "--", "sleep", "600")
	t.Logf("new --worktree in a repo of 1,000 files: %v", time.Since(start))
	want := filepath.Join(filepath.Dir(repo), "proj.lanes", "api")
	s := e.ls()["api"]
	if s.Dir != want || s.Branch != "lanes/api" {
		t.Fatalf("dir %q branch %q, want %q lanes/api", s.Dir, s.Branch, want)
	}
	if s.Worktree == nil || *s.Worktree != want || s.Base == nil || *s.Base != "main" {
		t.Errorf("ls --json worktree %v base %v, want %s main", s.Worktree, s.Base, want)
	}
	if r := e.record("api"); r.Git.Worktree != want || r.Git.Base != "main" {
		t.Errorf("git facts %+v, want worktree %s base main", r.Git, want)
	}
	if dir := e.paneDir("=lanes-api:"); dir != want {
		t.Errorf("pane runs in %q, want %q", dir, want)
	}
	e.must("kill", "api")
	if _, err := os.Stat(filepath.Join(want, "f0999.txt")); err != nil {
		t.Errorf("kill removed the worktree: %v", err)
	}
	if b := statetest.Git(t, repo, "branch", "--list", "lanes/api"); b == "" {
		t.Error("kill removed the branch")
	}
	e.must("rm", "api", "--worktree")
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Errorf("rm --worktree left %s: %v", want, err)
	}
	if b := statetest.Git(t, repo, "branch", "--list", "lanes/api"); b == "" {
		t.Error("rm --worktree removed the branch; it is kept")
	}
	if _, err := os.Stat(filepath.Dir(want)); !os.IsNotExist(err) {
		t.Errorf("rm --worktree of the last worktree left its empty root %s: %v", filepath.Dir(want), err)
	}
}

// --branch with a slash, --from a commit, LANES_WORKTREE_ROOT, and a
// repository on a detached HEAD.
func TestNewWorktreeBranchFromRoot(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	first := statetest.Git(t, repo, "rev-parse", "HEAD")
	statetest.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "second")
	root := filepath.Join(t.TempDir(), "trees")
	e.vars[session.EnvWorktreeRoot] = root
	e.must("new", "ui", "--worktree", "--branch", "feat/x", "--from", first, "--dir", repo, "--", "sleep", "600")
	want := filepath.Join(root, "proj", "ui")
	if s := e.ls()["ui"]; s.Dir != want || s.Branch != "feat/x" {
		t.Fatalf("dir %q branch %q, want %q feat/x", s.Dir, s.Branch, want)
	}
	if r := e.record("ui"); r.Git.Base != first {
		t.Errorf("base %q, want %s", r.Git.Base, first)
	}
	if got := statetest.Git(t, want, "rev-parse", "HEAD"); got != first {
		t.Errorf("worktree at %s, want %s", got, first)
	}
	// A relative name is fixed to its commit at the start: later it would
	// name another one.
	e.must("new", "rel", "--worktree", "--from", "HEAD~1", "--dir", repo, "--", "sleep", "600")
	if r := e.record("rel"); r.Git.Base != first {
		t.Errorf("--from HEAD~1: base %q, want its commit %s", r.Git.Base, first)
	}
	// A detached HEAD: the base is its commit.
	statetest.Git(t, repo, "checkout", "-q", "--detach")
	e.must("new", "det", "--worktree", "--dir", repo, "--", "sleep", "600")
	if r, head := e.record("det"), statetest.Git(t, repo, "rev-parse", "HEAD"); r.Git.Base != head || r.Branch != "lanes/det" {
		t.Errorf("detached: base %q branch %q, want %s lanes/det", r.Git.Base, r.Branch, head)
	}
}

// Every refusal says why and leaves nothing: no tmux session, no record,
// no worktree, no branch.
func TestNewWorktreeRefusals(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	statetest.Git(t, repo, "branch", "lanes/taken")
	linked := filepath.Join(t.TempDir(), "linked")
	statetest.Git(t, repo, "worktree", "add", "-q", "-b", "other", linked)
	plain := t.TempDir()
	if err := os.MkdirAll(filepath.Join(filepath.Dir(repo), "proj.lanes", "busy"), 0o700); err != nil {
		t.Fatal(err)
	}
	noGit := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		path string // PATH, when not the test's
		want string
	}{
		{"a", []string{"--dir", plain}, "", "--worktree needs a git repository: " + plain + " is not in one"},
		{"b", []string{"--dir", repo, "--branch", "other"}, "", "branch other is checked out at " + linked + " (clean), and git gives a branch one worktree: `lanes new b --dir " + linked + "` starts the agent there"},
		{"taken", []string{"--dir", repo}, "", "branch lanes/taken exists (an earlier session's?): `lanes new taken --worktree --branch lanes/taken` continues on it"},
		{"busy", []string{"--dir", repo}, "", "worktree path " + filepath.Join(filepath.Dir(repo), "proj.lanes", "busy") + " is taken"},
		{"c", []string{"--dir", linked}, "", "refuses a worktree of a worktree: run it in the main checkout"},
		{"d", []string{"--dir", repo}, noGit, "--worktree needs git, and there is none on PATH"},
		{"e", []string{"--dir", repo, "--from", "nosuch"}, "", "--from nosuch: no commit by that name"},
		{"f", []string{"--dir", repo, "--branch", "bad..name"}, "", "not a valid branch name"},
	} {
		before := viewGit(t, repo)
		if c.path != "" {
			e.vars["PATH"] = c.path
		}
		_, errs, code := e.run(append(append([]string{"new", c.name, "--worktree"}, c.args...), "--", "sleep", "600")...)
		e.vars["PATH"] = os.Getenv("PATH")
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want an error with %q", c.name, code, errs, c.want)
		}
		e.nothingMade(c.name, repo, before)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(repo), "proj.lanes", "a")); !os.IsNotExist(err) {
		t.Error("a worktree dir was left")
	}
}

// When what comes after `git worktree add` fails — the agent's command is
// not found, tmux has the name, the store has a live session of that name
// — the worktree and the branch this attempt made are removed again.
func TestNewWorktreeUndo(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	lanesRoot := filepath.Join(filepath.Dir(repo), "proj.lanes")
	before := viewGit(t, repo)
	_, errs, code := e.run("new", "nocmd", "--worktree", "--dir", repo, "--", "/nonexistent/agent")
	if code == 0 || !strings.Contains(errs, "cannot run /nonexistent/agent") {
		t.Errorf("missing command: exit %d, %q", code, errs)
	}
	e.nothingMade("nocmd", repo, before)

	if _, err := e.tc.Run(context.Background(), "new-session", "-d", "-s", "lanes-dup", "sleep", "600"); err != nil {
		t.Fatal(err)
	}
	_, errs, code = e.run("new", "dup", "--worktree", "--dir", repo, "--", "sleep", "600")
	if code == 0 || !strings.Contains(errs, "tmux already has a session named lanes-dup") {
		t.Errorf("tmux name taken: exit %d, %q", code, errs)
	}
	if after := viewGit(t, repo); after != before {
		t.Errorf("tmux failure left git changed:\nbefore %+v\nafter  %+v", before, after)
	}
	if _, ok := e.ls()["dup"]; ok {
		t.Error("record dup left behind")
	}
	if _, err := os.Stat(lanesRoot); !os.IsNotExist(err) {
		t.Errorf("worktree root %s left behind: %v", lanesRoot, err)
	}

	e.must("new", "live", "--dir", repo, "--", "sleep", "600")
	before = viewGit(t, repo)
	_, errs, code = e.run("new", "live", "--worktree", "--dir", repo, "--", "sleep", "600")
	if code == 0 || !strings.Contains(errs, "a live session named") {
		t.Errorf("live name: exit %d, %q", code, errs)
	}
	if after := viewGit(t, repo); after != before {
		t.Errorf("name taken left git changed:\nbefore %+v\nafter  %+v", before, after)
	}
}

// rm --worktree refuses a dirty worktree, listing what would be lost, and
// keeps the record; rm without it leaves the worktree and says where.
func TestRmWorktreeDirty(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "w", "--worktree", "--dir", repo, "--", "sleep", "600")
	wt := e.record("w").Git.Worktree
	if err := os.WriteFile(filepath.Join(wt, "f0000.txt"), []byte("changed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		if err := os.WriteFile(filepath.Join(wt, fmt.Sprintf("new%02d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e.must("kill", "w")
	_, errs, code := e.run("rm", "w", "--worktree")
	for _, want := range []string{" M f0000.txt", "?? new00", "and 6 more", "nothing was removed"} {
		if !strings.Contains(errs, want) {
			t.Errorf("rm --worktree of a dirty worktree: stderr lacks %q:\n%s", want, errs)
		}
	}
	if code == 0 {
		t.Error("rm --worktree of a dirty worktree exited 0")
	}
	if _, ok := e.ls()["w"]; !ok {
		t.Error("the refused rm removed the record")
	}
	if _, err := os.Stat(filepath.Join(wt, "new24")); err != nil {
		t.Errorf("the refused rm lost a file: %v", err)
	}
	out := e.must("rm", "w")
	if !strings.Contains(out, "its worktree stays at "+wt) {
		t.Errorf("rm without --worktree: %q, want it to say where the worktree stays", out)
	}
	if _, err := os.Stat(wt); err != nil {
		t.Errorf("rm without --worktree removed the worktree: %v", err)
	}
}

// The board's n dialog asks for a worktree through the same code as the
// command line.
func TestBoardCreateWorktree(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	a := e.app()
	r, err := a.svc().Create(context.Background(), "web", "custom", repo, []string{"sleep", "600"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(repo), "proj.lanes", "web"); r.Dir != want || r.Git.Worktree != want || r.Branch != "lanes/web" {
		t.Errorf("dir %q worktree %q branch %q, want %s on lanes/web", r.Dir, r.Git.Worktree, r.Branch, want)
	}
}

// --dir a subdirectory of the repository (a monorepo's package) starts the
// agent in the same subdirectory of the worktree; a relative
// $LANES_WORKTREE_ROOT is refused before anything is made.
func TestNewWorktreeSubdirAndRelativeRoot(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	pkg := filepath.Join(repo, "pkg", "api")
	if err := os.MkdirAll(pkg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte("package main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	statetest.Git(t, repo, "add", ".")
	statetest.Git(t, repo, "commit", "-q", "-m", "a package")
	e.must("new", "api", "--worktree", "--dir", pkg, "--", "sleep", "600")
	if want := filepath.Join(filepath.Dir(repo), "proj.lanes", "api", "pkg", "api"); e.ls()["api"].Dir != want {
		t.Errorf("dir %q, want the package in the worktree %q", e.ls()["api"].Dir, want)
	}
	e.vars[session.EnvWorktreeRoot] = "trees"
	if _, errs, code := e.run("new", "web", "--worktree", "--dir", repo, "--", "sleep", "600"); code == 0 || !strings.Contains(errs, "must be an absolute path") {
		t.Errorf("relative root: exit %d %q", code, errs)
	}
	if out := statetest.Git(t, repo, "branch", "--list", "lanes/web"); out != "" {
		t.Errorf("a refused attempt made branch %q", out)
	}
}

// --branch EXISTING continues on a branch no worktree has: a new worktree
// on it, the branch as it was; a start that fails after it keeps the
// branch (it was the user's) and removes the worktree.
func TestNewWorktreeOnAnExistingBranch(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	statetest.Git(t, repo, "branch", "lanes/wt2")
	tip := strings.TrimSpace(statetest.Git(t, repo, "rev-parse", "lanes/wt2"))
	if _, errs, code := e.run("new", "bad", "--worktree", "--dir", repo, "--branch", "lanes/wt2", "--", "/nonexistent/agent"); code == 0 {
		t.Fatalf("a start that cannot run: exit 0 (%q)", errs)
	}
	if got := strings.TrimSpace(statetest.Git(t, repo, "rev-parse", "lanes/wt2")); got != tip {
		t.Fatalf("the failed start took the branch: %q, want %q", got, tip)
	}
	if out := e.must("new", "wt2", "--worktree", "--dir", repo, "--branch", "lanes/wt2", "--", "sleep", "600"); !strings.Contains(out, "on branch lanes/wt2, as it was") {
		t.Errorf("new on an existing branch said %q, want it to say the branch is as it was", out)
	}
	wt := filepath.Join(filepath.Dir(repo), "proj.lanes", "wt2")
	if got := strings.TrimSpace(statetest.Git(t, wt, "rev-parse", "--abbrev-ref", "HEAD")); got != "lanes/wt2" {
		t.Errorf("the worktree is on %q, want lanes/wt2", got)
	}
	if r := e.record("wt2"); r.Git.Worktree != wt || r.Branch != "lanes/wt2" {
		t.Errorf("record: worktree %q, branch %q", r.Git.Worktree, r.Branch)
	}
}
