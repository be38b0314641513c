package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"lanes/state"
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
	c.Git = &GitPoller{Run: privateGit}
	dir := repo(t)
	wt := filepath.Join(filepath.Dir(dir), "wt")
	git(t, dir, "worktree", "add", "-q", "-b", "lanes/a", wt)
	a, b, plain := statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)
	a.ID, a.Dir, a.Git.Base = "aaaa0001", wt, "main"
	b.ID, b.Dir = "aaaa0002", dir
	plain.ID, plain.Dir = "aaaa0003", t.TempDir()
	put(t, c.Store, a, b, plain)
	f.obs = []state.Observation{alive(a.ID), alive(b.ID), alive(plain.ID)}
	poll := func() map[string]state.GitFacts {
		t.Helper()
		clk.advance(gitQuietEvery) // the sessions are idle
		cycle(t, c)                // starts the reads
		c.Git.wait()
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
	git(t, wt, "add", "new.go")
	git(t, wt, "commit", "-q", "-m", "work")
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

// countingGit stands for git: it counts the processes per session and the
// most at once, each held until the test releases it.
type countingGit struct {
	mu        sync.Mutex
	now, most int
	per       map[string]int
	release   chan struct{}
	out       string
}

func (g *countingGit) run(_ context.Context, dir string, _ ...string) ([]byte, error) {
	g.mu.Lock()
	g.now++
	g.most = max(g.most, g.now)
	g.per[dir]++
	g.mu.Unlock()
	<-g.release
	g.mu.Lock()
	g.now--
	g.mu.Unlock()
	return []byte(g.out), nil
}

// Twelve sessions over two minutes of one-second cycles: a checkout with
// a working session is read every 10 s, one whose sessions sit still once
// a minute, one whose session just finished a turn again within 10 s; two
// sessions in one directory share each read; never more than four git
// processes at once, and a checkout whose read is in flight is not read
// again.
func TestGitPollerCadenceAndBudget(t *testing.T) {
	g := &countingGit{per: map[string]int{}, release: make(chan struct{}), out: "# branch.ab +3 -1\n? x\n"}
	p := &GitPoller{Run: g.run}
	var recs []*state.Record
	for i := range 12 {
		act := state.ActivityIdle
		if i < 5 {
			act = state.ActivityActive
		}
		r := statetest.Rec(act)
		r.ID, r.Dir, r.Branch = fmt.Sprint("id", i), fmt.Sprint("/repo/s", i), "main"
		recs = append(recs, r)
	}
	recs[11].Dir = recs[10].Dir // two sessions, one checkout
	now := statetest.T0
	clk := func() time.Time { return now }
	total := 0
	for s := range 120 {
		if s == 30 { // s9 ends a turn
			recs[9].Activity.Since = now
		}
		jobs := p.due(recs, now)
		p.start(context.Background(), jobs, clk)
		// Nothing is released yet: the budget is full or these are all.
		if more := p.due(recs, now); len(jobs) == gitAtOnce && len(more) != 0 {
			t.Fatalf("%v: %d more reads chosen while %d are in flight", now.Sub(statetest.T0), len(more), gitAtOnce)
		}
		for range jobs {
			g.release <- struct{}{}
		}
		p.wait()
		total += len(jobs)
		now = now.Add(time.Second)
	}
	if g.most > gitAtOnce {
		t.Errorf("%d git processes at once, budget %d", g.most, gitAtOnce)
	}
	for i, r := range recs[:11] {
		want := 2 // at 0 s and 60 s
		switch {
		case i < 5:
			want = 12
		case i == 9:
			want = 3 // and once after its turn ended
		}
		if n := g.per[r.Dir]; n != want {
			t.Errorf("%s (%s) read %d times in two minutes, want %d", r.Dir, r.Activity.State, n, want)
		}
	}
	t.Logf("5 working and 7 idle sessions in 11 checkouts: %d git processes in two minutes, at most %d at once", total, g.most)
	if len(p.take()) != 11 {
		t.Errorf("finished reads not all handed over")
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
	c.setGit(map[gitKey]gitRead{gitKeyOf(live): {at: at, ahead: 2, changed: 1, ab: true}, gitKeyOf(ended): {at: at, changed: 5}, {dir: "/gone"}: {at: at}})
	if !c.dirty[live.ID] || c.dirty[ended.ID] || len(c.dirty) != 1 || live.Git.Ahead != 2 || !live.Git.ReadAt.Equal(at) {
		t.Fatalf("first read: dirty %v, %+v", c.dirty, live.Git)
	}
	c.dirty = map[string]bool{}
	c.setGit(map[gitKey]gitRead{gitKeyOf(live): {at: at.Add(gitEvery), ahead: 2, changed: 1, ab: true}})
	if len(c.dirty) != 0 || !live.Git.ReadAt.Equal(at) {
		t.Fatalf("the same counts again: dirty %v, %+v", c.dirty, live.Git)
	}
	c.setGit(map[gitKey]gitRead{gitKeyOf(live): {at: at.Add(2 * gitEvery), changed: 3}})
	if !c.dirty[live.ID] || live.Git.Ahead != -1 || live.Git.Behind != -1 || live.Git.Changed != 3 {
		t.Fatalf("no base git can track: ahead and behind unknown (-1), changed 3: %+v", live.Git)
	}
}
