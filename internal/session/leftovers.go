package session

import (
	"os"
	"strconv"
	"syscall"
	"time"

	"lanes/state/store"
	"lanes/tmux"
)

// How long the processes of a killed pane get to end on tmux's hangup, and
// then on SIGTERM, before the next signal.
const (
	hangupGrace = time.Second
	termGrace   = 2 * time.Second
)

// endLeftovers ends what is left of a pane's processes after tmux killed or
// respawned the pane. tmux hangs up on the pane (SIGHUP); an agent that
// catches or ignores it runs on with no session to see it in (Gemini CLI's
// relaunched node did in the real-agent runs), still spending tokens. tmux
// starts each pane's process in a session of its own, so its process group
// is that pid and holds what the agent started; it gets SIGTERM, then
// SIGKILL. pane is the read taken just before: only a pane alive then is
// touched, so the pid is the agent's and not one reused since.
func endLeftovers(pane tmux.Pane) {
	if pane.Dead || pane.PID <= 1 {
		return
	}
	for _, step := range []struct {
		grace time.Duration
		sig   syscall.Signal
	}{{hangupGrace, syscall.SIGTERM}, {termGrace, syscall.SIGKILL}} {
		if groupGone(pane.PID, step.grace) {
			return
		}
		_ = syscall.Kill(-pane.PID, step.sig) // gone meanwhile is fine
	}
}

// groupGone waits up to grace for process group pgid to have no process
// but zombies: a child the pane's shell left is reparented when the shell
// dies, and where init reaps lazily it stays a zombie for a second or two
// (a custom command's `lanes kill` took 1.2–2 s here, Claude's 0.14 s).
func groupGone(pgid int, grace time.Duration) bool {
	deadline := time.Now().Add(grace)
	for {
		if !groupLive(pgid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// groupLive reports whether process group pgid has a process that has not
// ended: signal 0 says whether it has any, /proc (where there is one)
// whether any of them is more than a zombie.
func groupLive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := store.ReadProc(pid); ok && p.Pgrp == pgid && !p.Dead() {
			return true
		}
	}
	return false
}
