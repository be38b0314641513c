package store

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// git runs git in dir with a private, empty configuration (never the
// user's), failing the test on error; it returns the trimmed output.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=lanes", "-c", "user.email=lanes@example.test",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// repo makes a git repository with one commit in a temp dir.
func repo(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(filepath.Join(dir, "sub", "deep"), 0o700); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "README")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// The branch comes from the HEAD file, no git process: a branch, one with
// a slash, a detached HEAD's short hash, from a subdirectory, in a linked
// worktree (its .git is a file), and "" outside any checkout.
func TestGitBranchFromHEAD(t *testing.T) {
	dir := repo(t)
	if b := GitBranch(dir); b != "main" {
		t.Errorf("new repo: %q, want main", b)
	}
	git(t, dir, "checkout", "-q", "-b", "feature/login")
	if b := GitBranch(filepath.Join(dir, "sub", "deep")); b != "feature/login" {
		t.Errorf("from a subdirectory after checkout -b: %q", b)
	}
	wt := filepath.Join(filepath.Dir(dir), "wt")
	git(t, dir, "worktree", "add", "-q", "-b", "lanes/api", wt)
	if b := GitBranch(wt); b != "lanes/api" {
		t.Errorf("worktree: %q, want lanes/api", b)
	}
	hash := git(t, dir, "rev-parse", "HEAD")
	git(t, dir, "checkout", "-q", "--detach")
	if b := GitBranch(dir); b != hash[:7] {
		t.Errorf("detached: %q, want %q", b, hash[:7])
	}
	if b := GitBranch(t.TempDir()); b != "" {
		t.Errorf("no checkout: %q", b)
	}
}

// A cycle sees a branch switched inside the session within one cycle, and
// a directory that became a repository after lanes first looked (after
// headRetry).
func TestCycleSeesTheLiveBranch(t *testing.T) {
	dir := repo(t)
	plain := filepath.Join(t.TempDir(), "later")
	if err := os.Mkdir(plain, 0o700); err != nil {
		t.Fatal(err)
	}
	var h heads
	now := statetest.T0
	recs := []*state.Record{statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)}
	recs[0].ID, recs[0].Dir, recs[0].Branch = "aaaa0001", dir, "main"
	recs[1].ID, recs[1].Dir = "aaaa0002", plain
	cycle := func() map[string]string {
		c := &cycleTx{records: recs, dirty: map[string]bool{}}
		c.setBranches(h.branches(recs, now))
		return map[string]string{recs[0].ID: recs[0].Branch, recs[1].ID: recs[1].Branch}
	}
	cycle()
	git(t, dir, "checkout", "-q", "-b", "fix/typo")
	now = now.Add(time.Second)
	if got := cycle(); got["aaaa0001"] != "fix/typo" || got["aaaa0002"] != "" {
		t.Fatalf("after checkout -b: %v", got)
	}
	git(t, plain, "init", "-q")
	now = now.Add(time.Second)
	if got := cycle(); got["aaaa0002"] != "" {
		t.Fatalf("a repo just made is looked for again only after %v: %v", headRetry, got)
	}
	now = now.Add(headRetry)
	if got := cycle(); got["aaaa0002"] != "main" {
		t.Fatalf("a directory that became a repository: %v, want main", got)
	}
}

// BenchmarkBranches100: what the live branch adds to a cycle at 100
// sessions in worktrees (budget: ≤ 1 ms).
func BenchmarkBranches100(b *testing.B) {
	dir := repo(b)
	var recs []*state.Record
	for i := range 100 {
		wt := filepath.Join(filepath.Dir(dir), "wt", fmt.Sprint("s", i))
		git(b, dir, "worktree", "add", "-q", "-b", fmt.Sprint("lanes/s", i), wt)
		r := statetest.Rec(state.ActivityIdle)
		r.ID, r.Dir = state.NewID(), wt
		recs = append(recs, r)
	}
	var h heads
	h.branches(recs, statetest.T0) // the first cycle finds the HEAD files
	c := &cycleTx{records: recs, dirty: map[string]bool{}}
	for b.Loop() {
		c.setBranches(h.branches(recs, statetest.T0))
	}
}

// BenchmarkBranchesOneCheckout: 1,000 sessions started in one repository
// (no worktrees), as scripts/bench's board rows run them.
func BenchmarkBranchesOneCheckout(b *testing.B) {
	dir := repo(b)
	var recs []*state.Record
	for range 1000 {
		r := statetest.Rec(state.ActivityIdle)
		r.ID, r.Dir = state.NewID(), dir
		recs = append(recs, r)
	}
	var h heads
	h.branches(recs, statetest.T0)
	c := &cycleTx{records: recs, dirty: map[string]bool{}}
	for b.Loop() {
		c.setBranches(h.branches(recs, statetest.T0))
	}
}

// A checkout's files may be another user's: a HEAD that is a FIFO, a
// device or a huge file is read as the fact "HEAD unreadable", which no
// poller follows; a .git that is a FIFO as no checkout; at once and
// without reading either whole (issue 30, item 5: lanes new hung on the
// FIFO, lanes ls grew to 3 GB on /dev/zero).
func TestPlantedGitFilesDoNotHang(t *testing.T) {
	plant := func(t *testing.T, head func(string) error) string {
		dir := t.TempDir()
		git := filepath.Join(dir, ".git")
		if err := os.Mkdir(git, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := head(filepath.Join(git, "HEAD")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	big := strings.Repeat("ref: refs/heads/x\n", 1<<16)
	cases := map[string]func(string) error{
		"FIFO":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"/dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"1 MiB":     func(p string) error { return os.WriteFile(p, []byte(big), 0o600) },
	}
	for name, head := range cases {
		dir := plant(t, head)
		done := make(chan string, 1)
		go func() { done <- GitBranch(dir) }()
		select {
		case b := <-done:
			if r := (&state.Record{Branch: b}); b != state.BranchUnreadable || r.OnBranch() {
				t.Errorf("HEAD a %s: branch %q", name, b)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("HEAD a %s: GitBranch did not return", name)
		}
	}
	// .git itself a FIFO (a worktree's .git is a file naming its gitdir).
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".git"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() { done <- GitBranch(dir) }()
	select {
	case b := <-done:
		if b != "" {
			t.Errorf(".git a FIFO: branch %q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal(".git a FIFO: GitBranch did not return")
	}
}
