package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 30, item 2, the seventh hostile re-run: the repository sat in a
// directory others may write without the sticky bit; another user swapped
// REPO.lanes for their own directory a few milliseconds after `git
// worktree add`, after lanes' check and before tmux started the agent in
// it. A worktree root under such a directory is refused; with the sticky
// bit (as /tmp has) nobody can rename another's entry, and it is made.
func TestNewWorktreeRefusesAParentOthersMayChange(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	shared := filepath.Dir(repo)
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	before := viewGit(t, repo)
	_, errs, code := e.run("new", "wtp", "--worktree", "--dir", repo, "--", "sleep", "600")
	if code == exitOK || !strings.Contains(errs, "no sticky bit") || !strings.Contains(errs, shared) {
		t.Fatalf("parent %s 0777: exit %d %q, want a refusal naming it", shared, code, errs)
	}
	e.nothingMade("wtp", repo, before)

	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("new", "wtp", "--worktree", "--dir", repo, "--", "sleep", "600"); code != exitOK {
		t.Fatalf("parent with the sticky bit: exit %d %q, want the worktree made", code, errs)
	}
	e.run("kill", "wtp")
}

// Issue 30, item 5, the seventh hostile re-run: in a world-writable parent
// another user planted a .git naming a git directory whose HEAD is a
// FIFO; `lanes new --worktree` below it hung for good (git opens HEAD
// before its own ownership check). It now refuses at once, running no git.
func TestNewWorktreeRefusesAPlantedHead(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	parent := t.TempDir()
	gitdir := filepath.Join(parent, "fifo.git")
	if err := os.Mkdir(gitdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(gitdir, "HEAD"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "w")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type result struct {
		errs string
		code int
	}
	done := make(chan result, 1)
	go func() {
		_, errs, code := e.run("new", "fifo", "--worktree", "--dir", dir, "--", "sleep", "600")
		done <- result{errs, code}
	}()
	select {
	case r := <-done:
		if r.code == exitOK || !strings.Contains(r.errs, "HEAD that is no git file") {
			t.Fatalf("exit %d %q, want a refusal saying its HEAD is no git file", r.code, r.errs)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("lanes new --worktree over a FIFO HEAD gave no answer in 20 s")
	}
}
