package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// boards runs the board (lanes, headless) in a 200×50 pane of a second
// private server, one board at a time, and measures it: idle CPU with its
// tmux children, RSS, hook → card latency, first paint, tmux execs.
type boards struct {
	w          *world.World
	view       string
	shim, log  string // the exec-counting tmux in front of the real one
	serverPID  int    // the sessions' tmux server
	idleWindow time.Duration
}

func newBoards(w *world.World) *boards {
	shim, log := shimTmux(w)
	out, err := w.Tmux(w.Socket, "display-message", "-p", "#{pid}")
	if err != nil {
		fail(fmt.Errorf("the tmux server's pid: %v: %s", err, out))
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(out))
	window := 60 * time.Second
	if *quick {
		window = 5 * time.Second
	}
	return &boards{w: w, view: w.Socket + "-view", shim: shim, log: log, serverPID: pid, idleWindow: window}
}

func (b *boards) close() { _, _ = b.w.Tmux(b.view, "kill-server") }

// start (re)starts the board, with or without the exec-counting shim (the
// shim's own sh would add to the CPU figure), and waits for it to draw.
func (b *boards) start(counted bool) (pid int) {
	b.close()
	path := os.Getenv("PATH")
	if counted {
		path = filepath.Dir(b.shim) + ":" + path
	}
	var err error
	// A server just killed may still hold its socket for a moment.
	world.WaitFor(5*time.Second, func() bool { err = b.w.StartBoard(b.view, 200, 50, "PATH="+path); return err == nil })
	if err != nil {
		fail(err)
	}
	// The pane runs env, which execs lanes, which execs lanes-board: one pid.
	p, _ := b.w.Tmux(b.view, "display-message", "-p", "#{pane_pid}")
	pid, _ = strconv.Atoi(strings.TrimSpace(p))
	if !world.WaitFor(30*time.Second, func() bool { return painted(b.w.Screen(b.view)) }) {
		fail(fmt.Errorf("the board never drew:\n%s", b.w.Screen(b.view)))
	}
	if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); strings.TrimSpace(string(comm)) != "lanes-board" {
		fail(fmt.Errorf("pid %d of the board's pane is %q, not lanes-board: the CPU and RSS figures would be someone else's", pid, comm))
	}
	return pid
}

var (
	workingRE = regexp.MustCompile(`● (\d+) working`)
	idleRE    = regexp.MustCompile(`○ ([1-9]\d*) idle`)
)

// painted: the title shows the sessions' counts (the sleepers are idle).
func painted(screen string) bool { return idleRE.MatchString(screen) }

