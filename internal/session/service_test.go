package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// A kill whose server does not answer changes nothing and says how to go
// ahead; asked to go ahead anyway, it marks the session terminated as
// killed while tmux was down, since its agent may run on.
func TestKillWhileTheServerDoesNotAnswer(t *testing.T) {
	calls := fakeTmux(t, reply{stderr: noServer, exit: 1})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)

	err := s.Kill(bg, r, false)
	if !errors.Is(err, ErrTmuxDown) || !strings.Contains(err.Error(), "`lanes kill api --yes` marks it terminated anyway") {
		t.Fatalf("kill on a server that is not running: %v, want ErrTmuxDown and how to go ahead", err)
	}
	if got := stored(t, s, r.ID); got.Runtime.Terminated {
		t.Errorf("a refused kill terminated the record (%s)", got.Runtime.TerminatedReason)
	}
	if !ran(calls(), "kill-session") {
		t.Errorf("kill never asked tmux to kill the session: %q", calls())
	}

	if err := s.Kill(bg, r, true); err != nil {
		t.Fatalf("kill anyway: %v", err)
	}
	got := stored(t, s, r.ID)
	if !got.Runtime.Terminated || got.Runtime.TerminatedReason != state.KilledWhileDown || r.Runtime.TerminatedReason != state.KilledWhileDown {
		t.Errorf("after kill anyway: stored terminated %v (%q), caller's record %q; want %q",
			got.Runtime.Terminated, got.Runtime.TerminatedReason, r.Runtime.TerminatedReason, state.KilledWhileDown)
	}
}

// A session its server lost (the server answers, without it) is killed
// already: kill records it so rather than failing.
func TestKillASessionTmuxLost(t *testing.T) {
	fakeTmux(t,
		reply{cmd: "list-panes"}, // the server answers: no pane of ours
		reply{cmd: "kill-session", stderr: noSession, exit: 1},
		reply{stderr: "unexpected", exit: 1})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)
	if err := s.Kill(bg, r, false); err != nil {
		t.Fatalf("kill of a session tmux lost: %v", err)
	}
	if got := stored(t, s, r.ID); !got.Runtime.Terminated || got.Runtime.TerminatedReason != "killed by user" {
		t.Errorf("stored: terminated %v (%q), want killed by user", got.Runtime.Terminated, got.Runtime.TerminatedReason)
	}
}

// Send to a pane tmux no longer has says so in tmux's words, without the
// "look at the pane" a send that may have arrived gets; to an agent that
// exited it types nothing, asking tmux nothing.
func TestSendRefusals(t *testing.T) {
	// The paste runs inside if-shell (tmux.ErrSynchronized).
	calls := fakeTmux(t, reply{cmd: "if-shell", stderr: noPane, exit: 1})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)
	err := s.Send(bg, r, "run the tests", false)
	if !errors.Is(err, tmux.ErrNoSession) || !strings.Contains(err.Error(), noPane) || strings.Contains(err.Error(), "look at the pane") {
		t.Errorf("send to a gone pane: %v, want tmux.ErrNoSession with tmux's words", err)
	}

	before := len(calls())
	r.Activity.State = state.ActivityExited
	if err := s.Send(bg, r, "run the tests", false); !errors.Is(err, state.ErrAgentExited) {
		t.Errorf("send to an exited agent: %v, want state.ErrAgentExited", err)
	}
	if after := calls(); len(after) != before {
		t.Errorf("send to an exited agent ran tmux: %q", after[before:])
	}
}

// A tmux session of the same name that lanes did not start stops a
// create: the record it wrote first is removed again, and the message
// says to pick another name.
func TestCreateOverANameTmuxHas(t *testing.T) {
	fakeTmux(t,
		reply{cmd: "new-session", stderr: "duplicate session: lanes-api", exit: 1},
		reply{cmd: "display-message", stdout: "\n"}) // its @lanes_id: none
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r, err := s.Create(bg, "api", state.AgentCustom, t.TempDir(), []string{"sleep", "600"}, false)
	if err == nil || !strings.Contains(err.Error(), "tmux already has a session named lanes-api (not started by lanes); pick another name") {
		t.Fatalf("create over a tmux session of the name: %v (record %v)", err, r)
	}
	all, err := s.records()
	if err != nil || len(all) != 0 {
		t.Errorf("records left after the failed create: %d (%v)", len(all), err)
	}
	st, _ := s.Store()
	if _, err := os.Stat(NameIndex(st.Dir, "api")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("name index left after the failed create: %v", err)
	}
}

