package tui_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestE2EBoardWithoutTerminal: `lanes` with no terminal (stdin /dev/null,
// no controlling terminal: cron, a pipe, ssh without -t) says in plain
// words what the board needs, instead of Bubble Tea's "error opening TTY"
// (trial 3, item 15).
func TestE2EBoardWithoutTerminal(t *testing.T) {
	bin := lanesBinary(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--theme", "dark")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "LANES_STATE_DIR=" + filepath.Join(t.TempDir(), "state"),
		"LANES_TMUX_SOCKET=lanes-test-noserver-" + filepath.Base(t.TempDir())}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal: /dev/tty does not open
	out, err := cmd.CombinedOutput()
	const want = "lanes: the board needs a terminal (run it in a terminal or tmux pane)\n"
	if code := cmd.ProcessState.ExitCode(); string(out) != want || code != 1 {
		t.Errorf("lanes without a terminal: exit %d (%v), output %q; want 1 and %q", code, err, out, want)
	}
}
