//go:build figures

package tui_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/agent"
	"lanes/internal/remote/sshtest"
	"lanes/state"
	"lanes/state/store"
)

// The figures of issue 33 at scale: one board over 10 hosts of 100
// sessions each, over loopback ssh (a private sshd, a lanes per host):
// its idle CPU with every process of its ssh, a remote hook to its card
// on screen, a remote `y` to the key in the remote pane, its RSS. Minutes
// long, so built only with the figures tag (go test -tags figures -v -run
// TestHostsScaleFigures ./tui); it logs, and asserts only that each
// figure was taken.
func TestHostsScaleFigures(t *testing.T) {
	const hosts, each, answers = 10, 100, 10
	rig := sshtest.New(t, hosts)
	began := time.Now()
	for _, h := range rig.Hosts {
		dir := t.TempDir()
		for i := range each {
			h.Lanes(t, "new", fmt.Sprintf("s%03d", i), "--dir", dir, "--", "sleep", "3600")
		}
	}
	var received []string
	for i := range answers {
		received = append(received, scaleFakeClaude(t, rig.Hosts[0], fmt.Sprintf("ask%d", i)))
	}
	t.Logf("%d sessions on %d hosts started in %s", hosts*each+answers, hosts, time.Since(began).Round(time.Second))
	cfg := t.TempDir()
	var lines string
	for _, h := range rig.Hosts {
		lines += h.Name + " " + h.Dest + "\n"
	}
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	e := startBoard(t, 200, 50, "XDG_CONFIG_HOME="+cfg, "LANES_SSH="+rig.SSH.Program)
	e.waitScreenWithin(2*time.Minute, "every host's sessions", func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("○ %d idle", hosts*each+answers))
	})
	board := boardPID(t, e)
	time.Sleep(5 * time.Second) // past the first reads: what is measured is idle
	cpu := busy(board, e.stateDir, 30*time.Second)
	figure(t, "idle-cpu-percent", cpu, "idle, 30 s: the board and its ssh, % of a core")

	h := rig.Hosts[3]
	var took []time.Duration
	for i := range 20 {
		// Needs you, then idle again (folded among the idle: the count).
		event, shown := "waiting_input", func(s string) bool { return laneOf(s, "s050") == "Needs you" }
		if i%2 == 1 {
			event, shown = "idle", func(s string) bool { return strings.Contains(s, "◆ 0 needs you") }
		}
		start := time.Now()
		h.Lanes(t, "hook", "generic", event, "--session", "s050")
		e.waitScreen("s050 after "+event, shown)
		took = append(took, time.Since(start))
	}
	quantiles(t, "hook-card", took, "remote hook → its card on screen")
	quantiles(t, "y-key", scaleAnswers(t, e, rig.Hosts[0], received), "remote y → the key in the remote pane")
	figure(t, "rss-mb", rss(t, board)/1024, "board RSS, MB")
}

