package main

import (
	"fmt"
	"os"
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

// putStarting writes the record an interrupted `lanes new` leaves behind:
// stored and starting, with no tmux session.
func putStarting(w *world.World, name string) error {
	now := time.Now().UTC()
	r := &state.Record{ID: state.NewID(), Name: name, Agent: state.AgentCustom, Command: []string{"cat"},
		Dir: w.Home, CreatedAt: now,
		Activity: state.ActivityFacts{State: state.ActivityIdle, Since: now, Source: "user"},
		Runtime: state.Runtime{Socket: w.Socket, TmuxSession: state.TmuxSessionName(name),
			Launch: state.NewID(), StartingAt: now}}
	return store.New(w.State).Update(func(tx *store.Tx) error { return tx.Put(r) })
}

// drillStarting: a session whose `lanes new` was interrupted before tmux
// showed it reads as starting, and send, attach, restart and new refuse it
// plainly; restart keeps its record; kill ends it (trial item 3).
func drillStarting(w *world.World) (string, error) {
	if err := putStarting(w, "zz"); err != nil {
		return "", err
	}
	ls, err := w.Ls()
	if err != nil {
		return "", err
	}
	if !slices.Contains(ls["zz"].Marks, string(state.MarkStarting)) {
		return "", fmt.Errorf("ls --json marks of a starting session: %v", ls["zz"].Marks)
	}
	row := grepLine(w.Lanes("", "ls").Stdout, "zz")
	evidence := "ls: " + strings.Join(strings.Fields(row), " ")
	for _, args := range [][]string{{"send", "zz", "hi"}, {"attach", "zz"}, {"restart", "zz"}, {"new", "zz", "--", "cat"}} {
		r := w.Lanes("", args...)
		evidence += fmt.Sprintf("\nlanes %s: exit %d: %s", strings.Join(args, " "), r.Code, firstLine(r.Stderr))
		if r.Code != 1 || !strings.Contains(r.Stderr, "still starting") {
			return evidence, fmt.Errorf("lanes %s did not refuse a starting session plainly", args[0])
		}
	}
	if ls, err = w.Ls(); err != nil {
		return evidence, err
	}
	if _, ok := ls["zz"]; !ok {
		return evidence, fmt.Errorf("the record is gone after lanes restart")
	}
	r := w.Lanes("", "kill", "zz")
	evidence += fmt.Sprintf("\nlanes kill zz: exit %d: %s", r.Code, firstLine(r.Stdout+r.Stderr))
	if r.Code != 0 {
		return evidence, fmt.Errorf("kill of a starting session failed")
	}
	return evidence, nil
}

// drillNames: a NAME never reaches another session — a name equal to a
// record's id, or starting with lanes-, is refused (trial item 6, issue
// 15); one shaped like an id (frontend) is a name like any other.
func drillNames(w *world.World) (string, error) {
	if err := w.NewSleeper("c"); err != nil {
		return "", err
	}
	ls, err := w.Ls()
	if err != nil {
		return "", err
	}
	var evidence string
	for _, name := range []string{ls["c"].ID, "lanes-c"} {
		r := w.Lanes("", "new", name, "--", "cat")
		evidence += fmt.Sprintf("lanes new %s: exit %d: %s\n", name, r.Code, firstLine(r.Stderr))
		if r.Code == 0 {
			return evidence, fmt.Errorf("lanes new %s was accepted", name)
		}
	}
	return strings.TrimSpace(evidence), nil
}

// doctorLines is the lines of `lanes doctor` that mention any of words,
// with their fix lines.
func doctorLines(w *world.World, words ...string) string {
	var out []string
	lines := strings.Split(w.Lanes("", "doctor").Stdout, "\n")
	for i, l := range lines {
		if slices.ContainsFunc(words, func(word string) bool { return strings.Contains(l, word) }) {
			out = append(out, strings.TrimSpace(l))
			if i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "fix:") {
				out = append(out, "  "+strings.TrimSpace(lines[i+1]))
			}
		}
	}
	return strings.Join(out, "\n")
}

