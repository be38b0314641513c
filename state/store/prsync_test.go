package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"lanes/state"
	"lanes/state/gh"
	"lanes/state/statetest"
)

// ghAnswer replays testdata/gh/prs.json, counting the reads and the most
// in flight at once.
type ghAnswer struct {
	mu         sync.Mutex
	body       []byte
	err        error
	calls, now int
	most       int
	dirs       []string
	hang       bool
}

func (g *ghAnswer) run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	g.mu.Lock()
	g.calls++
	g.now++
	g.most = max(g.most, g.now)
	g.dirs = append(g.dirs, dir)
	hang, body, err := g.hang, g.body, g.err
	g.mu.Unlock()
	defer func() { g.mu.Lock(); g.now--; g.mu.Unlock() }()
	if strings.Join(args, " ") != strings.Join(gh.Args, " ") {
		return nil, fmt.Errorf("gh %q, want %q", args, gh.Args)
	}
	if hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return body, err
}

func recordedGH(t *testing.T) *ghAnswer {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gh", "prs.json"))
	if err != nil {
		t.Fatal(err)
	}
	return &ghAnswer{body: b}
}

func prSession(id, dir, branch string) *state.Record {
	return &state.Record{ID: id, Name: "n-" + id, Agent: state.AgentClaude, Dir: dir, Branch: branch, CreatedAt: statetest.T0,
		Runtime:  state.Runtime{SessionID: "$" + id, PaneID: "%" + id, PaneStartedAt: statetest.T0},
		Activity: state.ActivityFacts{State: state.ActivityIdle, Since: statetest.T0, Source: "user", HooksReport: true, FirstSignalAt: statetest.T0}}
}

// prRig is a spool-only collector over sessions in real repositories,
// with the PR poller reading through a replayed gh.
type prRig struct {
	col *Collector
	gh  *ghAnswer
	clk *clock
}

func newPRRig(t *testing.T, full bool, recs ...*state.Record) *prRig {
	t.Helper()
	answer := recordedGH(t)
	clk := &clock{t: statetest.T0.Add(time.Hour)}
	col := &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Now: clk.now, PRs: &gh.Poller{Run: answer.run}}
	if full {
		// Full cycles (the poller starts reads only there) of a server the
		// sessions are not on, so the read leaves their panes as they are;
		// their branches are read from the checkouts.
		col.Panes, col.Socket = &fakePanes{}, "lanes-prtest"
	}
	put(t, col.Store, recs...)
	return &prRig{col: col, gh: answer, clk: clk}
}

