package git

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

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
	p := &Poller{Run: g.run}
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
		jobs := p.Due(recs, now)
		p.Start(context.Background(), jobs, clk)
		// Nothing is released yet: the budget is full or these are all.
		if more := p.Due(recs, now); len(jobs) == gitAtOnce && len(more) != 0 {
			t.Fatalf("%v: %d more reads chosen while %d are in flight", now.Sub(statetest.T0), len(more), gitAtOnce)
		}
		for range jobs {
			g.release <- struct{}{}
		}
		p.Wait()
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
	if len(p.Take()) != 11 {
		t.Errorf("finished reads not all handed over")
	}
}