// A restart whose respawn tmux refuses (its session gone, and a new one
// of that name taken meanwhile) leaves the old launch the one that runs;
// one whose server hangs leaves both launches accepted until the
// collector settles which agent runs.
func TestRestartThatDoesNotRespawn(t *testing.T) {
	fakeTmux(t,
		reply{cmd: "list-panes"}, // the server answers: the session is gone
		reply{cmd: "new-session", stderr: "duplicate session: lanes-api", exit: 1},
		reply{stderr: "unexpected", exit: 1})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)
	err := s.Restart(bg, r)
	if !errors.Is(err, tmux.ErrDuplicate) || !strings.Contains(err.Error(), "respawning api") {
		t.Fatalf("restart into a taken name: %v", err)
	}
	if got := stored(t, s, r.ID); got.Runtime.Launch != "L1" || got.Runtime.PrevLaunch != "" || !got.Runtime.StartingAt.IsZero() {
		t.Errorf("after a restart that respawned nothing: launch %q, previous %q, starting %v; want L1 back, alone",
			got.Runtime.Launch, got.Runtime.PrevLaunch, got.Runtime.StartingAt)
	}
}

func TestRestartOnAHungServer(t *testing.T) {
	fakeTmux(t, reply{hang: true})
	s := newService(t, "lanes-test-fake", 300*time.Millisecond)
	r := liveRecord(t, s)
	err := s.Restart(bg, r)
	if !errors.Is(err, tmux.ErrTimeout) || !strings.Contains(err.Error(), "lanes settles it within") {
		t.Fatalf("restart on a hung server: %v", err)
	}
	if got := stored(t, s, r.ID); got.Runtime.Launch == "L1" || got.Runtime.PrevLaunch != "L1" {
		t.Errorf("after a restart tmux may or may not have carried out: launch %q, previous %q; want a new launch with L1 still accepted",
			got.Runtime.Launch, got.Runtime.PrevLaunch)
	}
}

// Remove refuses a live session lanes started whose tmux says nothing of
// its pane, before touching anything (TestRmOfAnExitedAgentInOneStep: a
// pane that runs, and one whose agent exited).
func TestRemoveRefusesALiveSession(t *testing.T) {
	s := newService(t, "lanes-test-fake", time.Second)
	r := liveRecord(t, s)
	if err := s.Remove(bg, r); err == nil || !strings.HasPrefix(err.Error(), "api is live") || !strings.HasSuffix(err.Error(), "`lanes kill api` first") {
		t.Fatalf("remove of a live session: %v", err)
	}
	if got := stored(t, s, r.ID); got.Runtime.Terminated {
		t.Error("the refused remove changed the record")
	}
}

// A terminated session's restart refusal points only where lanes can go:
// restore for one it can bring back, lanes new for one that exited
// cleanly (trial 5: restart offered restore, which then refused).
func TestRestartRefusalPointsWhereLanesCanGo(t *testing.T) {
	for _, c := range []struct {
		reason      string
		restore, nw bool
	}{
		{state.ReasonKilled, true, true},
		{state.ReasonGone, true, true},
		{state.ReasonCleanExit, false, true},
	} {
		r := &state.Record{Name: "api", Command: []string{"claude"}}
		r.Runtime.Terminated, r.Runtime.TerminatedReason = true, c.reason
		err := restartable(r)
		if !errors.Is(err, state.ErrTerminated) ||
			strings.Contains(err.Error(), "lanes restore api") != c.restore || strings.Contains(err.Error(), "`lanes new api`") != c.nw {
			t.Errorf("%s: %v", c.reason, err)
		}
	}
}

