package cli

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"lanes/tmux"
)

// doctor tells an orphan from another state dir's session on the same
// server, and names the orphans it lists (trial item 4).
func TestDoctorOrphansOfOtherStateDirs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	for _, s := range []struct{ name, id, dir string }{
		{"lanes-f1", "ffff0001", "/elsewhere/state"}, // another lanes on this server
		{"lanes-o1", "oooo0001", e.state},            // ours, its record gone
		{"lanes-u1", "uuuu0001", ""},                 // nobody says whose
	} {
		o := tmux.NewSessionOpts{Name: s.name, Command: []string{"sleep", "600"}, LanesID: s.id}
		if s.dir != "" {
			o.Env = []string{"LANES_STATE_DIR=" + s.dir}
		}
		if _, err := e.tc.NewSession(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	out, _, _ := e.run("doctor")
	if !strings.Contains(out, "lanes-f1") || !strings.Contains(out, "belongs to state dir /elsewhere/state") {
		t.Errorf("doctor does not say lanes-f1 belongs to another state dir:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "kill-session") && strings.Contains(line, "lanes-f1") {
			t.Errorf("doctor tells to kill another state dir's session: %s", line)
		}
	}
	for _, name := range []string{"lanes-o1", "lanes-u1"} {
		if !strings.Contains(out, name) {
			t.Errorf("doctor does not name orphan %s:\n%s", name, out)
		}
	}
}

// A server that is not running while live sessions wait on it is a
// problem, and the advice names real sessions and the real socket.
func TestDoctorDeadServerWithLiveSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "a", "--", "sleep", "600")
	if _, err := e.tc.Run(context.Background(), "kill-server"); err != nil {
		t.Fatal(err)
	}
	out, _, code := e.run("doctor")
	if code == exitOK || strings.Contains(out, "ok  tmux server -L "+e.tc.Socket) {
		t.Errorf("doctor calls a dead server with a live session ok (exit %d):\n%s", code, out)
	}
	// The README's answer after a reboot comes first (it resumes the
	// conversations); ending one for good comes after it.
	restore, kill := strings.Index(out, "lanes restore --all"), strings.Index(out, "lanes kill a --yes")
	if restore < 0 || kill < restore || strings.Contains(out, "NAME") {
		t.Errorf("doctor's advice for a dead server does not lead with `lanes restore --all`, then kill --yes:\n%s", out)
	}
}

// A stopped server is running but not answering: the advice checks that
// server (its socket), not tmux's default one, and does not say to start it.
func TestDoctorHungServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "a", "--", "sleep", "600")
	pidOut, err := e.tc.Run(context.Background(), "display-message", "-p", "#{pid}")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidOut)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	out, _, code := e.run("doctor")
	_ = syscall.Kill(pid, syscall.SIGCONT)
	if code == exitOK || !strings.Contains(out, "tmux -L "+e.tc.Socket+" ls") || !strings.Contains(out, "not answering") {
		t.Errorf("doctor on a stopped server (exit %d):\n%s", code, out)
	}
	if strings.Contains(out, "NAME") || strings.Contains(out, "start that tmux server again") {
		t.Errorf("doctor's advice for a stopped server is wrong:\n%s", out)
	}
}

// Inside tmux with allow-passthrough off, doctor says in one line that
// the desktop notifications stay in tmux and what turns them on; it only
// reads the option (trial 3, item 3).
func TestDoctorPassthroughOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path, err := e.tc.Run(context.Background(), "display-message", "-p", "#{socket_path}")
	if err != nil {
		t.Fatal(err)
	}
	e.vars["TMUX"] = strings.TrimSpace(string(path)) + ",1,0"
	const says = "set -g allow-passthrough on"
	out, _, _ := e.run("doctor")
	if strings.Count(out, says) != 1 {
		t.Errorf("doctor inside tmux with allow-passthrough off does not say %q once:\n%s", says, out)
	}
	if v, _ := e.tc.Run(context.Background(), "show", "-gv", "allow-passthrough"); strings.TrimSpace(string(v)) != "off" {
		t.Errorf("doctor changed allow-passthrough to %q", v)
	}
	if _, err := e.tc.Run(context.Background(), "set", "-g", "allow-passthrough", "on"); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := e.run("doctor"); strings.Contains(out, says) {
		t.Errorf("doctor with allow-passthrough on still says it:\n%s", out)
	}
	delete(e.vars, "TMUX")
	if out, _, _ := e.run("doctor"); strings.Contains(out, "passthrough") {
		t.Errorf("doctor outside tmux speaks of passthrough:\n%s", out)
	}
}