// drillDoctorTmux: doctor's tmux advice — another state dir's sessions are
// not orphans, orphans are named, a stopped server is "not answering" with
// advice for its own socket, and a dead server with live sessions is a
// problem with a way out (trial item 4).
func drillDoctorTmux(w *world.World) (string, error) {
	other := exec.Command(w.Bin, "new", "f1", "--", "sleep", "86400")
	other.Env = append(w.Env(), "LANES_STATE_DIR="+w.Root+"/other-state")
	if out, err := other.CombinedOutput(); err != nil {
		return "", fmt.Errorf("lanes new f1 in another state dir: %v %s", err, out)
	}
	if out, err := w.Tmux(w.Socket, "new-session", "-d", "-s", "lanes-o1", "sleep", "86400", ";",
		"set-option", "-t", "=lanes-o1:", "@lanes_id", "oooo0001"); err != nil {
		return "", fmt.Errorf("making an orphan: %v %s", err, out)
	}
	if err := w.NewSleeper("a"); err != nil {
		return "", err
	}
	evidence := doctorLines(w, "tmux:")
	if !strings.Contains(evidence, "lanes-f1") || !strings.Contains(evidence, "belongs to state dir") ||
		!strings.Contains(evidence, "lanes-o1") || strings.Count(evidence, "kill-session") != 1 {
		return evidence, fmt.Errorf("doctor does not tell the other state dir's session from the orphan")
	}
	pidOut, err := w.Tmux(w.Socket, "display-message", "-p", "#{pid}")
	if err != nil {
		return evidence, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(pidOut))
	if err != nil {
		return evidence, err
	}
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	hung := doctorLines(w, "tmux server")
	_ = syscall.Kill(pid, syscall.SIGCONT)
	evidence += "\nstopped server:\n" + hung
	if !strings.Contains(hung, "not answering") || !strings.Contains(hung, "tmux -L "+w.Socket+" ls") || strings.Contains(hung, "NAME") {
		return evidence, fmt.Errorf("doctor's advice for a stopped server")
	}
	if _, err := w.Tmux(w.Socket, "kill-server"); err != nil {
		return evidence, err
	}
	// kill-server returns as the server starts to exit: doctor is asked
	// once it has (gone, or a zombie this machine's init never reaps).
	world.WaitFor(10*time.Second, func() bool {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		return err != nil || strings.Contains(string(b), ") Z ")
	})
	dead := doctorLines(w, "tmux server")
	evidence += "\ndead server:\n" + dead
	if strings.HasPrefix(dead, "ok") || !strings.Contains(dead, "exited, and 1 session(s) ended with it: a") || !strings.Contains(dead, "lanes restore --all") {
		return evidence, fmt.Errorf("doctor's advice for a server that exited with a live session")
	}
	return evidence, nil
}

// drillTmuxDown: with tmux down, commands say what it means for them, once
// and in lanes' words (trial item 5).
func drillTmuxDown(w *world.World) (string, error) {
	for _, n := range []string{"build", "c"} {
		if err := w.NewSleeper(n); err != nil {
			return "", err
		}
	}
	if _, err := w.Tmux(w.Socket, "kill-server"); err != nil {
		return "", err
	}
	var evidence []string
	run := func(stdin string, args ...string) world.Result {
		cmd := exec.Command(w.Bin, args...)
		cmd.Env = w.Env()
		if stdin != "" {
			f, err := os.Open(stdin)
			if err == nil {
				defer f.Close()
				cmd.Stdin = f
			}
		}
		out, errb := &strings.Builder{}, &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, errb
		err := cmd.Run()
		r := world.Result{Stdout: out.String(), Stderr: errb.String()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.Code = ee.ExitCode()
		}
		evidence = append(evidence, fmt.Sprintf("lanes %s: exit %d: %s", strings.Join(args, " "),
			r.Code, strings.ReplaceAll(strings.TrimSpace(r.Stdout+r.Stderr), "\n", " / ")))
		return r
	}
	kill := run(os.DevNull, "kill", "build")
	attach := run("", "attach", "c")
	send := run("", "send", "c", "hi")
	restart := run("", "restart", "c")
	ev := strings.Join(evidence, "\n")
	switch {
	case strings.Count(kill.Stderr, "its agent may still run") != 1:
		return ev, fmt.Errorf("kill with stdin /dev/null does not explain exactly once")
	case strings.Contains(kill.Stderr+send.Stderr, "showing what the store holds"):
		return ev, fmt.Errorf("kill or send prints ls's warning")
	case attach.Code == 0 || strings.Contains(attach.Stderr, "exit status") || !strings.Contains(attach.Stderr, "not running"):
		return ev, fmt.Errorf("attach while the server is down is not a clear lanes error")
	case restart.Code != 0 || !strings.Contains(restart.Stdout, "tmux server was not running: started c again in a new server"):
		return ev, fmt.Errorf("restart on a down server does not say it started a new one")
	}
	return ev, nil
}

// drillUsageWords: small mistakes get the right words and usage's exit 2
// (trial item 13).
func drillUsageWords(w *world.World) (string, error) {
	var evidence []string
	for _, c := range []struct {
		args []string
		ok   func(world.Result) bool
	}{
		{[]string{"hooks", "install", "claude", "--project", "/nonexistent", "--dry-run"},
			func(r world.Result) bool { return strings.Contains(r.Stderr, "--project /nonexistent") }},
		{[]string{"new"}, func(r world.Result) bool { return r.Code == 2 && !strings.Contains(r.Stderr, "before --") }},
		{[]string{"new", "a.b"}, func(r world.Result) bool { return r.Code == 2 }},
		{[]string{"new", "ü"}, func(r world.Result) bool { return r.Code == 2 }},
		{[]string{"new", "lanes-c"}, func(r world.Result) bool { return r.Code == 2 }},
		{[]string{"version", "--help"}, func(r world.Result) bool { return !strings.Contains(r.Stdout, "version \n") }},
	} {
		r := w.Lanes("", c.args...)
		evidence = append(evidence, fmt.Sprintf("lanes %s: exit %d: %s", strings.Join(c.args, " "), r.Code, firstLine(r.Stderr+r.Stdout)))
		if !c.ok(r) {
			return strings.Join(evidence, "\n"), fmt.Errorf("lanes %s: wrong words or exit code", strings.Join(c.args, " "))
		}
	}
	return strings.Join(evidence, "\n"), nil
}
