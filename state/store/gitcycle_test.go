package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/git"
	"lanes/state/statetest"
)

// privateGit is the poller's git with a private, empty configuration.
func privateGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	return cmd.Output()
}

// A board's cycles read ahead, behind and changed beside them, with real
// git: a session in a worktree made from main is ahead 1 after a commit,
// changed 2 after a modified and an untracked file; a session in a checkout
// with no base gets changed only; one in no checkout is never read.
func TestCycleReadsAheadAndChanged(t *testing.T) {
	c, f, clk := newCollector(t)
	c.Git = &git.Poller{Run: privateGit}
	dir := statetest.Repo(t)
	wt := filepath.Join(filepath.Dir(dir), "wt")
	statetest.Git(t, dir, "worktree", "add", "-q", "-b", "lanes/a", wt)
	a, b, plain := statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)
	a.ID, a.Dir, a.Git.Base = "aaaa0001", wt, "main"
	b.ID, b.Dir = "aaaa0002", dir
	plain.ID, plain.Dir = "aaaa0003", t.TempDir()
	put(t, c.Store, a, b, plain)
	f.obs = []state.Observation{alive(a.ID), alive(b.ID), alive(plain.ID)}
	poll := func() map[string]state.GitFacts {
		t.Helper()
		clk.advance(git.QuietEvery) // the sessions are idle
		cycle(t, c)                 // starts the reads
		c.Git.Wait()
		got := map[string]state.GitFacts{}
		for _, r := range cycle(t, c).Records { // applies them
			got[r.ID] = r.Git
		}
		return got
	}
	got := poll()
	if g := got[a.ID]; g.ReadAt.IsZero() || g.Ahead != 0 || g.Changed != 0 {
		t.Fatalf("a fresh worktree: %+v, want read, 0 ahead, 0 changed", g)
	}
	if g := got[plain.ID]; !g.ReadAt.IsZero() {
		t.Fatalf("a directory in no checkout was read: %+v", g)
	}
	if err := os.WriteFile(filepath.Join(wt, "new.go"), []byte("package x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	statetest.Git(t, wt, "add", "new.go")
	statetest.Git(t, wt, "commit", "-q", "-m", "work")
	if g := poll()[a.ID]; g.Ahead != 1 || g.Behind != 0 || g.Changed != 0 {
		t.Fatalf("after a commit in the session's dir: %+v, want ahead 1", g)
	}
	for _, d := range []string{wt, dir} {
		if err := os.WriteFile(filepath.Join(d, "README"), []byte("changed\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "notes.txt"), []byte("new\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got = poll()
	if g := got[a.ID]; g.Ahead != 1 || g.Changed != 2 {
		t.Fatalf("a modified and an untracked file: %+v, want ahead 1, changed 2", g)
	}
	if g := got[b.ID]; g.Ahead != -1 || g.Behind != -1 || g.Changed != 2 || g.ReadAt.IsZero() {
		t.Fatalf("no base: %+v, want changed 2, ahead and behind not countable (-1)", g)
	}
	if g := get(t, c.Store, a.ID).Git; g.Ahead != 1 || g.Changed != 2 {
		t.Fatalf("stored: %+v", g)
	}
}

// Reads apply only to records still there and live, and store a record
// only when a count changed (ReadAt then says when).
func TestSetGitAppliesOnlyChanges(t *testing.T) {
	live, ended := statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)
	live.ID, ended.ID = "live0001", "ended001"
	ended.Runtime.Terminated = true
	c := &cycleTx{records: []*state.Record{live, ended}, byID: map[string]*state.Record{live.ID: live, ended.ID: ended}, dirty: map[string]bool{}}
	at := statetest.T0.Add(time.Minute)
	live.Dir, live.Branch, ended.Dir, ended.Branch = "/repo/a", "main", "/repo/b", "main"
	c.setGit(map[git.Key]git.Read{git.KeyOf(live): {At: at, Ahead: 2, Changed: 1, Counted: true}, git.KeyOf(ended): {At: at, Changed: 5}, {Dir: "/gone"}: {At: at}})
	if !c.dirty[live.ID] || c.dirty[ended.ID] || len(c.dirty) != 1 || live.Git.Ahead != 2 || !live.Git.ReadAt.Equal(at) {
		t.Fatalf("first read: dirty %v, %+v", c.dirty, live.Git)
	}
	c.dirty = map[string]bool{}
	c.setGit(map[git.Key]git.Read{git.KeyOf(live): {At: at.Add(git.Every), Ahead: 2, Changed: 1, Counted: true}})
	if len(c.dirty) != 0 || !live.Git.ReadAt.Equal(at) {
		t.Fatalf("the same counts again: dirty %v, %+v", c.dirty, live.Git)
	}
	c.setGit(map[git.Key]git.Read{git.KeyOf(live): {At: at.Add(2 * git.Every), Changed: 3}})
	if !c.dirty[live.ID] || live.Git.Ahead != -1 || live.Git.Behind != -1 || live.Git.Changed != 3 {
		t.Fatalf("no base git can track: ahead and behind unknown (-1), changed 3: %+v", live.Git)
	}
}

// A cycle sees a branch switched inside the session within one cycle, and
// a directory that became a repository after lanes first looked (after
// git.HeadRetry).
func TestCycleSeesTheLiveBranch(t *testing.T) {
	dir := statetest.Repo(t)
	plain := filepath.Join(t.TempDir(), "later")
	if err := os.Mkdir(plain, 0o700); err != nil {
		t.Fatal(err)
	}
	var h git.Heads
	now := statetest.T0
	recs := []*state.Record{statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)}
	recs[0].ID, recs[0].Dir, recs[0].Branch = "aaaa0001", dir, "main"
	recs[1].ID, recs[1].Dir = "aaaa0002", plain
	cycle := func() map[string]string {
		c := &cycleTx{records: recs, dirty: map[string]bool{}}
		c.setBranches(h.Branches(recs, now))
		return map[string]string{recs[0].ID: recs[0].Branch, recs[1].ID: recs[1].Branch}
	}
	cycle()
	statetest.Git(t, dir, "checkout", "-q", "-b", "fix/typo")
	now = now.Add(time.Second)
	if got := cycle(); got["aaaa0001"] != "fix/typo" || got["aaaa0002"] != "" {
		t.Fatalf("after checkout -b: %v", got)
	}
	statetest.Git(t, plain, "init", "-q")
	now = now.Add(time.Second)
	if got := cycle(); got["aaaa0002"] != "" {
		t.Fatalf("a repo just made is looked for again only after %v: %v", git.HeadRetry, got)
	}
	now = now.Add(git.HeadRetry)
	if got := cycle(); got["aaaa0002"] != "main" {
		t.Fatalf("a directory that became a repository: %v, want main", got)
	}
}

// BenchmarkBranches100: what the live branch adds to a cycle at 100
// sessions in worktrees (budget: ≤ 1 ms).
func BenchmarkBranches100(b *testing.B) {
	dir := statetest.Repo(b)
	var recs []*state.Record
	for i := range 100 {
		wt := filepath.Join(filepath.Dir(dir), "wt", fmt.Sprint("s", i))
		statetest.Git(b, dir, "worktree", "add", "-q", "-b", fmt.Sprint("lanes/s", i), wt)
		r := statetest.Rec(state.ActivityIdle)
		r.ID, r.Dir = state.NewID(), wt
		recs = append(recs, r)
	}
	var h git.Heads
	h.Branches(recs, statetest.T0) // the first cycle finds the HEAD files
	c := &cycleTx{records: recs, dirty: map[string]bool{}}
	for b.Loop() {
		c.setBranches(h.Branches(recs, statetest.T0))
	}
}

// BenchmarkBranchesOneCheckout: 1,000 sessions started in one repository
// (no worktrees), as scripts/bench's board rows run them.
func BenchmarkBranchesOneCheckout(b *testing.B) {
	dir := statetest.Repo(b)
	var recs []*state.Record
	for range 1000 {
		r := statetest.Rec(state.ActivityIdle)
		r.ID, r.Dir = state.NewID(), dir
		recs = append(recs, r)
	}
	var h git.Heads
	h.Branches(recs, statetest.T0)
	c := &cycleTx{records: recs, dirty: map[string]bool{}}
	for b.Loop() {
		c.setBranches(h.Branches(recs, statetest.T0))
	}
}
