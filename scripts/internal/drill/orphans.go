package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
)

// drillOrphans (issue 15): an interrupted lanes new leaves nothing; doctor
// lists an orphan made by hand (tmux new-session + set-option @lanes_id)
// with the commands to keep or kill it, and lanes new on its name says the
// same.
func drillOrphans(w *world.World) (string, error) {
	var ev []string
	// 1. Interrupted while a slow tmux (a stand-in that hangs after the
	// real tmux made the session) has not answered.
	real, err := exec.LookPath("tmux")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(w.Root, "slowtmux")
	mark := filepath.Join(bin, "made")
	_ = os.MkdirAll(bin, 0o700)
	script := "#!/bin/sh\n'" + real + "' \"$@\"; rc=$?\n" +
		"case \" $* \" in *\" new-session \"*) if [ ! -e '" + mark + "' ]; then : > '" + mark + "'; exec sleep 60; fi;; esac\nexit $rc\n"
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(script), 0o700); err != nil {
		return "", err
	}
	cmd := exec.Command(w.Bin, "new", "half", "--", "sleep", "600")
	cmd.Env = append(w.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		return "", err
	}
	made := world.WaitFor(20*time.Second, func() bool { _, err := os.Stat(mark); return err == nil })
	_, hasErr := w.Tmux(w.Socket, "has-session", "-t", "=lanes-half")
	if !made || hasErr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return "", fmt.Errorf("tmux did not make lanes-half before the interrupt (made %v, has-session %v): %s", made, hasErr, errb.String())
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	ev = append(ev, "new half, SIGINT while tmux hangs: "+firstLine(errb.String()))
	_, hasErr = w.Tmux(w.Socket, "has-session", "-t", "=lanes-half")
	ls, err := w.Ls()
	if err != nil {
		return strings.Join(ev, "\n"), err
	}
	_, rec := ls["half"]
	again := w.Lanes("", "new", "half", "--", "sleep", "600")
	ev = append(ev, fmt.Sprintf("after: lanes-half in tmux %v, record %v, lanes new half again: exit %d", hasErr == nil, rec, again.Code))
	if hasErr == nil || rec || again.Code != 0 {
		return strings.Join(ev, "\n"), fmt.Errorf("the interrupted lanes new left something behind")
	}
	// 2. An orphan made by hand.
	for _, args := range [][]string{{"new-session", "-d", "-s", "lanes-orph", "sleep", "600"},
		{"set-option", "-t", "=lanes-orph:", "--", "@lanes_id", "orph0001"}} {
		if out, err := w.Tmux(w.Socket, args...); err != nil {
			return strings.Join(ev, "\n"), fmt.Errorf("tmux %s: %v %s", args[0], err, out)
		}
	}
	doc := doctorLines(w, "lanes-orph")
	ev = append(ev, "doctor: "+doc)
	if !strings.Contains(doc, "@lanes_id orph0001") || !strings.Contains(doc, "kill-session -t '=lanes-orph'") || !strings.Contains(doc, "-u @lanes_id") {
		return strings.Join(ev, "\n"), fmt.Errorf("doctor does not list the orphan with its commands")
	}
	r := w.Lanes("", "new", "orph", "--", "cat")
	ev = append(ev, fmt.Sprintf("lanes new orph: exit %d: %s", r.Code, firstLine(r.Stderr)))
	if r.Code == 0 || !strings.Contains(r.Stderr, "kill-session -t '=lanes-orph'") {
		return strings.Join(ev, "\n"), fmt.Errorf("lanes new over the orphan does not say what doctor says")
	}
	return strings.Join(ev, "\n"), nil
}
