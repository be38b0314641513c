package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/state/statetest"
)

// A worktree root another user could have made or can change gets no
// worktree, and nothing is made (issue 30, item 2: another user made
// REPO.lanes 0777 beside a repository in a world-writable directory, and
// swapped their own worktree in, with their hooks and CLAUDE.md).
func TestNewWorktreeRefusesAForeignRoot(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		make func(root string) error
		says string
	}{
		{"writable", func(root string) error {
			if err := os.Mkdir(root, 0o777); err != nil {
				return err
			}
			return os.Chmod(root, 0o777)
		}, "writable by other users"},
		{"link", func(root string) error { return os.Symlink(t.TempDir(), root) }, "is a link"},
		{"owned", func(root string) error {
			if os.Geteuid() != 0 {
				return os.Mkdir(root, 0o755) // checked as root only: below
			}
			if err := os.Mkdir(root, 0o755); err != nil {
				return err
			}
			return os.Chown(root, 65534, 65534)
		}, "owned by"},
	} {
		if c.name == "owned" && os.Geteuid() != 0 {
			continue // only root can give a directory away; CI runs as root
		}
		e := gitEnv(t)
		repo := tempRepo(t, 1)
		if err := c.make(repo + ".lanes"); err != nil {
			t.Fatal(err)
		}
		before := viewGit(t, repo)
		_, errs, code := e.run("new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "600")
		if code == exitOK || !strings.Contains(errs, c.says) {
			t.Errorf("%s root: exit %d %q, want a refusal saying %q", c.name, code, errs, c.says)
		}
		e.nothingMade("wtx", repo, before)
	}
}