// LookPath takes only absolute PATH entries: a relative one ("bin", a
// quoted "~/bin") names a directory under wherever lanes was started,
// which another user may own (the twentieth hostile re-run: lanes ran
// her bin/git as root).
func TestLookPathSkipsRelativeEntries(t *testing.T) {
	dir, abs := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(dir, "bin"), filepath.Join(dir, "~", "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "tool"), filepath.Join(dir, "bin", "tool"), filepath.Join(dir, "~", "bin", "tool"), filepath.Join(abs, "tool")} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, path := range []string{"bin", "./bin", "~/bin", "bin:" + abs, ":" + abs, "." + string(os.PathListSeparator) + abs} {
		s := &Service{Getenv: func(k string) string { return map[string]string{"PATH": path}[k] }}
		want := ""
		if strings.Contains(path, abs) {
			want = filepath.Join(abs, "tool")
		}
		if got := s.LookPath("tool"); got != want {
			t.Errorf("PATH=%q: LookPath = %q, want %q", path, got, want)
		}
	}
}

// The 29th hostile re-run: a restore working from a record read before a
// kill landed started the killed session's agent again under a record
// that still said killed, which lanes kill then refused to end. The
// record as it is when the restart is recorded decides: ended meanwhile,
// nothing is started.
func TestRestartOfASessionEndedMeanwhile(t *testing.T) {
	calls := fakeTmux(t, reply{stderr: "unexpected", exit: 1})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)
	if err := s.Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
		state.Killed(cur, state.ReasonKilled, time.Now(), time.Now())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(bg, r); !errors.Is(err, state.ErrTerminated) {
		t.Errorf("restart of a session killed meanwhile: %v, want ErrTerminated", err)
	}
	if ran(calls(), "new-session") || ran(calls(), "respawn-pane") {
		t.Errorf("an agent was started: %q", calls())
	}
	if got := stored(t, s, r.ID); got.Runtime.TerminatedReason != state.ReasonKilled || got.Runtime.Launch != "L1" {
		t.Errorf("the killed record changed: %q launch %q", got.Runtime.TerminatedReason, got.Runtime.Launch)
	}
}

// The 30th and 31st hostile re-runs: lanes kill read the record, then a
// restore started the session again (a new launch, a new tmux session),
// and the kill — finding its old session gone, or ending it — recorded
// the new one killed while its agent ran. A kill of a record started
// again meanwhile records nothing and says so. The 32nd: a restart in the
// very session the kill then ended ended with it — that is a kill.
func TestKillOfASessionStartedAgainMeanwhile(t *testing.T) {
	for _, killed := range []reply{{cmd: "kill-session", stderr: noSession, exit: 1}, {cmd: "kill-session"}} {
		fakeTmux(t,
			reply{cmd: "list-panes"}, // the server answers: no pane of the old session
			killed,
			reply{stderr: "unexpected", exit: 1})
		s := newService(t, "lanes-test-fake", 5*time.Second)
		r := liveRecord(t, s)
		if err := s.Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
			cur.Runtime.Launch, cur.Runtime.SessionID = "L2", "$9" // restored meanwhile
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.Kill(bg, r, false); err == nil || !strings.Contains(err.Error(), "started again meanwhile") {
			t.Errorf("kill (%s) of a session started again meanwhile: %v", killed.stderr, err)
		}
		if got := stored(t, s, r.ID); got.Runtime.Terminated || !got.Runtime.KillingAt.IsZero() || got.Runtime.Launch != "L2" {
			t.Errorf("kill (%s): the new launch's record: terminated %v (%q), killing %v, launch %q; want it live, as it was",
				killed.stderr, got.Runtime.Terminated, got.Runtime.TerminatedReason, got.Runtime.KillingAt, got.Runtime.Launch)
		}
	}
}

func TestKillEndsARestartInTheSameSession(t *testing.T) {
	fakeTmux(t, reply{cmd: "list-panes"}, reply{cmd: "kill-session"}, reply{stderr: "unexpected", exit: 1})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)
	if err := s.Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
		cur.Runtime.Launch = "L2" // restarted meanwhile, in session $3
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Kill(bg, r, false); err != nil {
		t.Errorf("kill of the session a restart respawned in: %v", err)
	}
	if got := stored(t, s, r.ID); got.Runtime.TerminatedReason != state.ReasonKilled {
		t.Errorf("after the kill: %q, want %q", got.Runtime.TerminatedReason, state.ReasonKilled)
	}
}
