package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
)

// stopServer stops the world's tmux server (SIGSTOP): it keeps its socket
// but answers nothing. The returned func lets it go on.
func stopServer(w *world.World) (resume func(), err error) {
	out, err := w.Tmux(w.Socket, "display-message", "-p", "#{pid}")
	if err != nil {
		return nil, fmt.Errorf("tmux pid: %v %s", err, out)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return nil, fmt.Errorf("tmux pid %q: %v", out, err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return nil, err
	}
	resume = func() { _ = syscall.Kill(pid, syscall.SIGCONT) }
	w.OnClose(resume)
	return resume, nil
}

// drillBoardWhileHung: with the sessions' tmux server stopped, the board's
// title says so for as long as it lasts, and its kill confirm says what y
// does then; the note goes when tmux answers again.
func drillBoardWhileHung(w *world.World) (string, error) {
	if err := w.NewSleeper("api"); err != nil {
		return "", err
	}
	view := w.Socket + "-view"
	if err := w.StartBoard(view, 80, 24); err != nil {
		return "", err
	}
	screen := func() string { return w.Screen(view) }
	title := func() string { return firstLine(screen()) }
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(screen(), "api") }) {
		return screen(), fmt.Errorf("the board never showed the session")
	}
	resume, err := stopServer(w)
	if err != nil {
		return "", err
	}
	const note = "tmux is not answering"
	if !world.WaitFor(15*time.Second, func() bool { return strings.Contains(title(), note) }) {
		return screen(), fmt.Errorf("the title never said tmux is not answering")
	}
	hung := time.Now()
	lasts := 10 * time.Second // past the bottom line's flash
	if *quick {
		lasts = 6 * time.Second
	}
	for time.Since(hung) < lasts {
		if t := title(); !strings.Contains(t, note) {
			return screen(), fmt.Errorf("the note left the title %v into the hang: %q", time.Since(hung).Round(time.Second), t)
		}
		time.Sleep(200 * time.Millisecond)
	}
	lasted := title()
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(screen(), "Unknown") }) {
		return screen(), fmt.Errorf("the card never showed Unknown")
	}
	_, _ = w.Tmux(view, "send-keys", "x")
	asked := "y marks it terminated anyway"
	if !world.WaitFor(5*time.Second, func() bool { return strings.Contains(strings.Join(strings.Fields(screen()), " "), asked) }) {
		return screen(), fmt.Errorf("the kill confirm does not say what y does while tmux is down")
	}
	confirm := screen()
	_, _ = w.Tmux(view, "send-keys", "n")
	resume()
	if !world.WaitFor(15*time.Second, func() bool { return !strings.Contains(title(), note) }) {
		return screen(), fmt.Errorf("the note stayed after tmux answered")
	}
	return fmt.Sprintf("title %v into the hang: %q\nkill confirm:\n%s\nafter tmux answered: %q",
		lasts, strings.TrimSpace(lasted), confirmBox(confirm), strings.TrimSpace(title())), nil
}

// confirmBox is the dialog's lines of a screen.
func confirmBox(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.ContainsAny(l, "┃│") && (strings.Contains(l, "Kill") || strings.Contains(l, "answering") ||
			strings.Contains(l, "anyway") || strings.Contains(l, "server") || strings.Contains(l, " yes ")) {
			out = append(out, strings.TrimRight(l, " "))
		}
	}
	return strings.Join(out, "\n")
}

// drillStartingWhileHung: a lanes new that times out against a stopped
// server leaves a start in flight, which shows unreachable like the rest.
func drillStartingWhileHung(w *world.World) (string, error) {
	if err := w.NewSleeper("api"); err != nil {
		return "", err
	}
	resume, err := stopServer(w)
	if err != nil {
		return "", err
	}
	defer resume()
	started := w.Lanes("", "new", "hungnew", "--", "sleep", "86400")
	s, err := w.Ls()
	if err != nil {
		return "", err
	}
	evidence := fmt.Sprintf("new while tmux is stopped: exit %d (%s); then ls: api %s %v, hungnew %s %v",
		started.Code, firstLine(started.Stderr), s["api"].Status, s["api"].Marks, s["hungnew"].Status, s["hungnew"].Marks)
	switch {
	case started.Code == 0:
		return evidence, fmt.Errorf("lanes new succeeded against a stopped server")
	case !slices.Contains(s["hungnew"].Marks, "unreachable") || s["hungnew"].Status != "unknown":
		return evidence, fmt.Errorf("the start in flight does not show its server unreachable")
	}
	return evidence, nil
}

// drillHungMessages: the store-busy message says the time waited, rounded;
// `lanes kill --yes` with the server gone says it only marked the session.
func drillHungMessages(w *world.World) (string, error) {
	if err := w.NewSleeper("a"); err != nil {
		return "", err
	}
	f, err := os.OpenFile(filepath.Join(w.State, "lanes.db"), os.O_RDWR, 0)
	if err != nil {
		return "", err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return "", err
	}
	busy := w.Lanes("", "kill", "a", "--yes")
	f.Close() // releases the lock
	if out, err := w.Tmux(w.Socket, "kill-server"); err != nil {
		return "", fmt.Errorf("kill-server: %v %s", err, out)
	}
	killed := w.Lanes("", "kill", "a", "--yes")
	evidence := fmt.Sprintf("store held: %q (took %v)\ntmux gone, kill --yes: %q",
		firstLine(busy.Stderr), busy.Took.Round(time.Millisecond), firstLine(killed.Stdout))
	switch {
	case !regexp.MustCompile(`gave up after (\d+ ms|\d+\.\d\d s):`).MatchString(busy.Stderr):
		return evidence, fmt.Errorf("the busy message does not say the wait rounded")
	case killed.Code != 0 || !strings.HasPrefix(killed.Stdout, "marked a terminated: tmux was not answering, so its agent was not stopped"):
		return evidence, fmt.Errorf("kill --yes with tmux gone does not say it only marked the session")
	}
	return evidence, nil
}
