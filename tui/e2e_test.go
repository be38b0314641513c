package tui_test

// End-to-end tests: the built lanes binary runs the board inside a pane of a
// private tmux server (tmuxtest.Server), sessions are made with `lanes new`,
// hooks are written with `lanes hook`, and what the board shows is read
// back with capture-pane. They never touch the user's tmux server or home.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lanes/internal/remote/sshtest"
	"lanes/internal/testenv"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// e2e is one board under test.
type e2e struct {
	t        *testing.T
	srv      *tmux.Client
	bin      string
	env      []string
	pane     string // the board's pane
	stateDir string
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// TestMain removes the lanes binary the end-to-end tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	sshtest.Cleanup()
	os.Exit(code)
}

// lanesBinary builds lanes and lanes-board once per test binary; the
// tests start lanes, which execs the board next to it.
func lanesBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		testenv.Skip(t, "go toolchain not on PATH")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lanes-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "lanes")
		cmd := exec.Command(goBin, "build", "-o", dir+string(filepath.Separator), "lanes/cmd/lanes", "lanes/cmd/lanes-board")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// startBoard runs `lanes --theme dark` in a w×h pane of a private server,
// with extra KEY=VALUE settings (a later one wins).
func startBoard(t *testing.T, w, h int, extra ...string) *e2e {
	t.Helper()
	srv := tmuxtest.Server(t) // the tmux tier
	e := &e2e{t: t, srv: srv, bin: lanesBinary(t), stateDir: t.TempDir()}
	e.env = []string{
		"LANES_STATE_DIR=" + e.stateDir, "HOME=" + t.TempDir(), "LANES_TMUX_SOCKET=" + srv.Socket,
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color",
	}
	e.env = append(e.env, extra...)
	// env -i: the board sees only this environment; no $TMUX, so enter
	// attaches with tmux attach (the path a user outside tmux takes).
	args := []string{"new-session", "-d", "-s", "board", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h),
		"-P", "-F", "#{pane_id}", "--", "env", "-i"}
	args = append(args, e.env...)
	args = append(args, e.bin, "--theme", "dark")
	out, err := srv.Run(t.Context(), args...)
	if err != nil {
		t.Fatalf("starting the board: %v", err)
	}
	e.pane = strings.TrimSpace(string(out))
	// Stop the board before the temp dirs go (cleanups run last-first):
	// a board still running would create its state dir again.
	pid, _ := srv.Run(t.Context(), "display-message", "-p", "-t", e.pane, "#{pane_pid}")
	t.Cleanup(func() {
		_, _ = srv.Run(context.Background(), "kill-server")
		proc := "/proc/" + strings.TrimSpace(string(pid))
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(proc); err != nil {
				return
			}
		}
	})
	e.waitScreen("the board", func(s string) bool { return strings.Contains(s, "Working") && strings.Contains(s, "Done") })
	return e
}

