package store

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lanes/state"
)

// ServerGone reports whether pid, the process of a tmux server a read
// found, is certainly no longer that server: no such process, a zombie (a
// crashed server whose parent has not reaped it), or a process of another
// name (the pid taken again, as after a reboot). A process lanes cannot
// look at counts as the server: unreachable, not gone (docs/design.md §5).
func ServerGone(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	p, ok := ReadProc(pid)
	if !ok {
		return false // no procfs: the process is there, so is the server
	}
	return p.Dead() || !strings.HasPrefix(p.Comm, "tmux")
}

// Proc is what /proc/PID/stat says of a process.
type Proc struct {
	Comm  string
	State byte // R, S, Z (a zombie), X (dead) …
	Pgrp  int
}

// Dead reports whether the process has ended and only waits to be reaped.
func (p Proc) Dead() bool { return p.State == 'Z' || p.State == 'X' }

// ReadProc reads /proc/PID/stat; ok is false where there is none (no
// procfs, or no such process).
func ReadProc(pid int) (Proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, false
	}
	// "PID (COMM) STATE PPID PGRP …": COMM may hold spaces and parentheses.
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return Proc{}, false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return Proc{}, false
	}
	pgrp, err := strconv.Atoi(f[2])
	if err != nil {
		return Proc{}, false
	}
	return Proc{Comm: s[open+1 : end], State: f[0][0], Pgrp: pgrp}, true
}

// serverExited ends r, whose tmux server is gone, at readStart, and keeps
// the server it was on for the board's word of it.
func (c *cycleTx) serverExited(r *state.Record, readStart time.Time) {
	r.Runtime.UnreachableSince = time.Time{}
	reason, source := state.EndedBy(r, state.ReasonServerExited, "tmux")
	c.note(r, state.Terminate(r, reason, source, readStart))
}

// serverOf is the server pid of an answered read; 0 when it had no pane
// (or a tmux that does not say).
func serverOf(obs []state.Observation) int {
	for _, o := range obs {
		if o.ServerPID > 0 {
			return o.ServerPID
		}
	}
	return 0
}

// lostServer reports whether r's session went with the server it was
// on: its process is gone, and a read failed or another server (a new
// one started since) answered without it.
func (c *cycleTx) lostServer(r *state.Record, tmuxErr error, server int, found bool) bool {
	was := r.Runtime.ServerPID
	switch {
	case was == 0 || r.Adopted:
		return false
	case tmuxErr != nil:
		return c.goneServer(was)
	default:
		// A new server on the socket is not the old one's end: a server
		// whose socket file went lives on out of reach.
		return !found && server != 0 && server != was && c.goneServer(was)
	}
}

// goneServer is ServerGone once per pid and cycle (or the collector's stand-in).
func (c *cycleTx) goneServer(pid int) bool {
	if g, ok := c.servers[pid]; ok {
		return g
	}
	if c.servers == nil {
		c.servers = map[int]bool{}
	}
	gone := c.serverGone
	if gone == nil {
		gone = ServerGone
	}
	c.servers[pid] = gone(pid)
	return c.servers[pid]
}

// LastServerExit is the newest tmux server exit that ended sessions of
// recs after after: its socket, and the names of the sessions it ended
// that `restore --all` brings back (one read ends them all; a session
// whose agent had exited already is not among them). names is empty when
// there was none.
func LastServerExit(recs []*state.Record, after time.Time) (socket string, names []string) {
	ended := func(r *state.Record) bool {
		rt := r.Runtime
		return rt.Terminated && rt.TerminatedReason == state.ReasonServerExited && rt.TerminatedAt.After(after)
	}
	var newest *state.Record
	for _, r := range recs {
		if ended(r) && (newest == nil || r.Runtime.TerminatedAt.After(newest.Runtime.TerminatedAt)) {
			newest = r
		}
	}
	if newest == nil {
		return "", nil
	}
	for _, r := range recs {
		if ended(r) && r.Runtime.Socket == newest.Runtime.Socket &&
			newest.Runtime.TerminatedAt.Sub(r.Runtime.TerminatedAt) <= state.ConfirmGap && state.Restorable(r, false) == nil {
			names = append(names, r.Name)
		}
	}
	return newest.Runtime.Socket, names
}
