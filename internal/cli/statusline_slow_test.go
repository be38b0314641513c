package cli

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state"
	"lanes/tmux"
)

// hungServer listens on the tmux socket e's invocations use and never
// answers: a server that hangs, as a stopped or swamped one does.
func hungServer(t *testing.T, socket string) {
	t.Helper()
	path := tmux.SocketFile(socket)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c) // held open, never answered
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
		os.Remove(path)
	})
}

// TestStatusLineReportsAHungServer: when the status line's tmux read runs
// out of its budget, it says tmux is not answering (stderr, and the
// marker when there is no last good line); it does not show its own
// cycle's records as if tmux had answered.
func TestStatusLineReportsAHungServer(t *testing.T) {
	r := slRec("api", state.ActivityActive)
	e := newSLEnv(t)
	r.Runtime.Socket = e.sock
	e.put(r)
	hungServer(t, e.sock)
	for i := range 2 { // the second run finds the first one's cycle
		out, errs := e.run("status-line", "--format", "plain")
		if strings.TrimSpace(out) != markerError || !strings.Contains(errs, "tmux is not answering") {
			t.Fatalf("run %d against a server that never answers: stdout %q, stderr %q; want %s and the reason", i+1, out, errs, markerError)
		}
	}
}
