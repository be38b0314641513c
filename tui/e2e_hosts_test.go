package tui_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/internal/remote/sshtest"
)

// TestE2EAnotherHost: the board mirrors a host over real ssh (a private
// sshd, a second lanes behind it): its session arrives as a card tagged
// with the host, moves when a hook fires there, attaches and detaches
// through ssh, stays marked unreachable while sshd is down, and comes back
// when it is up again (docs/design.md §16).
func TestE2EAnotherHost(t *testing.T) {
	rig := sshtest.New(t, 1)
	h := rig.Hosts[0]
	h.Lanes(t, "new", "far", "--dir", t.TempDir(), "--", "sh", "-c", "echo FAR-SCREEN; sleep 3600")
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte(h.Name+" "+h.Dest+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := startBoard(t, 120, 36, "XDG_CONFIG_HOME="+cfg, "LANES_SSH="+rig.SSH.Program)
	e.waitScreen("far's card from host1", func(s string) bool { return strings.Contains(s, "far @host1") })

	// A hook on host1 to its card here, 20 times (logged, never asserted:
	// the budget is a figure, p95 ≤ 300 ms).
	var took []time.Duration
	for i := range 20 {
		event, lane := "waiting_input", "Needs you"
		if i%2 == 1 {
			event, lane = "active", "Working"
		}
		start := time.Now()
		h.Lanes(t, "hook", "generic", event, "--session", "far")
		e.waitScreen("far in "+lane, func(s string) bool { return laneOf(s, "far") == lane })
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	t.Logf("a hook on host1 to its card here (lanes hook start to capture-pane): p50 %s p95 %s max %s",
		took[9].Round(time.Millisecond), took[18].Round(time.Millisecond), took[19].Round(time.Millisecond))
	h.Lanes(t, "hook", "generic", "waiting_input", "--session", "far")
	e.waitScreen("far in Needs you", func(s string) bool { return laneOf(s, "far") == "Needs you" })

	e.keys("l")
	e.waitScreen("far selected", func(s string) bool { return strings.Contains(s, "┏") })
	// Its pane previewed and its history read over ssh, as a local card's.
	e.keys("p")
	e.waitScreen("far's pane in the preview", func(s string) bool { return strings.Contains(s, "preview · far") && strings.Contains(s, "FAR-SCREEN") })
	e.keys("p", "H")
	e.waitScreen("far's history from host1", func(s string) bool { return strings.Contains(s, "waiting_input") || strings.Contains(s, "needs input") })
	e.keys("Escape")
	e.waitScreen("the history closed", func(s string) bool { return strings.Contains(s, "Ready to merge") })
	e.keys("Enter")
	e.waitScreen("far's pane, through ssh", func(s string) bool {
		return strings.Contains(s, "FAR-SCREEN") && !strings.Contains(s, "Ready to merge")
	})
	e.keys("C-b", "d")
	e.waitScreen("the board again", func(s string) bool {
		return strings.Contains(s, "Ready to merge") && strings.Contains(s, "detached from far on host1")
	})

	rig.Stop()
	e.waitScreen("host1 unreachable, far kept", func(s string) bool {
		return strings.Contains(s, "host1 unreachable since") && strings.Contains(s, "unreachable") && laneOf(s, "far") == "Needs you"
	})
	rig.Start()
	e.waitScreenWithin(time.Minute, "host1 back", func(s string) bool {
		return !strings.Contains(s, "unreachable") && laneOf(s, "far") == "Needs you"
	})
}

// The board's ssh to a host ends with it: an ssh still connecting (it
// reads no stdin yet, so the board's exit alone would not end it) is not
// left running, orphaned, when the board has exited.
func TestE2EBoardQuitEndsItsSSH(t *testing.T) {
	dir := t.TempDir()
	marker := fmt.Sprintf("lanes-test-hung-ssh-%d", time.Now().UnixNano())
	ssh := filepath.Join(dir, "ssh")
	if err := os.WriteFile(ssh, []byte("#!/bin/bash\nexec -a "+marker+" sleep 3600\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lanes", "hosts"), []byte("far me@far.example\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hung := func() (pids []string) {
		all, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, f := range all {
			if b, err := os.ReadFile(f); err == nil && strings.HasPrefix(string(b), marker+"\x00") {
				pids = append(pids, filepath.Base(filepath.Dir(f)))
			}
		}
		return pids
	}
	t.Cleanup(func() { // whatever happened, nothing of the test's stays
		for _, p := range hung() {
			exec.Command("kill", "-9", p).Run()
		}
	})
	e := startBoard(t, 120, 36, "XDG_CONFIG_HOME="+dir, "LANES_SSH="+ssh)
	e.waitScreen("the board connecting to far", func(s string) bool { return strings.Contains(s, "connecting to far") })
	for end := time.Now().Add(10 * time.Second); len(hung()) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the board's ssh to far never started")
		}
	}
	pid, err := e.srv.Run(t.Context(), "display-message", "-p", "-t", e.pane, "#{pane_pid}")
	if err != nil {
		t.Fatal(err)
	}
	proc := "/proc/" + strings.TrimSpace(string(pid))
	e.keys("q")
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(proc); err != nil {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the board did not exit 10 s after q")
		}
	}
	if pids := hung(); len(pids) > 0 {
		t.Errorf("the board exited and its ssh runs on (pids %v)", pids)
	}
}
