package git

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// The branch comes from the HEAD file, no git process: a branch, one with
// a slash, a detached HEAD's short hash, from a subdirectory, in a linked
// worktree (its .git is a file), and "" outside any checkout.
func TestGitBranchFromHEAD(t *testing.T) {
	dir := statetest.Repo(t)
	if b := Branch(dir); b != "main" {
		t.Errorf("new repo: %q, want main", b)
	}
	statetest.Git(t, dir, "checkout", "-q", "-b", "feature/login")
	if b := Branch(filepath.Join(dir, "sub", "deep")); b != "feature/login" {
		t.Errorf("from a subdirectory after checkout -b: %q", b)
	}
	wt := filepath.Join(filepath.Dir(dir), "wt")
	statetest.Git(t, dir, "worktree", "add", "-q", "-b", "lanes/api", wt)
	if b := Branch(wt); b != "lanes/api" {
		t.Errorf("worktree: %q, want lanes/api", b)
	}
	hash := statetest.Git(t, dir, "rev-parse", "HEAD")
	statetest.Git(t, dir, "checkout", "-q", "--detach")
	if b := Branch(dir); b != hash[:7] {
		t.Errorf("detached: %q, want %q", b, hash[:7])
	}
	if b := Branch(t.TempDir()); b != "" {
		t.Errorf("no checkout: %q", b)
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
		go func() { done <- Branch(dir) }()
		select {
		case b := <-done:
			if r := (&state.Record{Branch: b}); b != state.BranchUnreadable || r.OnBranch() {
				t.Errorf("HEAD a %s: branch %q", name, b)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("HEAD a %s: Branch did not return", name)
		}
	}
	// .git itself a FIFO (a worktree's .git is a file naming its gitdir).
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".git"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() { done <- Branch(dir) }()
	select {
	case b := <-done:
		if b != "" {
			t.Errorf(".git a FIFO: branch %q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal(".git a FIFO: Branch did not return")
	}
}