// lanes runs the lanes binary with the test's environment.
func (e *e2e) lanes(args ...string) string {
	e.t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Env = e.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("lanes %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (e *e2e) screen() string {
	out, err := e.srv.Run(e.t.Context(), "capture-pane", "-p", "-t", e.pane)
	if err != nil {
		e.t.Fatalf("capture-pane: %v", err)
	}
	return string(out)
}

// waitScreen polls the board's pane until cond holds (deadline 10 s).
func (e *e2e) waitScreen(what string, cond func(screen string) bool) string {
	e.t.Helper()
	return e.waitScreenWithin(10*time.Second, what, cond)
}

// waitScreenWithin is waitScreen with a deadline of d.
func (e *e2e) waitScreenWithin(d time.Duration, what string, cond func(screen string) bool) string {
	e.t.Helper()
	deadline := time.Now().Add(d)
	var s string
	for time.Now().Before(deadline) {
		if s = e.screen(); cond(s) {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("waiting for %s; the board shows:\n%s", what, s)
	return ""
}

func (e *e2e) keys(keys ...string) {
	e.t.Helper()
	if _, err := e.srv.Run(e.t.Context(), append([]string{"send-keys", "-t", e.pane}, keys...)...); err != nil {
		e.t.Fatalf("send-keys: %v", err)
	}
}

// laneOf says which lane's column shows name on the board (not the
// sidebar): the lane whose header starts at or left of the name.
func laneOf(screen, name string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) < 2 {
		return ""
	}
	type col struct {
		x    int
		lane string
	}
	var cols []col
	header := []rune(lines[1])
	for _, lane := range []string{"Working", "Needs you", "In review", "Ready to merge", "Done"} {
		if i := strings.Index(string(header), lane); i >= 0 {
			x := len([]rune(string(header)[:i])) - 2 // the glyph and its space
			cols = append(cols, col{x, lane})
		}
	}
	if len(cols) == 0 {
		return ""
	}
	for _, line := range lines[2:] {
		rs := []rune(line)
		for x := cols[0].x; x+len(name) <= len(rs); x++ {
			if string(rs[x:x+len(name)]) != name || (x > 0 && rs[x-1] != ' ') ||
				(x+len(name) < len(rs) && rs[x+len(name)] != ' ') {
				continue
			}
			lane := ""
			for _, c := range cols {
				if c.x <= x {
					lane = c.lane
				}
			}
			return lane
		}
	}
	return ""
}

func (e *e2e) waitLane(name, lane string) {
	e.t.Helper()
	e.waitScreen(name+" in "+lane, func(s string) bool { return laneOf(s, name) == lane })
}

func TestE2ECardsArriveInTheirLanes(t *testing.T) {
	e := startBoard(t, 160, 48)

	e.lanes("new", "alpha", "--", "sh", "-c", "echo ALPHA; sleep 3600")
	e.waitLane("alpha", "Working") // no hooks yet: the idle stack
	e.waitScreen("alpha idle", func(s string) bool { return strings.Contains(s, "○ Idle · 1") })

	e.lanes("hook", "generic", "active", "--session", "alpha")
	e.waitScreen("alpha working", func(s string) bool { return strings.Contains(s, "● 1 working") })
	e.waitLane("alpha", "Working")

	e.lanes("hook", "generic", "waiting_input", "--session", "alpha")
	e.waitLane("alpha", "Needs you")
	e.waitScreen("the Needs input badge", func(s string) bool { return strings.Contains(s, "◆ Needs input") })

	e.lanes("hook", "generic", "idle", "--session", "alpha")
	e.lanes("pr", "alpha", "--number", "7", "--state", "open", "--review", "pending")
	e.waitLane("alpha", "In review")

	e.lanes("pr", "alpha", "--number", "7", "--review", "approved", "--mergeable", "yes")
	e.waitLane("alpha", "Ready to merge")

	e.lanes("new", "beta", "--", "sh", "-c", "exit 3")
	e.waitLane("beta", "Needs you")
	e.waitScreen("beta's exit detail", func(s string) bool { return strings.Contains(s, "exited (3)") })

	e.lanes("kill", "alpha")
	e.waitLane("alpha", "Done")
	e.waitScreen("alpha terminated", func(s string) bool { return strings.Contains(s, "□ Terminated") })
}

func TestE2EAttachAndDetach(t *testing.T) {
	e := startBoard(t, 120, 36)
	e.lanes("new", "gamma", "--", "sh", "-c", "echo GAMMA-SCREEN; sleep 3600")
	e.waitLane("gamma", "Working")
	// Select gamma: the only session, in the (open) idle stack.
	e.waitScreen("the idle stack open", func(s string) bool { return strings.Contains(s, "Idle · 1") && strings.Contains(s, "▾") })
	e.keys("j")
	e.waitScreen("gamma selected", func(s string) bool { return strings.Contains(s, "▌ ○ gamma") })

	e.keys("Enter")
	e.waitScreen("gamma's pane", func(s string) bool {
		return strings.Contains(s, "GAMMA-SCREEN") && !strings.Contains(s, "Ready to merge")
	})
	e.keys("C-b", "d") // tmux's default prefix, then detach
	e.waitScreen("the board again", func(s string) bool {
		return strings.Contains(s, "Ready to merge") && strings.Contains(s, "detached from gamma")
	})
}

// TestE2EHookToCardLatency measures how long a hook line takes to show on
// the board (budget p95 ≤ 100 ms): from the moment `lanes hook` exits (its
// line is written by then) and, as an upper bound, from the moment it
// starts, to the first capture-pane that shows the change. Each capture
// takes a few ms, so the figures run a little high. It logs them; a test
// never fails on wall-clock time.
func TestE2EHookToCardLatency(t *testing.T) {
	e := startBoard(t, 120, 36)
	e.lanes("new", "delta", "--", "sh", "-c", "sleep 3600")
	e.lanes("hook", "generic", "idle", "--session", "delta")
	e.waitScreen("delta idle", func(s string) bool { return strings.Contains(s, "○ Idle · 1") })
	var fromExit, fromStart []time.Duration
	for i := range 20 {
		event, want := "active", "● 1 working"
		if i%2 == 1 {
			event, want = "idle", "● 0 working"
		}
		// Land anywhere between ticks, so the spool watch is what moves the card.
		time.Sleep(time.Duration(137*i%500) * time.Millisecond)
		start := time.Now()
		e.lanes("hook", "generic", event, "--session", "delta")
		exited := time.Now()
		for !strings.Contains(e.screen(), want) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("delta never showed %s", event)
			}
			time.Sleep(2 * time.Millisecond) // a capture costs tmux more than this
		}
		fromExit = append(fromExit, time.Since(exited))
		fromStart = append(fromStart, time.Since(start))
	}
	for _, s := range [][]time.Duration{fromExit, fromStart} {
		slices.Sort(s)
	}
	p := func(s []time.Duration, q int) time.Duration { return s[(len(s)-1)*q/100].Round(time.Millisecond) }
	t.Logf("hook → card latency over %d moves: from the hook's exit p50 %v p95 %v max %v; from its start p50 %v p95 %v",
		len(fromExit), p(fromExit, 50), p(fromExit, 95), p(fromExit, 100), p(fromStart, 50), p(fromStart, 95))
}
