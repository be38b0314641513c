package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// limits are what could stop tmux from holding 1,000 sessions: the
// open-files limit its server inherits from this process (each pane holds
// its pty's master, and each client a socket) and the system's ptys.
type limits struct {
	soft0, soft, hard uint64
	ptyMax, ptyNr     int
}

// raiseLimits raises this process's open-files soft limit to the hard
// one; the tmux servers and boards it starts inherit it.
func raiseLimits() limits {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		fail(fmt.Errorf("reading the open-files limit: %w", err))
	}
	out := limits{soft0: l.Cur, hard: l.Max}
	l.Cur = l.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		fail(fmt.Errorf("raising the open-files limit to %d: %w", l.Max, err))
	}
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l)
	out.soft = l.Cur
	num := func(path string) int {
		b, _ := os.ReadFile(path)
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return n
	}
	out.ptyMax, out.ptyNr = num("/proc/sys/kernel/pty/max"), num("/proc/sys/kernel/pty/nr")
	return out
}

// report adds the limits row: whether they bind at the largest count.
func (l limits) report() {
	const sessions = 1000
	// A pane holds one pty; the server keeps an fd per pane and a few per
	// client, so a margin of 100 covers the board's clients and tmux's own.
	files := l.soft >= sessions+100
	ptys := l.ptyMax-l.ptyNr >= sessions
	bind := "neither binds at 1,000 sessions"
	if !files || !ptys {
		bind = "BINDS at 1,000 sessions"
	}
	addHard("limits: open files (tmux inherits), ptys (one per pane)", "≥ 1,100 files, 1,000 ptys free",
		fmt.Sprintf("open files soft %d → %d (hard %d); ptys %d in use of %d; %s", l.soft0, l.soft, l.hard, l.ptyNr, l.ptyMax, bind),
		*quick || (files && ptys))
}
