package main

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
)

// drillKillKept: with the board open, `lanes kill` of a custom command is
// stopped at random points by SIGTERM, SIGHUP or SIGKILL (the 26th
// hostile re-run: tmux had ended the session, the kill was never
// recorded, and restore --all started the command again). Each session
// is then either still running under its live record (the kill never
// reached tmux) or ended as killed by user; restore --all starts none.
func drillKillKept(w *world.World) (string, error) {
	n := 18
	if *quick {
		n = 6
	}
	view := w.Socket + "-k"
	if err := w.StartBoard(view, 80, 24); err != nil {
		return "", err
	}
	defer func() { _, _ = w.Tmux(view, "kill-server") }()
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL}
	for i := range n {
		name := "k" + strconv.Itoa(i)
		if err := w.NewSleeper(name); err != nil {
			return "", err
		}
		cmd := exec.Command(w.Bin, "kill", name)
		cmd.Env = w.Env()
		if err := cmd.Start(); err != nil {
			return "", err
		}
		time.Sleep(time.Duration(rand.IntN(60)) * time.Millisecond)
		_ = cmd.Process.Signal(sigs[i%len(sigs)])
		_ = cmd.Wait()
	}
	var ls map[string]world.Session
	var bad string
	killed, running := 0, 0
	settled := world.Poll(reconcileWait, 500*time.Millisecond, func() bool {
		tm, err := lanesSessions(w)
		if err == nil {
			ls, err = w.Ls()
		}
		if err != nil {
			bad = err.Error()
			return false
		}
		killed, running, bad = 0, 0, ""
		for _, s := range ls {
			_, live := tm[s.ID]
			switch reason := ""; {
			case live && !s.IsTerminated:
				running++
			case !live && s.IsTerminated && s.TerminatedReason != nil && *s.TerminatedReason == state.ReasonKilled:
				killed++
			default:
				if s.TerminatedReason != nil {
					reason = *s.TerminatedReason
				}
				bad = fmt.Sprintf("%s: tmux session %v, record terminated %v (%q)", s.Name, live, s.IsTerminated, reason)
				return false
			}
		}
		return true
	})
	evidence := fmt.Sprintf("%d lanes kill stopped at 0–60 ms by TERM, HUP or KILL, the board open: %d killed by user, %d still running under a live record", n, killed, running)
	if !settled {
		return evidence, fmt.Errorf("not settled within %s: %s", reconcileWait, bad)
	}
	r := w.Lanes("", "restore", "--all")
	if strings.Contains(r.Stdout, "restored") {
		return evidence, fmt.Errorf("restore --all started killed sessions again: %s", r.Stdout)
	}
	return evidence + "; restore --all started none", nil
}
