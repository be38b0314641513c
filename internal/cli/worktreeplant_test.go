package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/internal/testenv"
	"lanes/state/git"
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
	if errs, code := within(t, e, 20*time.Second, "new", "fifo", "--worktree", "--dir", dir, "--", "sleep", "600"); code == exitOK || !strings.Contains(errs, "HEAD that is no git file") {
		t.Fatalf("exit %d %q, want a refusal saying its HEAD is no git file", code, errs)
	}
}

// within runs lanes with args in e and returns its stderr and exit code,
// failing t if it gives no answer in d (a planted file could hang it).
func within(t *testing.T, e *env, d time.Duration, args ...string) (string, int) {
	t.Helper()
	type result struct {
		errs string
		code int
	}
	done := make(chan result, 1)
	go func() {
		_, errs, code := e.run(args...)
		done <- result{errs, code}
	}()
	select {
	case r := <-done:
		return r.errs, r.code
	case <-time.After(d):
		t.Fatalf("lanes %s gave no answer in %v", strings.Join(args, " "), d)
	}
	return "", 0
}

// The eighth hostile re-run: $LANES_WORKTREE_ROOT, a link of the user's,
// led through a link another user owned, in a directory with the sticky
// bit; lanes checked
// the path as written and as fully resolved, and the other user pointed
// their link elsewhere after the check (the agent started in their
// directory, 2 of 10 tries). The path is walked link by link now, and a
// link of another user's on the way is refused; one of the user's is not.
func TestNewWorktreeRefusesAForeignLinkOnTheWay(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		testenv.Skip(t, "giving a link away takes root (CI runs as root)")
	}
	base := t.TempDir()
	if err := os.Chmod(base, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "theirs")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	// The user's own link, which leads through theirs.
	mine := filepath.Join(base, "mine")
	if err := os.Symlink(link, mine); err != nil {
		t.Fatal(err)
	}
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.vars["LANES_WORKTREE_ROOT"] = filepath.Join(mine, "wt")
	before := viewGit(t, repo)
	_, errs, code := e.run("new", "hop", "--worktree", "--dir", repo, "--", "sleep", "600")
	if code == exitOK || !strings.Contains(errs, "a link of nobody") {
		t.Fatalf("through another user's link: exit %d %q, want a refusal naming it", code, errs)
	}
	e.nothingMade("hop", repo, before)
	if err := os.Lchown(link, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("new", "hop", "--worktree", "--dir", repo, "--", "sleep", "600"); code != exitOK {
		t.Fatalf("through a link of the user's own: exit %d %q", code, errs)
	}
	e.run("kill", "hop")
}

