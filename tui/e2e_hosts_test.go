package tui_test

import (
	"os"
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