func workingCount(s string) string {
	if m := workingRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// quiet puts back to idle the sessions the hook measurements made work:
// a working agent's dot breathes, and idle means nothing active.
func (b *boards) quiet() {
	for _, n := range []string{"s0", "s1"} {
		b.w.Lanes("", "hook", "generic", "idle", "--session", n)
	}
}

// idleCPU is the board's CPU over the idle window with everything it
// runs: its own, its reaped children's (tmux clients it started and
// waited for) and its live children's (the control-mode tmux client lives
// as long as the board). Beside it, as a reference, the tmux server's.
func (b *boards) idleCPU(n int, budget float64) {
	b.quiet()
	pid := b.start(false)
	time.Sleep(3 * time.Second) // past the first cycles
	own0, reaped0 := procCPU(pid)
	live0 := liveChildren(pid)
	srv0, _ := procCPU(b.serverPID)
	t0 := time.Now()
	time.Sleep(b.idleWindow)
	own1, reaped1 := procCPU(pid)
	live1 := liveChildren(pid)
	srv1, _ := procCPU(b.serverPID)
	took := time.Since(t0).Seconds()
	// A live child seen at both ends counts its difference; one that
	// started inside the window counts all it used by the end. One that
	// exited inside it was reaped: its whole life is in reaped (also what
	// it used before the window, so the figure errs high, never low).
	var live time.Duration
	for kid, end := range live1 {
		live += end - live0[kid]
	}
	pct := func(d time.Duration) float64 { return d.Seconds() / took * 100 }
	cpu := pct(own1 - own0 + reaped1 - reaped0 + live)
	add(fmt.Sprintf("board idle CPU, %d sessions, %v, with tmux children", n, b.idleWindow), fmt.Sprintf("≤ %g %% of a core", budget),
		fmt.Sprintf("%.2f %% (board %.2f %%, reaped children %.2f %%, live children %.2f %%: %d at the end)",
			cpu, pct(own1-own0), pct(reaped1-reaped0), pct(live), len(live1)), cpu <= budget)
	add(fmt.Sprintf("reference: the sessions' tmux server meanwhile, %d sessions", n), "—", fmt.Sprintf("%.2f %%", pct(srv1-srv0)), true)
}

// execRates counts the tmux execs of a board with the preview closed and
// open. They are counts: a window of 10 s or more keeps one exec more or
// less from deciding the figure.
func (b *boards) execRates() {
	window := max(b.idleWindow/2, 10*time.Second)
	// A budget of n a second is met by n things a second, each at most
	// once a second: a window of W seconds holds at most n·(W+1) of them
	// (on tmux before 3.7 the board's read is one exec a second).
	var within float64
	rate := func(n float64) float64 {
		_ = os.WriteFile(b.log, nil, 0o600)
		t0 := time.Now()
		time.Sleep(window)
		secs := time.Since(t0).Seconds()
		count := float64(countLines(b.log))
		within = n*(secs+1) - count
		return count / secs
	}
	b.start(true)
	time.Sleep(2 * time.Second)
	execs := rate(1)
	addHard("tmux execs per second, board idle, 100 sessions", "≤ 1", fmt.Sprintf("%.2f", execs), within >= 0)
	// The preview shows the selected session: at first the selection is
	// the idle stack's header (a closed stack past a few sessions), so
	// move it onto a session, opening the stack if need be.
	_, _ = b.w.Tmux(b.view, "send-keys", "p")
	previewing := func() bool { return strings.Contains(b.w.Screen(b.view), "preview · s") }
	for _, k := range []string{"Down", "i", "Down"} {
		if world.WaitFor(time.Second, previewing) {
			break
		}
		_, _ = b.w.Tmux(b.view, "send-keys", k)
	}
	if !world.WaitFor(5*time.Second, previewing) {
		fail(fmt.Errorf("the preview never showed a session:\n%s", b.w.Screen(b.view)))
	}
	time.Sleep(time.Second)
	execs = rate(2)
	addHard("tmux execs per second, preview open, 100 sessions", "≤ 2", fmt.Sprintf("%.2f", execs), within >= 0)
}

// rss is the settled board's resident memory, and its split: anonymous
// (the board's own heap and stacks) and file-backed (mostly the binary's
// pages, shared with any other lanes-board).
func (b *boards) rss(n int, budgetMB float64, budget string) {
	pid := b.start(false)
	m := b.memory(pid)
	add(fmt.Sprintf("board RSS, %d sessions", n), budget, m.String(), m.max <= budgetMB)
}

// floorRSS is the same figure for btfloor, a Bubble Tea v2 program that
// only draws a screen of the board's shape: the floor under the board's.
func (b *boards) floorRSS() memory {
	b.close()
	floor := filepath.Join(filepath.Dir(b.w.Bin), "btfloor")
	var err error
	world.WaitFor(5*time.Second, func() bool {
		// Two words: tmux runs them without a shell, and env execs
		// btfloor in its place, so the pane's pid is btfloor's.
		_, err = b.w.Tmux(b.view, "new-session", "-d", "-x", "200", "-y", "50", "env", floor)
		return err == nil
	})
	if err != nil {
		fail(fmt.Errorf("starting btfloor: %v", err))
	}
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(b.w.Screen(b.view), "floor") }) {
		fail(fmt.Errorf("btfloor never drew:\n%s", b.w.Screen(b.view)))
	}
	p, _ := b.w.Tmux(b.view, "display-message", "-p", "#{pane_pid}")
	pid, _ := strconv.Atoi(strings.TrimSpace(p))
	if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); strings.TrimSpace(string(comm)) != "btfloor" {
		fail(fmt.Errorf("pid %d of btfloor's pane is %q", pid, comm))
	}
	m := b.memory(pid)
	add("reference: a bare Bubble Tea v2 screen, 200×50 (the floor)", "—", m.String(), true)
	b.close()
	return m
}

// memory is a process's resident memory over a window after it settled
// (the Go heap grows to its goal between collections, so one early
// sample would read low): samples every 500 ms, the split at the largest.
type memory struct{ mean, max, anon, file float64 }

func (b *boards) memory(pid int) memory {
	window := 20 * time.Second
	if *quick {
		window = 5 * time.Second
	}
	time.Sleep(2 * time.Second) // past the first cycles
	var m memory
	var sum float64
	n := 0
	for end := time.Now().Add(window); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		rss := procStatus(pid, "VmRSS") / 1024
		sum += rss
		n++
		if rss >= m.max {
			m.max = rss
			m.anon = smapsRollup(pid, "Anonymous") / 1024
			m.file = smapsRollup(pid, "Rss")/1024 - m.anon
		}
	}
	m.mean = sum / float64(n)
	return m
}

func (m memory) String() string {
	return fmt.Sprintf("max %.1f MB, mean %.1f (at the max: anonymous %.1f, file-backed %.1f)", m.max, m.mean, m.anon, m.file)
}

