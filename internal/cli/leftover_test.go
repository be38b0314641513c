package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An agent that ignores the hangup tmux sends when it kills a pane (Gemini
// CLI's relaunched node did, in the real-agent runs) must not outlive
// `lanes kill` or `lanes restart`, running on unseen with the session gone.
func TestKillAndRestartEndAnAgentThatIgnoresHangup(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := t.TempDir()
	// The agent ignores SIGHUP, starts a child that inherits that, and
	// records the child's pid: the shape of a node relaunch.
	agent := func(name string) []string {
		pidFile := filepath.Join(dir, name+".pid")
		return []string{"sh", "-c", `trap "" HUP; sleep 600 & echo $! > ` + shellQuote(pidFile) + `; wait`}
	}
	childOf := func(name string) int {
		var pid int
		deadline := time.Now().Add(10 * time.Second)
		for pid == 0 && time.Now().Before(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, name+".pid"))
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			if pid == 0 {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if pid == 0 {
			t.Fatalf("%s: the agent never wrote its child's pid", name)
		}
		return pid
	}
	gone := func(pid int) bool {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if syscall.Kill(pid, 0) != nil {
				return true
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
		return false
	}

	e.must(append([]string{"new", "k", "--"}, agent("k")...)...)
	child := childOf("k")
	e.must("kill", "k", "--yes")
	if !gone(child) {
		t.Errorf("lanes kill: the agent's child %d still runs", child)
	}

	e.must(append([]string{"new", "r", "--"}, agent("r")...)...)
	child = childOf("r")
	if err := os.Remove(filepath.Join(dir, "r.pid")); err != nil {
		t.Fatal(err)
	}
	e.must("restart", "r")
	if !gone(child) {
		t.Errorf("lanes restart: the old agent's child %d still runs", child)
	}
	t.Cleanup(func() { _ = syscall.Kill(childOf("r"), syscall.SIGKILL) })
}
