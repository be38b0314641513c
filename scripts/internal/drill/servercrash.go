package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
)

// tmuxSegfaults counts the kernel log's lines of a tmux process that
// segfaulted; ok is false when the log cannot be read (not root, say).
func tmuxSegfaults() (n int, ok bool) {
	out, err := exec.Command("dmesg").Output()
	if err != nil {
		return 0, false
	}
	for l := range strings.Lines(string(out)) {
		if strings.Contains(l, "tmux") && strings.Contains(l, "segfault") {
			n++
		}
	}
	return n, true
}

// serverPID is the pid of the tmux server on socket, "" when none answers.
func serverPID(w *world.World, socket string) string {
	out, err := w.Tmux(socket, "display-message", "-p", "#{pid}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// drillNoServerCrash (issue 38): a board starting while lanes new, kill
// and restart run at once, on fresh servers and on one that lives through
// them all, in 4 workers side by side. tmux up to 3.6a crashed in 1 run of
// 12 when the board's control client connected meanwhile. Each run checks
// that every session made is there and the server's pid is the one that
// made them; the kernel log must show no tmux segfault.
func drillNoServerCrash(w *world.World) (string, error) {
	n := 500
	if *quick {
		n = 24
	}
	before, klog := tmuxSegfaults()
	longPID := serverPID(w, w.Socket)
	if longPID == "" {
		return "", fmt.Errorf("the long-lived server does not answer")
	}
	var (
		mu     sync.Mutex
		failed []string
		fresh  int
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range jobs {
				if err := crashRound(w, i, longPID); err != nil {
					mu.Lock()
					failed = append(failed, fmt.Sprintf("run %d: %v", i, err))
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		if i%2 == 0 {
			fresh++
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	after, _ := tmuxSegfaults()
	evidence := fmt.Sprintf("%d runs (%d on fresh servers, %d on one long-lived server, pid %s): a board starting, 3 lanes new, a kill, a restart and plain sessions opening and closing at once; %d failed",
		n, fresh, n-fresh, longPID, len(failed))
	if klog {
		evidence += fmt.Sprintf("; kernel log: %d new tmux segfaults", after-before)
	} else {
		evidence += "; kernel log unreadable here: the servers' pids alone checked"
	}
	if len(failed) > 0 {
		return evidence + "\n" + strings.Join(failed[:min(len(failed), 5)], "\n"), fmt.Errorf("a tmux server crashed or lost sessions")
	}
	if after > before {
		return evidence, fmt.Errorf("the kernel log shows a tmux segfault")
	}
	if now := serverPID(w, w.Socket); now != longPID {
		return evidence, fmt.Errorf("the long-lived server's pid went from %s to %q", longPID, now)
	}
	return evidence, nil
}

// crashRound is one run: even ones on a fresh server, odd ones on the
// world's own.
func crashRound(w *world.World, i int, longPID string) error {
	socket, wantPID := w.Socket, longPID
	if i%2 == 0 {
		socket = w.Socket + "-f" + strconv.Itoa(i)
		defer func() { _, _ = w.Tmux(socket, "kill-server") }()
		wantPID = ""
	}
	dir := filepath.Join(w.Root, "crash", strconv.Itoa(i))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	env := append(w.Env(), "LANES_TMUX_SOCKET="+socket, "LANES_STATE_DIR="+dir)
	lanes := func(args ...string) (string, error) {
		cmd := exec.Command(w.Bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	view := w.Socket + "-cv"
	board := "b" + strconv.Itoa(i)
	args := append([]string{"new-session", "-d", "-s", board, "-x", "100", "-y", "30", "env"}, env...)
	if out, err := w.Tmux(view, append(args, w.Bin)...); err != nil {
		return fmt.Errorf("starting the board: %v %s", err, out)
	}
	defer func() { _, _ = w.Tmux(view, "kill-session", "-t", "="+board) }()
	time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
	// The board reads every second: sessions open and close over its
	// first three cycles, when a control client would connect.
	var errs []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	// And plain tmux sessions open and close as fast as tmux takes them,
	// as a user's shells and other tools do; one always stays, so the
	// churn never empties a fresh server (an empty server exits, and a
	// client connecting then is told "server exited unexpectedly": not a
	// crash).
	churnEnd := time.Now().Add(2500 * time.Millisecond)
	wg.Go(func() {
		for j := 0; time.Now().Before(churnEnd); j++ {
			_, _ = w.Tmux(socket, "new-session", "-d", "-s", fmt.Sprintf("c%d-%d", i, j%3), "sleep", "600")
			if j > 0 {
				_, _ = w.Tmux(socket, "kill-session", "-t", fmt.Sprintf("=c%d-%d", i, (j-1)%3))
			}
		}
	})
	for k := range 3 {
		wg.Go(func() {
			time.Sleep(time.Duration(rand.IntN(1500)) * time.Millisecond)
			name := fmt.Sprintf("r%ds%d", i, k)
			if out, err := lanes("new", name, "--", "sleep", "3600"); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Sprintf("new %s: %v %s", name, err, strings.TrimSpace(out)))
				mu.Unlock()
				return
			}
			time.Sleep(time.Duration(rand.IntN(1000)) * time.Millisecond)
			verb := []string{"kill", "restart", "ls"}[k]
			if out, err := lanes(verb, name); err != nil && verb != "ls" {
				mu.Lock()
				errs = append(errs, fmt.Sprintf("%s %s: %v %s", verb, name, err, strings.TrimSpace(out)))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	time.Sleep(time.Duration(rand.IntN(1000)) * time.Millisecond)
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	pid := serverPID(w, socket)
	switch {
	case pid == "":
		return fmt.Errorf("server %s does not answer", socket)
	case wantPID != "" && pid != wantPID:
		return fmt.Errorf("server %s: pid %s, was %s", socket, pid, wantPID)
	}
	out, err := w.Tmux(socket, "list-sessions", "-F", "#{session_name}")
	if err != nil {
		return fmt.Errorf("list-sessions: %v %s", err, out)
	}
	for _, k := range []int{1, 2} {
		if name := fmt.Sprintf("lanes-r%ds%d", i, k); !strings.Contains(out, name+"\n") {
			return fmt.Errorf("server %s lost %s: it has %q", socket, name, out)
		}
	}
	if wantPID != "" { // the long-lived server: leave it as it was
		_, _ = lanes("kill", fmt.Sprintf("r%ds1", i))
		_, _ = lanes("kill", fmt.Sprintf("r%ds2", i))
	}
	return nil
}

// drillServerKilled: the tmux server crashes (SIGSEGV) under a running
// board: the board says at once that it exited and what brings its
// sessions back, records their end as the server's, and lanes restore --all brings them back on a new server,
// on the same board (issue 38).
func drillServerKilled(w *world.World) (string, error) {
	for _, n := range []string{"a", "b"} {
		if err := w.NewSleeper(n); err != nil {
			return "", err
		}
	}
	view := w.Socket + "-view"
	if err := w.StartBoard(view, 120, 40); err != nil {
		return "", err
	}
	screen := func() string { return w.Screen(view) }
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(screen(), "a") && strings.Contains(screen(), "Working") }) {
		return screen(), fmt.Errorf("the board never showed the sessions")
	}
	pid, err := strconv.Atoi(serverPID(w, w.Socket))
	if err != nil {
		return "", fmt.Errorf("the server's pid: %v", err)
	}
	if err := syscall.Kill(pid, syscall.SIGSEGV); err != nil {
		return "", err
	}
	crashed := time.Now()
	const said = "tmux server -L "
	if !world.WaitFor(10*time.Second, func() bool {
		return strings.Contains(screen(), said) && strings.Contains(screen(), "exited: 2 sessions ended with it")
	}) {
		return screen(), fmt.Errorf("the board did not say the server exited")
	}
	seen := time.Since(crashed).Round(10 * time.Millisecond)
	if dead, _ := w.Tmux(view, "display-message", "-p", "#{pane_dead}"); strings.TrimSpace(dead) != "0" {
		return screen(), fmt.Errorf("the board exited when its tmux server died")
	}
	s, err := w.Ls()
	if err != nil {
		return "", err
	}
	for _, n := range []string{"a", "b"} {
		if !s[n].IsTerminated || s[n].TerminatedReason == nil || *s[n].TerminatedReason != "tmux server exited" {
			return "", fmt.Errorf("%s after the crash: %+v", n, s[n])
		}
	}
	evidence := fmt.Sprintf("SIGSEGV to the server: the board said %q %s later; a and b ended (tmux server exited); board alive",
		"tmux server -L … exited: 2 sessions ended with it — `lanes restore --all`", seen)
	restored := w.Lanes("", "restore", "--all")
	if restored.Code != 0 {
		return evidence, fmt.Errorf("restore --all: exit %d %s", restored.Code, restored.Stderr)
	}
	if !world.WaitFor(15*time.Second, func() bool {
		return strings.Contains(screen(), "○ a ") && strings.Contains(screen(), "○ b ")
	}) {
		return screen(), fmt.Errorf("restore --all did not bring a and b back on the board")
	}
	if err := w.NewSleeper("c"); err != nil {
		return evidence, err
	}
	if !world.WaitFor(10*time.Second, func() bool {
		return strings.Contains(screen(), "○ c ") || strings.Contains(screen(), "● c ")
	}) {
		return screen(), fmt.Errorf("the board did not show the new session without a restart")
	}
	return evidence + "\nrestore --all: " + strings.TrimSpace(restored.Stdout) + "; a and b back on a new server, c appears on the same board", nil
}
