package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
)

// drillHostDiesMidAnswer: this world is host1 behind a private sshd, and
// a second lanes (its own state, a hosts file naming host1) answers the
// fake Claude's dialog there with `lanes answer hd@host1 yes`. The host
// dies while lanes runs the answer there (its store held, so the answer
// is in flight, no key sent): the answer fails within seconds naming the
// host, no key reaches the pane, not even once the host is back, and the
// dialog still asks; a second answer then approves it, one key.
func drillHostDiesMidAnswer(w *world.World) (string, error) {
	elsewhere, err := w.AsHost()
	if err != nil {
		return "", err
	}
	defer elsewhere.Close()
	rig, local := elsewhere.Rig, elsewhere.Lanes
	restore, err := witnessStart(w, "hd", "run the command", 8*time.Second)
	if err != nil {
		return "", err
	}
	defer restore()
	if _, s := awaitLs(w, "hd", 10*time.Second, func(s lsOne) bool { return s.Dialog }); !s.Dialog {
		return "", fmt.Errorf("no dialog after PermissionRequest: %+v", s)
	}
	unlock, err := holdStore(w)
	if err != nil {
		return "", err
	}
	answered := make(chan world.Result, 1)
	go func() { answered <- local("answer", "hd@host1", "yes") }()
	if !world.WaitFor(20*time.Second, func() bool { return remoteAnswer(w) }) {
		unlock()
		return "", fmt.Errorf("lanes answer never ran on host1: %+v", <-answered)
	}
	began := time.Now()
	rig.Stop() // the host dies: its sshd and everything it runs
	unlock()
	var r world.Result
	select {
	case r = <-answered:
	case <-time.After(15 * time.Second):
		return "", fmt.Errorf("lanes answer still running 15 s after its host died")
	}
	ev := fmt.Sprintf("host1 died mid-answer: exit %d after %s, %q", r.Code, time.Since(began).Round(100*time.Millisecond), strings.TrimSpace(r.Stderr))
	keyFile := filepath.Join(w.Root, "fake-claude", "answered")
	switch {
	case r.Code == 0 || !strings.Contains(r.Stderr, "host1"):
		return ev, fmt.Errorf("want a failure naming host1")
	case time.Since(began) > 10*time.Second:
		return ev, fmt.Errorf("want the failure within 10 s")
	}
	if err := rig.Up(); err != nil {
		return ev, err
	}
	// Nothing was queued to fire once the host is back: a while later, no
	// key in the pane and the dialog still asks.
	time.Sleep(3 * time.Second)
	if b, err := os.ReadFile(keyFile); err == nil {
		return ev, fmt.Errorf("the pane got 0x%s after the failed answer", strings.TrimSpace(string(b)))
	}
	if _, s := awaitLs(w, "hd", 5*time.Second, func(s lsOne) bool { return s.Dialog }); !s.Dialog {
		return ev, fmt.Errorf("the dialog no longer asks after the failed answer: %+v", s)
	}
	again := local("answer", "hd@host1", "yes")
	key, _ := os.ReadFile(keyFile)
	ev += fmt.Sprintf("; host1 back: no key, the dialog asks; answered again: exit %d %q, the pane got 0x%s",
		again.Code, strings.TrimSpace(again.Stdout), strings.TrimSpace(string(key)))
	if again.Code != 0 || strings.TrimSpace(string(key)) != "31" {
		return ev, fmt.Errorf("want the second answer approved, Claude's key 0x31")
	}
	return ev, nil
}

// holdStore takes the world's store lock (bbolt's flock), so a lanes
// there waits to open it.
func holdStore(w *world.World) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(w.State, "lanes.db"), os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// remoteAnswer: a `lanes answer` that ssh started (argv[0] plain
// "lanes") runs with this world's state dir.
func remoteAnswer(w *world.World) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cmdline, _ := os.ReadFile(p + "/cmdline")
		if !bytes.HasPrefix(cmdline, []byte("lanes\x00answer\x00")) {
			continue
		}
		if env, _ := os.ReadFile(p + "/environ"); bytes.Contains(env, []byte("\x00LANES_STATE_DIR="+w.State+"\x00")) {
			return true
		}
	}
	return false
}
