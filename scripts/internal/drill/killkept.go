package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
)

// drillKillKept: with the board open, `lanes kill` of a custom command is
// stopped at random points by SIGTERM, SIGHUP or SIGKILL, every other one
// by a SIGKILL the moment tmux's kill-session is done, and every third
// session is alone on its server, which exits with it (the 26th and 27th
// hostile re-runs: tmux had ended the session, the kill was never
// recorded, and restore --all started the command again, also when run
// before any read had found the session gone). Each session
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
	// A tmux that SIGKILLs lanes as soon as its kill-session is done: the
	// session gone, its kill not yet recorded.
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		return "", err
	}
	cut := filepath.Join(w.Root, "cutbin")
	script := "#!/bin/sh\n" + strconv.Quote(tmux) + " \"$@\"; rc=$?\ncase \" $* \" in *\" kill-session \"*) kill -9 $PPID;; esac\nexit $rc\n"
	if err := os.MkdirAll(cut, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(cut, "tmux"), []byte(script), 0o755); err != nil {
		return "", err
	}
	sockets := []string{w.Socket}
	for i := range n {
		// Every third session is alone on a server of its own: tmux exits
		// with it (the 27th re-run: "tmux server exited", restored).
		env := w.Env()
		if i%3 == 2 {
			sock := w.Socket + "-s" + strconv.Itoa(i)
			sockets, env = append(sockets, sock), append(env, "LANES_TMUX_SOCKET="+sock)
			w.OnClose(func() { _, _ = w.Tmux(sock, "kill-server") })
		}
		name := "k" + strconv.Itoa(i)
		made := exec.Command(w.Bin, "new", name, "--", "sleep", "86400")
		made.Env = env
		if out, err := made.CombinedOutput(); err != nil {
			return "", fmt.Errorf("lanes new %s: %v %s", name, err, out)
		}
		cmd := exec.Command(w.Bin, "kill", name)
		cmd.Env = env
		if i%2 == 1 {
			cmd.Env = append(env, "PATH="+cut+":"+os.Getenv("PATH"))
		}
		if err := cmd.Start(); err != nil {
			return "", err
		}
		time.Sleep(time.Duration(rand.IntN(60)) * time.Millisecond)
		_ = cmd.Process.Signal(sigs[i%len(sigs)])
		_ = cmd.Wait()
		// restore --all at once, before any read found its end (the
		// 28th re-run: it started the killed session again).
		again := exec.Command(w.Bin, "restore", "--all")
		again.Env = env
		if out, _ := again.CombinedOutput(); strings.Contains(string(out), "restored") {
			return "", fmt.Errorf("restore --all right after lanes kill %s was stopped started it again: %s", name, out)
		}
	}
	var ls map[string]world.Session
	var bad string
	killed, running := 0, 0
	settled := world.Poll(reconcileWait, 500*time.Millisecond, func() bool {
		// (A lanes command reads its own server: each of the others is
		// read by one given it, as a user there would.)
		for _, sock := range sockets[1:] {
			_ = w.Lanes("", "--socket", sock, "ls")
		}
		live, err := liveOn(w, sockets)
		if err == nil {
			ls, err = w.Ls()
		}
		if err != nil {
			bad = err.Error()
			return false
		}
		killed, running, bad = 0, 0, ""
		for _, s := range ls {
			switch reason := ""; {
			case live[s.ID] && !s.IsTerminated:
				running++
			case !live[s.ID] && s.IsTerminated && s.TerminatedReason != nil && *s.TerminatedReason == state.ReasonKilled:
				killed++
			default:
				if s.TerminatedReason != nil {
					reason = *s.TerminatedReason
				}
				bad = fmt.Sprintf("%s: tmux session %v, record terminated %v (%q)", s.Name, live[s.ID], s.IsTerminated, reason)
				return false
			}
		}
		return true
	})
	evidence := fmt.Sprintf("%d lanes kill stopped at 0–60 ms by TERM, HUP or KILL, the board open, every third session alone on its server: %d killed by user, %d still running under a live record", n, killed, running)
	if !settled {
		return evidence, fmt.Errorf("not settled within %s: %s", reconcileWait, bad)
	}
	r := w.Lanes("", "restore", "--all")
	if strings.Contains(r.Stdout, "restored") {
		return evidence, fmt.Errorf("restore --all started killed sessions again: %s", r.Stdout)
	}
	return evidence + "; restore --all started none", nil
}

// liveOn is the @lanes_id of every tmux session on sockets (a server that
// is gone holds none).
func liveOn(w *world.World, sockets []string) (map[string]bool, error) {
	live := map[string]bool{}
	for _, sock := range sockets {
		out, err := w.Tmux(sock, "list-sessions", "-F", "#{@lanes_id}")
		if err != nil && !strings.Contains(out, "no server running") && !strings.Contains(out, "error connecting") {
			return nil, fmt.Errorf("tmux -L %s list-sessions: %v %s", sock, err, out)
		}
		for _, id := range strings.Fields(out) {
			live[id] = true
		}
	}
	return live, nil
}
