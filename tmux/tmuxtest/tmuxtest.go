// Package tmuxtest gives integration tests a real tmux server of their own.
//
// The server lives on a private socket (lanes-test-<random>) and reads no
// configuration (-f /dev/null), so tests never touch the user's tmux
// server, options or sessions; it is killed and its socket file removed
// when the test ends.
package tmuxtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"testing"
	"time"

	"lanes/internal/testenv"
	"lanes/tmux"
)

// Timeout bounds each tmux call in tests: generous, because -race and a
// busy CI machine slow the first server start, and a list-panes with its
// run-shell took over 10 s in a CI run beside a full drill run and other
// tests on 2 cores. It only stops a tmux that hangs.
const Timeout = 30 * time.Second

// Server returns a Client for a private tmux server and registers its
// kill-server (and socket removal) with t.Cleanup. Nothing is started yet:
// tmux starts the server on the first session created, so a test that
// creates none sees ErrNoServer. It skips the test in the fast tier (go
// test -short), and when tmux is not on PATH (testenv.Skip: not in CI).
func Server(t testing.TB) *tmux.Client {
	t.Helper()
	testenv.TmuxTier(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		testenv.Skip(t, "tmux not on PATH")
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	socket := "lanes-test-" + hex.EncodeToString(b[:])
	c := &tmux.Client{
		Socket: socket,
		Config: "/dev/null",
		Run:    tmux.ExecRunner(socket, Timeout, "-f", "/dev/null"),
	}
	t.Cleanup(func() {
		_, err := c.Run(context.Background(), "kill-server")
		if err != nil && !errors.Is(err, tmux.ErrNoServer) {
			t.Errorf("kill private tmux server %s: %v", socket, err)
		}
		// tmux 3.3 leaves its socket file behind, also when the server
		// exits by itself after its last session.
		removeSocket(t, socket)
	})
	return c
}

// removeSocket deletes the socket file tmux made for name.
func removeSocket(t testing.TB, name string) {
	path := tmux.SocketFile(name)
	st, err := os.Lstat(path)
	if err != nil || st.Mode().Type() != fs.ModeSocket {
		return // never started, or not ours to delete
	}
	if err := os.Remove(path); err != nil {
		t.Errorf("remove socket of private tmux server: %v", err)
	}
}