// The eighth hostile re-run: no .git at all, but a directory above that
// git takes for a bare repository (HEAD a FIFO, objects/, refs/), planted
// in a sticky world-writable parent: lanes new --worktree hung until git's
// 2-minute stop. And a checkout every user may write (git init
// --shared=0777) ran another user's core.fsmonitor. Both are refused at
// once, no git run.
func TestNewWorktreeRefusesAPlantedBareRepository(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	parent := t.TempDir()
	for _, d := range []string{"objects", "refs"} {
		if err := os.Mkdir(filepath.Join(parent, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(parent, "HEAD"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "w")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if errs, _ := within(t, e, 20*time.Second, "new", "bare", "--worktree", "--dir", dir, "--", "sleep", "600"); !strings.Contains(errs, "HEAD that is no git file") {
		t.Errorf("a planted bare repository: %q, want a refusal", errs)
	}

	repo := tempRepo(t, 1)
	if err := os.Chmod(filepath.Join(repo, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("new", "shared", "--worktree", "--dir", repo, "--", "sleep", "600"); code == exitOK || !strings.Contains(errs, "may be written by other users") {
		t.Errorf("a checkout every user may write: exit %d %q, want a refusal", code, errs)
	}
}

// The ninth re-run: another user in a repository's group (its .git
// group-writable), or anyone (its config 0666), added a core.fsmonitor
// that git ran as root for lanes new --worktree, and for the board's git
// reads in a plain session. Refused; a group that holds the user alone (a
// user private group, the default on many systems) is no other user.
func TestGitRunsNowhereAnotherMayChange(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		testenv.Skip(t, "giving a repository's group away takes root (CI runs as root)")
	}
	e := gitEnv(t)
	for _, c := range foreignConfigs {
		repo := tempRepo(t, 1)
		if err := c.prepare(filepath.Join(repo, ".git")); err != nil {
			t.Fatal(err)
		}
		errs, code := within(t, e, 20*time.Second, "new", "g"+strconv.Itoa(len(c.name)), "--worktree", "--dir", repo, "--", "sleep", "600")
		if refused := code != exitOK; refused != c.refused || refused && !strings.Contains(errs, "another can change") {
			t.Errorf("%s: exit %d %q, want refused %v", c.name, code, errs, c.refused)
		}
		if c.refused {
			if err := git.ForeignCheckout(repo); err == nil {
				t.Errorf("%s: the board's git reads would run there", c.name)
			}
		}
	}
}

// The tenth re-run: an ACL gave another user write on .git/config (its
// mode 0664, group root alone); a hooks dir they may write ran their
// post-checkout in git worktree add; a linked worktree's main repository's
// config (0666) ran their fsmonitor for the board's reads there; and
// lanes rm --worktree ran git with no check at all. All refused.
func TestGitRunsNowhereAnotherMayChangeMore(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		testenv.Skip(t, "ACLs and giving files away take root (CI runs as root)")
	}
	e := gitEnv(t)
	acl := tempRepo(t, 1)
	if out, err := exec.Command("setfacl", "-m", "u:65534:rw", filepath.Join(acl, ".git", "config")).CombinedOutput(); err != nil {
		t.Fatalf("setfacl (CI installs acl): %v %s", err, out)
	}
	hooks := tempRepo(t, 1)
	if err := os.Chmod(filepath.Join(hooks, ".git", "hooks"), 0o777); err != nil {
		t.Fatal(err)
	}
	for name, repo := range map[string]string{"ACL on its config": acl, "hooks others may write": hooks} {
		if errs, code := within(t, e, 20*time.Second, "new", "m"+strconv.Itoa(len(name)), "--worktree", "--dir", repo, "--", "sleep", "600"); code == exitOK || !strings.Contains(errs, "another can change") {
			t.Errorf("%s: exit %d %q, want a refusal", name, code, errs)
		}
	}
	main := tempRepo(t, 1)
	e.must("new", "lw", "--worktree", "--dir", main, "--", "sleep", "600")
	wt := e.record("lw").Git.Worktree
	e.must("kill", "lw")
	if err := os.Chmod(filepath.Join(main, ".git", "config"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := git.ForeignCheckout(wt); err == nil {
		t.Error("a linked worktree of a repository whose config anyone may write: the board's git reads would run")
	}
	if _, errs, code := e.run("rm", "lw", "--worktree"); code == exitOK || !strings.Contains(errs, "another can change") {
		t.Errorf("rm --worktree there: exit %d %q, want a refusal", code, errs)
	}
}

// includes appends lines to git's config, which include a file of the
// given mode beside the repository (../shared.gitconfig from .git).
func includes(git, lines string, mode os.FileMode) error {
	inc := filepath.Join(filepath.Dir(git), "shared.gitconfig")
	if err := os.WriteFile(inc, []byte("[filter \"x\"]\n\tclean = cat\n"), mode); err != nil {
		return err
	}
	if err := os.Chmod(inc, mode); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(git, "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(lines)
	return errors.Join(err, f.Close())
}

// foreignConfigs are the repositories TestGitRunsNowhereAnotherMayChange
// makes: each prepare changes a fresh repository's .git, and refused says
// whether lanes must refuse to run git there.
var foreignConfigs = []struct {
	name    string
	prepare func(git string) error
	refused bool
}{
	{"config anyone may write", func(git string) error { return os.Chmod(filepath.Join(git, "config"), 0o666) }, true},
	// The twelfth and thirteenth re-runs: filters through an included
	// file, spelt every way git reads one.
	{"an include anyone may write", func(git string) error { return includes(git, "[include]\n\tpath = ../shared.gitconfig\n", 0o666) }, true},
	{"an includeIf anyone may write", func(git string) error {
		return includes(git, "[includeIf \"gitdir:/\"]\n\tpath = ../shared.gitconfig\n", 0o666)
	}, true},
	{"an include on its section's line", func(git string) error { return includes(git, "[include] path = ../shared.gitconfig\n", 0o666) }, true},
	{"an include quoted, commented", func(git string) error {
		return includes(git, "[include]\n\tPath = \"../shared.gitconfig\" ; mine\n", 0o666)
	}, true},
	{"an include over two lines", func(git string) error { return includes(git, "[include]\n\tpath = ../shared.\\\ngitconfig\n", 0o666) }, true},
	{"an include another user could make", func(git string) error {
		shared := filepath.Join(filepath.Dir(git), "shared")
		if err := os.Mkdir(shared, 0o777); err != nil {
			return err
		}
		if err := os.Chmod(shared, 0o1777); err != nil { // sticky: still theirs to make
			return err
		}
		return includes(git, "[include]\n\tpath = ../shared/none.gitconfig\n", 0o600)
	}, true},
	// The fourteenth: a path git resolves at its run, a condition
	// false today, a directory another may swap above the file.
	{"an include of %(prefix)", func(git string) error { return includes(git, "[include]\n\tpath = %(prefix)/etc/x\n", 0o600) }, true},
	{"an include behind a false condition", func(git string) error {
		if err := includes(git, "", 0o666); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(git), "mine.gitconfig"), []byte("[include]\n\tpath = shared.gitconfig\n"), 0o600); err != nil {
			return err
		}
		return includes(git, "[includeIf \"onbranch:never\"]\n\tpath = ../mine.gitconfig\n", 0o666)
	}, true},
	{"an include under a directory another may swap", func(git string) error {
		deep := filepath.Join(filepath.Dir(git), "a", "b")
		if err := os.MkdirAll(deep, 0o700); err != nil {
			return err
		}
		if err := os.Chmod(filepath.Join(filepath.Dir(git), "a"), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(deep, "x.gitconfig"), []byte("[core]\n"), 0o600); err != nil {
			return err
		}
		return includes(git, "[include]\n\tpath = ../a/b/x.gitconfig\n", 0o600)
	}, true},
	// The fifteenth: a way through a link another user's directory holds,
	// and ".." after a link (the directory above where it leads).
	{"an include through a link into a directory another may write", func(git string) error {
		shared := filepath.Join(filepath.Dir(git), "swap")
		if err := os.Mkdir(shared, 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(shared, "x.gitconfig"), []byte("[core]\n\tautocrlf = false\n"), 0o600); err != nil { // read by git: listed
			return err
		}
		if err := os.Chmod(shared, 0o777); err != nil {
			return err
		}
		return errors.Join(os.Symlink(filepath.Join(shared, "x.gitconfig"), filepath.Join(filepath.Dir(git), "lnk.gitconfig")),
			includes(git, "[include]\n\tpath = ../lnk.gitconfig\n", 0o600))
	}, true},
	{"an include of .. after a link", func(git string) error {
		far := filepath.Join(filepath.Dir(git), "far", "deep")
		if err := os.MkdirAll(far, 0o700); err != nil {
			return err
		}
		if err := os.Chmod(filepath.Dir(far), 0o777); err != nil { // far: the real parent of deep
			return err
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(far), "x.gitconfig"), []byte("[core]\n"), 0o600); err != nil {
			return err
		}
		return errors.Join(os.Symlink(far, filepath.Join(filepath.Dir(git), "lnk")),
			includes(git, "[include]\n\tpath = ../lnk/../x.gitconfig\n", 0o600))
	}, true},
	{"an include of the user's alone", func(git string) error { return includes(git, "[include]\n\tpath = ../shared.gitconfig\n", 0o600) }, false},
	{"group with another user in it", func(git string) error {
		if err := os.Chown(git, 0, 65534); err != nil { // nogroup: nobody's
			return err
		}
		return os.Chmod(git, 0o775)
	}, true},
	{"the user's own group", func(git string) error {
		if err := os.Chown(git, 0, 0); err != nil {
			return err
		}
		return os.Chmod(git, 0o775)
	}, false},
}