func (p *prRig) cycle(t *testing.T) map[string]*state.Record {
	t.Helper()
	res, err := p.col.Cycle(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*state.Record{}
	for _, r := range res.Records {
		out[r.ID] = r
	}
	return out
}

// Every status a PR can give a card, from gh's answer: matched by head
// branch, never a fork's PR, never an old PR of a reused branch name.
func TestPRSyncEveryStatus(t *testing.T) {
	dir := statetest.Repo(t)
	want := map[string]state.Status{
		"s-open": state.StatusPROpen, "s-draft": state.StatusDraft, "s-review": state.StatusReviewPending,
		"s-changes": state.StatusChangesRequested, "s-approved": state.StatusApproved, "s-mergeable": state.StatusMergeable,
		"s-ci-failing": state.StatusCIFailed, "s-ci-pending": state.StatusMergeable, "s-conflict": state.StatusConflicting,
		"s-merged": state.StatusMerged, "s-closed": state.StatusIdle, "s-stack-a": state.StatusMergeable, "s-stack-b": state.StatusReviewPending,
		"main": state.StatusIdle, "s-reused": state.StatusIdle, "s-ci-error": state.StatusCIFailed,
	}
	var recs []*state.Record
	for head := range want {
		recs = append(recs, prSession(fmt.Sprintf("%08x", len(recs)+1), dir, head))
	}
	rig := newPRRig(t, false, recs...)
	if _, err := rig.col.PRs.Sync(context.Background(), recs, nil, rig.clk.now); err != nil {
		t.Fatal(err)
	}
	got := rig.cycle(t)
	for _, r := range recs {
		g := got[r.ID]
		if d := state.Derive(g, rig.clk.t); d.Status != want[r.Branch] {
			t.Errorf("%s: status %s, want %s (PRs %+v)", r.Branch, d.Status, want[r.Branch], g.PRs)
		}
		if r.Branch == "s-ci-pending" && (len(g.PRs) != 1 || g.PRs[0].CI != state.CIPending || g.PRs[0].Source != "gh") {
			t.Errorf("s-ci-pending: PRs %+v, want one with ci pending from gh", g.PRs)
		}
	}
	if rig.gh.calls != 1 {
		t.Errorf("%d gh reads for one repository, want 1", rig.gh.calls)
	}
}

// A PR that merges after its session was killed moves the card to Merged;
// a session over for longer than a day is no longer read.
func TestPRSyncMergedAfterKill(t *testing.T) {
	dir := statetest.Repo(t)
	killed := prSession("0000000a", dir, "s-merged")
	state.Terminate(killed, "killed by user", "user", statetest.T0.Add(30*time.Minute))
	old := prSession("0000000b", dir, "s-open")
	state.Terminate(old, "killed by user", "user", statetest.T0.Add(-48*time.Hour))
	rig := newPRRig(t, false, killed, old)
	if _, err := rig.col.PRs.Sync(context.Background(), []*state.Record{killed, old}, nil, rig.clk.now); err != nil {
		t.Fatal(err)
	}
	got := rig.cycle(t)
	if d := state.Derive(got[killed.ID], rig.clk.t); d.Status != state.StatusMerged || d.Zone != state.ZoneDone {
		t.Errorf("killed session: %s/%s, want merged/done", d.Status, d.Zone)
	}
	if len(got[old.ID].PRs) != 0 {
		t.Errorf("a session over two days ago got PRs %+v", got[old.ID].PRs)
	}
}

// Sessions in worktrees of one repository are one repository: one read,
// in a live session's dir.
func TestPRSyncOneReadPerRepository(t *testing.T) {
	dir := statetest.Repo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	statetest.Git(t, dir, "worktree", "add", "-q", "-b", "s-open", wt)
	statetest.Git(t, dir, "checkout", "-q", "-b", "s-review")
	a, b := prSession("0000000c", dir, "s-review"), prSession("0000000d", wt, "s-open")
	rig := newPRRig(t, true, a, b)
	rig.cycle(t)
	rig.col.PRs.Wait()
	got := rig.cycle(t)
	if rig.gh.calls != 1 {
		t.Fatalf("%d gh reads for a repository and its worktree, want 1", rig.gh.calls)
	}
	if state.Derive(got[a.ID], rig.clk.t).Status != state.StatusReviewPending || state.Derive(got[b.ID], rig.clk.t).Status != state.StatusPROpen {
		t.Errorf("statuses %s, %s", state.Derive(got[a.ID], rig.clk.t).Status, state.Derive(got[b.ID], rig.clk.t).Status)
	}
}

// The budget: 50 sessions over 5 repositories, cycles every second for 10
// minutes: one read per repository a minute, at most 2 at once. After a
// rate limit a repository waits 5 minutes; gh logged out turns the poller
// off, and it tries once every 5 minutes until a login turns it on again.
func TestPRPollerCadenceBackoffOff(t *testing.T) {
	var recs []*state.Record
	var repos []string
	for i := range 5 {
		repos = append(repos, statetest.Repo(t))
		for j := range 10 {
			recs = append(recs, prSession(fmt.Sprintf("%04x%04x", i, j), repos[i], fmt.Sprintf("b%d", j)))
		}
	}
	for _, c := range []struct {
		name     string
		err      error
		min, max int
	}{
		{"steady", nil, 50, 55},
		{"rate limited", errors.New("gh pr list: HTTP 403: API rate limit exceeded for user ID 1"), 10, 15},
		{"logged out", fmt.Errorf("%w: gh is not logged in", gh.ErrOff), 2, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			rig := newPRRig(t, true, recs...)
			rig.gh.err = c.err
			for range 600 {
				rig.clk.advance(time.Second)
				rig.cycle(t)
				rig.col.PRs.Wait()
			}
			if rig.gh.calls < c.min || rig.gh.calls > c.max || rig.gh.most > gh.AtOnce {
				t.Errorf("%d gh reads in 10 minutes (want %d–%d), at most %d at once (budget %d)", rig.gh.calls, c.min, c.max, rig.gh.most, gh.AtOnce)
			}
			if off := rig.col.PRs.Off(); (off != nil) != errors.Is(c.err, gh.ErrOff) {
				t.Errorf("Off() = %v", off)
			}
			if errors.Is(c.err, gh.ErrOff) { // gh auth login: on again, no restart
				rig.gh.err = nil
				for range 360 {
					rig.clk.advance(time.Second)
					rig.cycle(t)
					rig.col.PRs.Wait()
				}
				if off := rig.col.PRs.Off(); off != nil {
					t.Errorf("6 minutes after a login, Off() = %v", off)
				}
			}
			t.Logf("%s: %d gh reads in 10 minutes", c.name, rig.gh.calls)
		})
	}
}

// A gh that hangs is killed after gh.Timeout, and the repository backs off.
func TestPRPollerHungGH(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		answer := &ghAnswer{hang: true}
		p := &gh.Poller{Run: answer.run}
		dir := statetest.Repo(t)
		recs := []*state.Record{prSession("0000000e", dir, "s-open")}
		start := time.Now()
		_, err := p.Sync(context.Background(), recs, nil, time.Now)
		if err == nil || time.Since(start) != gh.Timeout {
			t.Fatalf("Sync over a hung gh: %v after %v, want an error after %v", err, time.Since(start), gh.Timeout)
		}
		if jobs := p.Due(recs, time.Now().Add(4*time.Minute), false, nil); len(jobs) != 0 {
			t.Errorf("due again 4 minutes after a hang: %v", jobs)
		}
	})
}

// A session's pane index goes when the session ends: a later pane with the
// same id (a server started again) is another agent's, not a hook of the
// ended session.
func TestPaneIndexDroppedOnTermination(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	r := prSession("0000000f", t.TempDir(), "main")
	r.Runtime.Socket, r.Runtime.Launch = "lanes-x", "L1"
	clk := &clock{t: statetest.T0.Add(time.Hour)}
	col := &Collector{Store: New(dir), Panes: &fakePanes{}, Socket: "lanes-x", Now: clk.now}
	put(t, col.Store, r)
	mine, other := PaneIndex(dir, "lanes-x", r.Runtime.PaneID), PaneIndex(dir, "lanes-x", "%99")
	_ = os.MkdirAll(filepath.Dir(mine), 0o700)
	_ = os.WriteFile(mine, []byte(r.ID+" L1\n"), 0o600)
	_ = os.WriteFile(other, []byte("otherid1 L2\n"), 0o600)
	for range 3 {
		clk.advance(state.ConfirmGap)
		if _, err := col.Cycle(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(mine); err == nil {
		t.Error("the ended session's pane index is still there")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another session's pane index went: %v", err)
	}
}