// Restore starts no agent in a worktree swapped since (a link elsewhere,
// or one others can write): it says why and leaves the session ended.
func TestRestoreRechecksTheWorktree(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "600")
	wt := filepath.Join(filepath.Dir(repo), "proj.lanes", "wtx")
	e.must("kill", "wtx")
	if err := os.Chmod(wt, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("restore", "wtx"); code == exitOK || !strings.Contains(errs, "not starting its agent") || !strings.Contains(errs, "writable by other users") {
		t.Errorf("restore into a worktree others can write: exit %d %q", code, errs)
	}
	if err := os.Chmod(wt, 0o700); err != nil {
		t.Fatal(err)
	}
	// Its repository's config anyone may write (the twelfth re-run).
	config := filepath.Join(repo, ".git", "config")
	if err := os.Chmod(config, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("restore", "wtx"); code == exitOK || !strings.Contains(errs, "another can change") {
		t.Errorf("restore into a worktree of a repository others can change: exit %d %q", code, errs)
	}
	if out, _, _ := e.run("doctor"); !strings.Contains(out, "session wtx's worktree") {
		t.Errorf("doctor does not name it:\n%s", out)
	}
	if err := os.Chmod(config, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(wt, wt+".theirs"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(wt+".theirs", wt); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("restore", "wtx"); code == exitOK || !strings.Contains(errs, "is a link") {
		t.Errorf("restore into a worktree swapped for a link: exit %d %q", code, errs)
	}
	if s := e.ls()["wtx"]; !s.IsTerminated {
		t.Errorf("after the refusals: %+v", s)
	}
}

// doctor lists a worktree under lanes' root that no record owns, with the
// commands that remove it and its branch; a session's own is not listed
// (issue 30, item 6).
func TestDoctorListsWorktreesNoRecordOwns(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "a", "--worktree", "--dir", repo, "--", "sleep", "600")
	e.must("new", "b", "--worktree", "--dir", repo, "--", "sleep", "600")
	e.must("kill", "b")
	e.must("rm", "b") // the record goes, the worktree stays
	out, _, _ := e.run("doctor")
	b := filepath.Join(filepath.Dir(repo), "proj.lanes", "b")
	if !strings.Contains(out, "worktree "+b+" (branch lanes/b) under lanes' root has no session") ||
		!strings.Contains(out, "git -C "+repo+" worktree remove "+b) || !strings.Contains(out, "branch -D lanes/b") {
		t.Errorf("doctor did not list b's worktree with its fix:\n%s", out)
	}
	if strings.Contains(out, "proj.lanes/a (") {
		t.Errorf("doctor listed a's own worktree:\n%s", out)
	}
}

// doctor --repair removes an orphan worktree nothing is checked out in (a
// lanes new --worktree killed mid-checkout), keeps its branch, and leaves
// one with files alone.
func TestDoctorRepairRemovesEmptyOrphanWorktrees(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "a", "--worktree", "--dir", repo, "--", "sleep", "600")
	root := filepath.Join(filepath.Dir(repo), "proj.lanes")
	statetest.Git(t, repo, "worktree", "add", "-q", "-b", "lanes/full", filepath.Join(root, "full"))
	statetest.Git(t, repo, "worktree", "add", "-q", "--no-checkout", "-b", "lanes/empty", filepath.Join(root, "empty"))
	statetest.Git(t, repo, "worktree", "lock", "--reason", "initializing", filepath.Join(root, "empty"))
	out, _, _ := e.run("doctor", "--repair")
	if !strings.Contains(out, "repair: removed the empty worktree "+filepath.Join(root, "empty")) {
		t.Errorf("doctor --repair did not remove the empty worktree:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(root, "empty")); !os.IsNotExist(err) {
		t.Errorf("the empty worktree is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "full", "f0000.txt")); err != nil {
		t.Errorf("a worktree with files was touched: %v", err)
	}
	if b := statetest.Git(t, repo, "branch", "--list", "lanes/empty"); b == "" {
		t.Error("its branch was removed; it is kept")
	}
}

// doctor names a session whose worktree (or a directory above it) others
// may change since it was made: restart and restore will refuse it, and
// the user hears it before that (the eleventh re-run: a repository in a
// 0777 directory holding lanes' worktrees, and doctor said nothing).
func TestDoctorNamesAWorktreeOthersMayChange(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "600")
	if out, _, _ := e.run("doctor"); strings.Contains(out, "wtx's worktree") {
		t.Fatalf("doctor flags a safe worktree:\n%s", out)
	}
	parent := filepath.Dir(repo)
	if err := os.Chmod(parent, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(parent, 0o700) })
	out, _, code := e.run("doctor")
	if code == exitOK || !strings.Contains(out, "session wtx's worktree") || !strings.Contains(out, "other users may change") {
		t.Errorf("doctor with the worktree's repository in a 0777 directory: exit %d\n%s", code, out)
	}
}

// doctor reads the .git of each directory under lanes' worktree roots as
// lanes reads every git file another user may have planted: a FIFO does
// not block it, /dev/zero is not read (the twelfth re-run: doctor hung,
// deaf to SIGTERM, or grew to 3.6 GB).
func TestDoctorReadsPlantedGitFilesSafely(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "600")
	root := filepath.Join(filepath.Dir(repo), "proj.lanes")
	for _, d := range []string{"fifo", "zero"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo", ".git"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(root, "zero", ".git")); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() { out, _, _ := e.run("doctor"); done <- out }()
	select {
	case out := <-done:
		if strings.Contains(out, "fifo") || strings.Contains(out, "zero") {
			t.Errorf("doctor took a planted .git for a worktree:\n%s", out)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("doctor still reading a planted .git after 30 s")
	}
}

// doctor names a plain session whose checkout another user can change:
// lanes runs no git there, but its agent does (the thirteenth re-run).
func TestDoctorNamesASharedCheckout(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "plain", "--dir", repo, "--", "sleep", "600")
	if out, _, _ := e.run("doctor"); strings.Contains(out, "plain's directory") {
		t.Fatalf("doctor flags a checkout of the user's own:\n%s", out)
	}
	if err := os.Chmod(filepath.Join(repo, ".git", "config"), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, _, code := e.run("doctor"); code == exitOK || !strings.Contains(out, "session plain's directory") {
		t.Errorf("doctor with the session's repository config 0666: exit %d\n%s", code, out)
	}
}
