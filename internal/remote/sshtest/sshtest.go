// Package sshtest gives integration tests (New) and the scripts (Launch) a
// real sshd and hosts behind it.
//
// The sshd is private: it listens on a free port of 127.0.0.1, with its
// own host key, config, authorized key and pid file in a temporary
// directory, and the ssh client reads only the config written there (a
// LANES_SSH-style wrapper passes -F). Nothing touches $HOME, ~/.ssh, the
// system's sshd or port 22. Each host is a Host entry of that config whose
// SetEnv gives the remote lanes its own state dir and tmux server (a
// private -L lanes-test-<random> server read with -f /dev/null), so one
// machine plays several: a second lanes with its own store is another
// host. Everything is stopped and removed when the test ends (New) or by
// Stop (Launch; its caller removes its directory).
package sshtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/remote"
	"lanes/internal/testenv"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// Host is one host behind the rig: a lanes with its own store and tmux
// server, reached as Name over ssh.
type Host struct {
	remote.Host
	StateDir string
	Tmux     *tmux.Client
	rig      *Rig
}

// New starts a private sshd with n hosts behind it, host1…hostN. It skips
// in the fast tier, and (testenv.Skip) without sshd, ssh or root's rights.
func New(t testing.TB, n int) *Rig {
	t.Helper()
	testenv.TmuxTier(t)
	if err := Usable(); err != nil {
		testenv.Skip(t, err.Error())
	}
	bin := LanesBinary(t)
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var specs []Spec
	for i := range n {
		c := tmuxtest.Server(t)
		if _, err := c.Run(context.Background(), "new-session", "-d", "-s", "keep", "sleep", "3600"); err != nil {
			t.Fatalf("starting host%d's tmux server: %v", i+1, err)
		}
		specs = append(specs, Spec{Name: fmt.Sprintf("host%d", i+1), StateDir: filepath.Join(dir, fmt.Sprintf("state%d", i+1)), Tmux: c})
	}
	r, err := Launch(dir, dir, bin, port, specs)
	if r != nil {
		t.Cleanup(r.Stop)
	}
	if err != nil {
		t.Fatal(err)
	}
	r.t = t
	return r
}

// SlowSSH is the rig's ssh through a link that delays each line of the
// stream by delay (a rig of New).
func (r *Rig) SlowSSH(delay time.Duration) remote.SSH {
	r.t.Helper()
	script := fmt.Sprintf(`#!/bin/bash
ssh -F %s "$@" | while IFS= read -r line; do sleep %.3f; printf '%%s\n' "$line"; done
exit "${PIPESTATUS[0]}"
`, r.path("ssh_config"), delay.Seconds())
	path, err := r.write(fmt.Sprintf("slow-ssh-%d", delay.Milliseconds()), script, 0o700)
	if err != nil {
		r.t.Fatal(err)
	}
	return remote.SSH{Program: path}
}

// Env is the environment lanes runs in as h, on this machine.
func (h *Host) Env() []string {
	return []string{"LANES_STATE_DIR=" + h.StateDir, "LANES_TMUX_SOCKET=" + h.Tmux.Socket,
		"HOME=" + h.rig.home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh"}
}

// Lanes runs `lanes ARGS…` as h (here, not over ssh: what an agent or a
// user on that host does) and returns its stdout; a failure fails t.
func (h *Host) Lanes(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command(LanesBinary(t), args...)
	cmd.Env = h.Env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("lanes %s on %s: %v\n%s%s", strings.Join(args, " "), h.Name, err, out.String(), errb.String())
	}
	return out.String()
}
