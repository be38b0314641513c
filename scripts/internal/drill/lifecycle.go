package main

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
	"lanes/state/store"
)

// reconcileWait is how long a drill runs cycles for lanes to settle a start
// or restart: the start window and some slack for a loaded machine.
const reconcileWait = state.StartWindow + 15*time.Second

// lanesSessions maps the @lanes_id of every tmux session carrying one to
// its session id.
func lanesSessions(w *world.World) (map[string]string, error) {
	out, err := w.Tmux(w.Socket, "list-sessions", "-F", "#{@lanes_id} #{session_id}")
	if err != nil {
		return nil, fmt.Errorf("tmux list-sessions: %v %s", err, out)
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if id, sid, ok := strings.Cut(l, " "); ok && id != "" {
			m[id] = sid
		}
	}
	return m, nil
}

// drillNewKilled: `lanes new` SIGKILLed at random points; afterwards every
// tmux session lanes made has a live record, every record without a session
// is gone, and `lanes kill` really ends each session (issue 16.4).
func drillNewKilled(w *world.World) (string, error) {
	n := 30
	if *quick {
		n = 6
	}
	interrupted := 0
	for i := range n {
		cmd := exec.Command(w.Bin, "new", "k"+strconv.Itoa(i), "--", "sleep", "86400")
		cmd.Env = w.Env()
		if err := cmd.Start(); err != nil {
			return "", err
		}
		time.Sleep(time.Duration(rand.IntN(350)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err != nil {
			interrupted++ // killed before it finished
		}
	}
	var tm map[string]string
	var ls map[string]world.Session
	var bad string
	start := time.Now()
	settled := world.Poll(reconcileWait, 500*time.Millisecond, func() bool {
		var err error
		if ls, err = w.Ls(); err != nil {
			bad = err.Error()
			return false
		}
		if tm, err = lanesSessions(w); err != nil {
			bad = err.Error()
			return false
		}
		bad = ""
		byID := map[string]world.Session{}
		for _, s := range ls {
			byID[s.ID] = s
		}
		panes := map[string]string{} // record id → the session id it knows
		_ = store.New(w.State).View(func(tx *store.Tx) error {
			all, err := tx.All()
			for _, r := range all {
				panes[r.ID] = r.Runtime.SessionID
			}
			return err
		})
		for id, sid := range tm {
			if s, ok := byID[id]; !ok || s.IsTerminated || s.Status != "idle" || panes[id] != sid {
				bad = fmt.Sprintf("session %s with @lanes_id %s: record knows session %q, %+v", sid, id, panes[id], s)
				return false
			}
		}
		for _, s := range ls {
			if _, ok := tm[s.ID]; !ok {
				bad = fmt.Sprintf("record %s (%s) has no tmux session", s.Name, s.Status)
				return false
			}
		}
		return true
	})
	took := time.Since(start).Round(time.Second)
	evidence := fmt.Sprintf("%d lanes new SIGKILLed at 0–350 ms (%d before they finished): %d sessions, all with a live record that knows it; %d records, none without a session (settled in %s)",
		n, interrupted, len(tm), len(ls), took)
	if !settled {
		return evidence, fmt.Errorf("not settled within %s: %s", reconcileWait, bad)
	}
	for _, s := range ls {
		if r := w.Lanes("", "kill", s.Name); r.Code != 0 {
			return evidence, fmt.Errorf("lanes kill %s: %s", s.Name, r.Stderr)
		}
	}
	left, err := lanesSessions(w)
	if err != nil {
		return evidence, err
	}
	evidence += fmt.Sprintf("; lanes kill of each: %d of %d sessions left", len(left), len(tm))
	if len(left) > 0 {
		return evidence, fmt.Errorf("lanes kill said killed and left sessions running")
	}
	return evidence, nil
}

// drillRestartKilled: `lanes restart` SIGKILLed at random points, and once
// at its worst point (the record changed, the pane not respawned); the
// agent that runs afterwards still has its events applied (issue 16.4).
func drillRestartKilled(w *world.World) (string, error) {
	kills := 10
	if *quick {
		kills = 3
	}
	// The agent reports turns through its own launch, as a hooked agent does.
	loop := fmt.Sprintf(`while :; do %[1]q hook generic active; sleep 0.3; %[1]q hook generic idle; sleep 0.3; done`, w.Bin)
	if r := w.Lanes("", "new", "r", "--", "sh", "-c", loop); r.Code != 0 {
		return "", fmt.Errorf("lanes new: %s", r.Stderr)
	}
	for range kills {
		cmd := exec.Command(w.Bin, "restart", "r")
		cmd.Env = w.Env()
		if err := cmd.Start(); err != nil {
			return "", err
		}
		time.Sleep(time.Duration(rand.IntN(120)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
	}
	// The worst point, made exactly: what `lanes restart` does before it
	// respawns the pane (a cycle, then the record's change), and then
	// nothing.
	if _, err := w.Ls(); err != nil {
		return "", err
	}
	st := store.New(w.State)
	if err := st.Update(func(tx *store.Tx) error {
		r, err := tx.Resolve("r")
		if err != nil {
			return err
		}
		state.Restart(r, state.NewID(), time.Now().UTC())
		r.Runtime.StartingAt = time.Now().UTC()
		return tx.Put(r)
	}); err != nil {
		return "", err
	}
	var before, after world.Session
	start := time.Now()
	applying := world.Poll(reconcileWait, 500*time.Millisecond, func() bool {
		s, err := w.Ls()
		if err != nil {
			return false
		}
		before = s["r"]
		time.Sleep(2 * time.Second)
		if s, err = w.Ls(); err != nil {
			return false
		}
		after = s["r"]
		// Events of the running agent apply again: applied grows and no
		// new line is dropped as a stale launch.
		return after.EventsApplied > before.EventsApplied &&
			after.EventsDropped["stale_launch"] == before.EventsDropped["stale_launch"]
	})
	evidence := fmt.Sprintf("%d restarts SIGKILLed at 0–120 ms + 1 stopped between record and respawn: the live agent's events apply again after %s (applied %d→%d over 2 s, stale_launch %d→%d)",
		kills, time.Since(start).Round(time.Second), before.EventsApplied, after.EventsApplied,
		before.EventsDropped["stale_launch"], after.EventsDropped["stale_launch"])
	if !applying {
		return evidence, fmt.Errorf("the running agent's events are still dropped after %s", reconcileWait)
	}
	return evidence, nil
}

// drillKillWhileDown: with the tmux server out of reach, kill and rm need a confirm
// and then work; a new server's first read shows a missing session as
// unknown, not its old status; new starts a server (issue 16.8).
func drillKillWhileDown(w *world.World) (string, error) {
	for _, n := range []string{"a", "b", "c"} {
		if err := w.NewSleeper(n); err != nil {
			return "", err
		}
	}
	if _, err := w.Ls(); err != nil {
		return "", err
	}
	// Unreachable, not certainly gone: its socket went (a server that
	// exits takes its sessions with it, drill 2).
	if err := w.CutServer(); err != nil {
		return "", err
	}
	refused := w.Lanes("", "kill", "a")
	killed := w.Lanes("", "kill", "a", "--yes")
	removed := w.Lanes("", "rm", "b", "--yes")
	ls, err := w.Ls()
	if err != nil {
		return "", err
	}
	reason := ""
	if p := ls["a"].TerminatedReason; p != nil {
		reason = *p
	}
	_, bKept := ls["b"]
	// A new server, without c: its first read must not show c's old Idle.
	if !world.WaitFor(10*time.Second, func() bool { return w.StartServer() == nil }) {
		return "", fmt.Errorf("starting a new tmux server")
	}
	first, err := w.Ls()
	if err != nil {
		return "", err
	}
	made := w.Lanes("", "new", "d", "--", "sleep", "86400")
	evidence := fmt.Sprintf("server down: kill a → exit %d (%s); kill a --yes → exit %d, reason %q; rm b --yes → exit %d, record kept %v; new server's first read: c %s; new d → exit %d",
		refused.Code, grepLine(refused.Stderr, "killing"), killed.Code, reason, removed.Code, bKept, first["c"].Status, made.Code)
	switch {
	case refused.Code == 0 || !strings.Contains(refused.Stderr, "--yes"):
		return evidence, fmt.Errorf("kill without a confirm went ahead or gave no hint")
	case killed.Code != 0 || reason != "killed while tmux was down":
		return evidence, fmt.Errorf("kill --yes did not mark the session terminated")
	case removed.Code != 0 || bKept:
		return evidence, fmt.Errorf("rm --yes did not remove the record")
	case first["c"].Status != "unknown" && !first["c"].IsTerminated:
		return evidence, fmt.Errorf("a session missing from the new server shows its old status")
	case made.Code != 0:
		return evidence, fmt.Errorf("lanes new failed: %s", made.Stderr)
	}
	return evidence, nil
}

// drillClockStepBack: the last applied read is stamped an hour ahead, as
// after the wall clock stepped back an hour; the pane's death must still be
// seen (issue 16.9).
func drillClockStepBack(w *world.World) (string, error) {
	if err := w.NewSleeper("c"); err != nil {
		return "", err
	}
	if _, err := w.Ls(); err != nil {
		return "", err
	}
	ahead := time.Now().UTC().Add(time.Hour)
	pid := 0
	if err := store.New(w.State).Update(func(tx *store.Tx) error {
		r, err := tx.Resolve("c")
		if err != nil {
			return err
		}
		r.Pane.ObservedAt, r.Pane.ObservedBy, pid = ahead, "", r.Pane.PID
		return tx.Put(r)
	}); err != nil {
		return "", err
	}
	if pid == 0 {
		return "", fmt.Errorf("the pane's pid was never observed")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return "", fmt.Errorf("killing the agent: %w", err)
	}
	start := time.Now()
	var s world.Session
	seen := world.Poll(10*time.Second, 200*time.Millisecond, func() bool {
		ls, err := w.Ls()
		s = ls["c"]
		return err == nil && s.Status == "exited"
	})
	evidence := fmt.Sprintf("observed_at an hour ahead, agent SIGKILLed: status %s after %s", s.Status, time.Since(start).Round(100*time.Millisecond))
	if !seen {
		return evidence, fmt.Errorf("pane observation froze after the clock stepped back")
	}
	return evidence, nil
}

// drillNoFalseWorking: silent agents launched just before second boundaries
// (where tmux stamps the window's creation in the next second) never show
// working in their first 7 s (issue 16.10).
func drillNoFalseWorking(w *world.World) (string, error) {
	n := 12
	if *quick {
		n = 6
	}
	worked := map[string]bool{}
	done := make(chan struct{})
	polled := make(chan int)
	go func() {
		polls := 0
		for {
			select {
			case <-done:
				polled <- polls
				return
			default:
			}
			if ls, err := w.Ls(); err == nil {
				polls++
				for name, s := range ls {
					if s.Status == "working" {
						worked[name] = true
					}
				}
			}
			time.Sleep(150 * time.Millisecond)
		}
	}()
	// Each launch aims lanes' start stamp 2 ms before a second boundary,
	// where tmux then stamps the window's creation in the next second; the
	// delay from exec to stamp is learnt from the previous launch.
	delay := 20 * time.Millisecond
	for i := range n {
		name := "q" + strconv.Itoa(i)
		aim := time.Second - 2*time.Millisecond - delay
		for aim < 0 {
			aim += time.Second
		}
		frac := time.Duration(time.Now().Nanosecond())
		time.Sleep((time.Second + aim - frac) % time.Second)
		launched := time.Now()
		if r := w.Lanes("", "new", name, "--", "sleep", "86400"); r.Code != 0 {
			close(done)
			<-polled
			return "", fmt.Errorf("lanes new: %s", r.Stderr)
		}
		_ = store.New(w.State).View(func(tx *store.Tx) error {
			if r, err := tx.Resolve(name); err == nil && !r.Runtime.PaneStartedAt.IsZero() {
				delay = r.Runtime.PaneStartedAt.Sub(launched)
			}
			return nil
		})
	}
	time.Sleep(7 * time.Second)
	close(done)
	polls := <-polled
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range worked {
			if !yield(k) {
				return
			}
		}
	})
	evidence := fmt.Sprintf("%d silent launches stamped just before a second boundary, %d polls of ls --json over their first 7 s: %d of %d ever showed working %v",
		n, polls, len(worked), n, names)
	if len(worked) > 0 {
		return evidence, fmt.Errorf("a silent launch showed working")
	}
	return evidence, nil
}