// latency is hook line → card on screen, on the Working header's count,
// each hook landing at another offset between the board's cycles.
func (b *boards) latency(n int, budget time.Duration) {
	b.start(false)
	runs := 20
	if *quick {
		runs = 8
	}
	var samples []time.Duration
	for i := range runs {
		event := []string{"active", "idle"}[i%2]
		time.Sleep(time.Duration(137*i%500) * time.Millisecond)
		before := workingCount(b.w.Screen(b.view))
		t0 := time.Now()
		b.w.Lanes("", "hook", "generic", event, "--session", "s1")
		if !world.Poll(5*time.Second, 2*time.Millisecond, func() bool { return workingCount(b.w.Screen(b.view)) != before }) {
			fail(fmt.Errorf("the card never moved after %s:\n%s", event, b.w.Screen(b.view)))
		}
		samples = append(samples, time.Since(t0))
	}
	slices.Sort(samples)
	p50, p95 := samples[len(samples)/2], samples[(len(samples)*95+99)/100-1]
	add(fmt.Sprintf("hook line → card on screen, %d sessions", n), fmt.Sprintf("p95 ≤ %v", budget),
		fmt.Sprintf("p50 %v, p95 %v (%d runs)", p50.Round(time.Millisecond), p95.Round(time.Millisecond), runs), p95 <= budget)
}

// firstPaint is the time from starting the board until its title shows
// the sessions' counts, over 5 starts.
func (b *boards) firstPaint(n int, budgetMS float64) {
	var d []time.Duration
	for range 5 {
		b.close()
		var t0 time.Time
		var err error
		// A server just killed may still hold its socket for a moment.
		world.WaitFor(5*time.Second, func() bool { t0 = time.Now(); err = b.w.StartBoard(b.view, 200, 50); return err == nil })
		if err != nil {
			fail(err)
		}
		if !world.Poll(30*time.Second, 2*time.Millisecond, func() bool { return painted(b.w.Screen(b.view)) }) {
			fail(fmt.Errorf("the board never drew:\n%s", b.w.Screen(b.view)))
		}
		d = append(d, time.Since(t0))
	}
	s := summarize(d)
	add(fmt.Sprintf("board first paint after start, %d sessions", n), fmt.Sprintf("≤ %g ms", budgetMS),
		fmt.Sprintf("p50 %.0f ms, max %.0f ms (5 starts, counted from the new pane)", s.med, s.hi), s.med <= budgetMS)
}

func procStatus(pid int, key string) float64 {
	return procField(fmt.Sprintf("/proc/%d/status", pid), key)
}

func smapsRollup(pid int, key string) float64 {
	return procField(fmt.Sprintf("/proc/%d/smaps_rollup", pid), key)
}

// procField is the number after "key:" in a /proc file (kB for memory).
func procField(path, key string) float64 {
	b, _ := os.ReadFile(path)
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key+":") {
			f := strings.Fields(l)
			v, _ := strconv.ParseFloat(f[1], 64)
			return v
		}
	}
	return 0
}

// procCPU is pid's own CPU (utime+stime) and its reaped children's
// (cutime+cstime).
func procCPU(pid int) (own, reaped time.Duration) {
	f := statFields(pid)
	if f == nil {
		return 0, 0
	}
	return ticks(f, 11, 12), ticks(f, 13, 14) // fields 14–17, counted from state (field 3)
}

// liveChildren is the CPU (utime+stime) of each process whose parent is
// pid, by child pid.
func liveChildren(pid int) map[int]time.Duration {
	out := map[int]time.Duration{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		kid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		f := statFields(kid)
		if f == nil {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid { // field 4, counted from state
			out[kid] = ticks(f, 11, 12)
		}
	}
	return out
}

// statFields is /proc/pid/stat from field 3 (state) on, or nil.
func statFields(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
}

func ticks(f []string, i ...int) time.Duration {
	var t float64
	for _, j := range i {
		v, _ := strconv.ParseFloat(f[j], 64)
		t += v
	}
	return time.Duration(t / 100 * float64(time.Second)) // USER_HZ is 100 on Linux
}

// shimTmux puts a logging tmux in front of the real one.
func shimTmux(w *world.World) (shim, log string) {
	real, err := exec.LookPath("tmux")
	if err != nil {
		fail(err)
	}
	dir := filepath.Join(w.Root, "shim")
	log = filepath.Join(w.Root, "tmux-execs.log")
	shim = filepath.Join(dir, "tmux")
	_ = os.MkdirAll(dir, 0o700)
	script := fmt.Sprintf("#!/bin/sh\necho x >>'%s'\nexec '%s' \"$@\"\n", log, real)
	if err := os.WriteFile(shim, []byte(script), 0o700); err != nil {
		fail(err)
	}
	return shim, log
}

func withPath(shim string, f func()) {
	old := os.Getenv("PATH")
	os.Setenv("PATH", filepath.Dir(shim)+":"+old)
	defer os.Setenv("PATH", old)
	f()
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n")
}
