package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"
	"lanes/tmux"
)

// A record lanes never confirmed (its `lanes new` died after tmux made the
// session) is killed by its @lanes_id: "killed" is never said of an agent
// that still runs (issue 16.4).
func TestKillFindsAnUnconfirmedSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := putStarting(t, e, "ghost")
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, e.getenv)
	ctx := context.Background()
	if _, err := e.tc.NewSession(ctx, tmux.NewSessionOpts{Name: "lanes-ghost", Command: []string{"sleep", "600"}, LanesID: r.ID}); err != nil {
		t.Fatal(err)
	}
	if err := a.svc().Kill(ctx, r, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := e.tc.HasSession(ctx, "lanes-ghost"); ok || err != nil {
		t.Fatalf("lanes kill left the unconfirmed session running (has=%v err=%v)", ok, err)
	}
}

// With the tmux server gone, kill and rm refuse without a confirm, and
// with --yes mark the session terminated (issue 16.8).
func TestKillAndRmWhileTmuxIsDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "a", "--", "sleep", "600")
	e.must("new", "b", "--", "sleep", "600")
	if _, err := e.tc.Run(context.Background(), "kill-server"); err != nil {
		t.Fatal(err)
	}
	_, errs, code := e.run("kill", "a")
	if code == exitOK || !strings.Contains(errs, "--yes") {
		t.Fatalf("kill with tmux down and no confirm: exit %d, %q", code, errs)
	}
	if e.ls()["a"].IsTerminated {
		t.Fatal("an unconfirmed kill changed the record")
	}
	// Nothing was killed: the message says what was done (trial 2, item 8).
	if out := e.must("kill", "a", "--yes"); !strings.Contains(out, "marked a terminated: tmux was not answering, so its agent was not stopped") ||
		strings.Contains(out, "killed a") {
		t.Fatalf("kill --yes with tmux down says %q", out)
	}
	if s := e.ls()["a"]; !s.IsTerminated || s.TerminatedReason == nil || *s.TerminatedReason != "killed while tmux was down" {
		t.Fatalf("kill --yes: %+v", s)
	}
	if _, errs, code := e.run("rm", "b"); code == exitOK || !strings.Contains(errs, "--yes") {
		t.Fatalf("rm of a live session with tmux down and no confirm: exit %d, %q", code, errs)
	}
	e.must("rm", "b", "--yes")
	if _, ok := e.ls()["b"]; ok {
		t.Fatal("rm --yes kept the record")
	}
	// And rm of a live session whose server answers still refuses.
	e.startServer()
	e.must("new", "c", "--", "sleep", "600")
	if _, errs, code := e.run("rm", "c", "--yes"); code == exitOK || !strings.Contains(errs, "is live") {
		t.Fatalf("rm --yes of a live session on a running server: exit %d, %q", code, errs)
	}
}

// Restart brings back an agent whose server died and came back without
// it: a new session under the same record (issue 16.8).
func TestRestartWhileTmuxIsDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "a", "--", "sleep", "600")
	if _, err := e.tc.Run(context.Background(), "kill-server"); err != nil {
		t.Fatal(err)
	}
	// A new server (started here, so it reads no user config) without the
	// session; the old one may take a moment to let go of the socket.
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := e.tc.Run(context.Background(), "new-session", "-d", "-s", "keep", "sleep", "3600")
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("starting a new server: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.must("restart", "a")
	e.waitFor("a idle on the new server", 10*time.Second, func(m map[string]listing.Session) bool {
		return m["a"].Status == state.StatusIdle && !m["a"].IsTerminated
	})
	if ok, err := e.tc.HasSession(context.Background(), "lanes-a"); !ok || err != nil {
		t.Fatalf("no session after restart: %v %v", ok, err)
	}
}

// With a board open, its reads find a killed session gone while lanes
// kill still ends the agent's leftovers (one that ignores the hangup and
// SIGTERM here: 3 s): the kill's fact wins, so restore --all leaves the
// session ended as README says (issue 30, item 7: "tmux session gone" in
// 4 of 5 tries, and restore --all started them again).
func TestKillWinsOverABoardsRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "k", "--", "sh", "-c", `trap "" HUP TERM; exec sleep 3600`)
	e.waitFor("k idle", 10*time.Second, func(m map[string]listing.Session) bool { return m["k"].Status == state.StatusIdle })
	stop := make(chan struct{})
	board := make(chan struct{})
	go func() { // a board: a read every 100 ms
		defer close(board)
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				_, _ = e.app().quietCycle(context.Background())
			}
		}
	}()
	e.must("kill", "k")
	close(stop)
	<-board
	got := e.ls()["k"]
	if !got.IsTerminated || got.TerminatedReason == nil || *got.TerminatedReason != state.ReasonKilled {
		t.Fatalf("after kill with a board reading: %+v", got)
	}
	if out := e.must("restore", "--all"); strings.Contains(out, "restored k") {
		t.Fatalf("restore --all brought the killed session back: %q", out)
	}
}
