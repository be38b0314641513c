package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/internal/testenv"
)

// slowTmux puts a tmux stand-in first on a PATH: it runs the real tmux,
// and on the first new-session, once tmux made the session, it creates
// mark and hangs, as a slow server would before answering.
func slowTmux(t *testing.T) (path, mark string) {
	t.Helper()
	real, err := exec.LookPath("tmux")
	if err != nil {
		testenv.Skip(t, "tmux not on PATH")
	}
	dir := t.TempDir()
	mark = filepath.Join(dir, "made")
	script := "#!/bin/sh\n'" + real + "' \"$@\"; rc=$?\n" +
		"case \" $* \" in *\" new-session \"*) if [ ! -e '" + mark + "' ]; then : > '" + mark + "'; exec sleep 60; fi;; esac\n" +
		"exit $rc\n"
	writeExec(t, filepath.Join(dir, "tmux"), script)
	return dir + string(os.PathListSeparator) + os.Getenv("PATH"), mark
}

// lanes new interrupted (SIGINT) while tmux makes its session ends that
// session and leaves no record, index or hook files: the name is free at
// once (issue 15).
func TestNewInterruptedLeavesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path, mark := slowTmux(t)
	cmd := exec.Command(lanesBin, "new", "half", "--", "sleep", "600")
	cmd.Env = []string{"LANES_STATE_DIR=" + e.state, "LANES_TMUX_SOCKET=" + e.tc.Socket, "HOME=" + e.home, "PATH=" + path, "SHELL=/bin/sh"}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the tmux stand-in never made the session; lanes said: %s", errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ok, err := e.tc.HasSession(t.Context(), "lanes-half"); !ok {
		_ = cmd.Process.Kill()
		t.Fatalf("tmux did not make lanes-half before the interrupt (%v); lanes said: %s", err, errb.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Errorf("interrupted lanes new exited 0")
	}
	if !strings.Contains(errb.String(), "nothing of it is left") {
		t.Errorf("interrupted lanes new said: %q", errb.String())
	}
	if ok, err := e.tc.HasSession(t.Context(), "lanes-half"); ok || err != nil {
		t.Errorf("lanes-half after the interrupted lanes new: in tmux %v (%v)", ok, err)
	}
	if s, ok := e.ls()["half"]; ok {
		t.Errorf("a record of half is left: %+v", s)
	}
	for _, sub := range []string{"names", "panes", "hooks"} {
		if left, _ := os.ReadDir(filepath.Join(e.state, sub)); len(left) > 0 {
			t.Errorf("%s/ keeps %d file(s) of the interrupted start", sub, len(left))
		}
	}
	e.must("new", "half", "--", "sleep", "600")
}