// scaleFakeClaude starts session name on h: a fake Claude Code showing
// the recorded real dialog, writing each key it reads to the returned file.
func scaleFakeClaude(t *testing.T, h *sshtest.Host, name string) (received string) {
	t.Helper()
	dir := t.TempDir()
	received = filepath.Join(dir, "received")
	screen, err := filepath.Abs(filepath.Join("..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "claude")
	script := "#!/bin/sh\nclear; cat '" + screen + "'; stty raw -echo && exec cat > '" + received + "'\n"
	if err := os.WriteFile(fake, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	h.Lanes(t, "new", name, "--dir", dir, "--", fake)
	setAgent(t, h, name, "claude")
	return received
}

// scaleAnswers opens the dialog of each fake on h in turn (its hooks
// there) and presses y on its card, timing the key to its pane.
func scaleAnswers(t *testing.T, e *e2e, h *sshtest.Host, received []string) []time.Duration {
	t.Helper()
	var took []time.Duration
	for i, file := range received {
		name := fmt.Sprintf("ask%d", i)
		hookAs(t, h, name, "PreToolUse", "PermissionRequest")
		e.waitScreen(name+" in Needs you", func(s string) bool { return laneOf(s, name) == "Needs you" })
		e.keys("h", "h", "l") // the Needs you lane's one card
		e.waitScreen(name+" selected", func(s string) bool { return strings.Contains(s, "┃ ▲ "+name) })
		// Read as a person would: Claude Code drops keys for its first
		// 1.5 s (agent.KeyGuard), which an answer waits out there.
		time.Sleep(agent.KeyGuard(state.AgentClaude))
		start := time.Now()
		e.keys("y")
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if b, _ := os.ReadFile(file); len(b) > 0 {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("%s's answer never reached its pane; the board shows:\n%s", name, e.screen())
			}
		}
		took = append(took, time.Since(start))
		hookAs(t, h, name, "PostToolUse", "Stop") // out of Needs you
		e.waitScreen(name+" done", func(s string) bool { return strings.Contains(s, "◆ 0 needs you") })
	}
	return took
}

// setAgent makes session name's record on h say agent a: a custom
// command started it (lanes looks agents up on the PATH this test shares).
func setAgent(t *testing.T, h *sshtest.Host, name, a string) {
	t.Helper()
	if err := store.New(h.StateDir).Update(func(tx *store.Tx) error {
		r, err := tx.Resolve(name)
		if err != nil {
			return err
		}
		r.Agent = state.Agent(a)
		return tx.Put(r)
	}); err != nil {
		t.Fatal(err)
	}
}

// hookAs fires Claude Code's recorded events on h for session name, as
// its hooks would there.
func hookAs(t *testing.T, h *sshtest.Host, name string, events ...string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "claude", "permission-approve", "payloads.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		var payload string
		for _, l := range strings.Split(string(b), "\n") {
			var p struct {
				Event   string          `json:"event"`
				Payload json.RawMessage `json:"payload"`
			}
			if json.Unmarshal([]byte(l), &p) == nil && p.Event == ev {
				payload = string(p.Payload)
				break
			}
		}
		cmd := exec.Command(sshtest.LanesBinary(t), "hook", "claude", "--session", name)
		cmd.Env, cmd.Stdin = h.Env(), strings.NewReader(payload)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hook %s: %v %s", ev, err, out)
		}
	}
}

// boardPID is the board's process: its pane's.
func boardPID(t *testing.T, e *e2e) int {
	t.Helper()
	out, err := e.srv.Run(t.Context(), "display-message", "-p", "-t", e.pane, "#{pane_pid}")
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || pid == 0 {
		t.Fatalf("the board's pid: %q %v", out, err)
	}
	return pid
}

// busy is the share of a core, over d, of the board (pid), its children
// and every ssh on its shared connections (their argv name its state
// dir's ssh/), from /proc's tick counts.
func busy(pid int, stateDir string, d time.Duration) float64 {
	ticks := func() map[int]int {
		all := map[int]int{}
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, dir := range dirs {
			p, _ := strconv.Atoi(filepath.Base(dir))
			stat, err := os.ReadFile(dir + "/stat")
			cmdline, _ := os.ReadFile(dir + "/cmdline")
			if err != nil {
				continue
			}
			f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
			ppid, _ := strconv.Atoi(f[1])
			if p != pid && ppid != pid && !strings.Contains(string(cmdline), stateDir+"/ssh/") {
				continue
			}
			u, _ := strconv.Atoi(f[11])
			s, _ := strconv.Atoi(f[12])
			all[p] = u + s
		}
		return all
	}
	before := ticks()
	time.Sleep(d)
	spent := 0
	for p, n := range ticks() {
		spent += n - before[p]
	}
	return float64(spent) / (d.Seconds() * 100) * 100 // 100 ticks a second
}

// figure logs one figure as scripts/bench reads it: "figure KEY VALUE"
// and what it is.
func figure(t *testing.T, key string, v float64, what string) {
	t.Helper()
	t.Logf("figure %s %.2f (%s)", key, v, what)
}

// quantiles logs durations' median, 95th percentile and maximum, in ms,
// as figures KEY-p50, KEY-p95 and KEY-max.
func quantiles(t *testing.T, key string, d []time.Duration, what string) {
	t.Helper()
	slices.Sort(d)
	ms := func(q float64) float64 { return float64(d[min(int(q*float64(len(d))), len(d)-1)]) / 1e6 }
	figure(t, key+"-p50", ms(0.5), what)
	figure(t, key+"-p95", ms(0.95), what)
	figure(t, key+"-max", ms(1), fmt.Sprintf("%s, %d times", what, len(d)))
}

// rss is pid's resident set in kB, from /proc; it fails t when unread.
func rss(t *testing.T, pid int) float64 {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err == nil {
				return kb
			}
		}
	}
	t.Fatalf("no RSS of the board (pid %d) in /proc", pid)
	return 0
}
