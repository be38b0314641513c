package tmux_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// Socket "" is tmux's default server, also for a lanes run inside another
// server: $TMUX names the server the process runs in, and a call that
// followed it would start sessions there, and read there the sessions it
// started on the default server as gone. (The default server here is a
// private one: TMUX_TMPDIR is the test's own directory.)
func TestDefaultServerIsNotTheOneOfTMUX(t *testing.T) {
	dir, err := os.MkdirTemp("", "lt") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("TMUX_TMPDIR", dir)
	other := tmuxtest.Server(t)
	if _, err := other.NewSession(t.Context(), tmux.NewSessionOpts{Name: "the-one-we-are-in", Command: []string{"sleep", "3600"}}); err != nil {
		t.Fatal(err)
	}
	inside, err := other.SocketPath(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMUX", inside+",1,0")
	t.Setenv("TMUX_PANE", "%0")

	def := &tmux.Client{Config: "/dev/null", Run: tmux.ExecRunner("", tmuxtest.Timeout, "-f", "/dev/null")}
	t.Cleanup(func() { _, _ = def.Run(context.Background(), "kill-server") })
	if _, err := def.NewSession(t.Context(), tmux.NewSessionOpts{Name: "lanes-api", Command: []string{"sleep", "3600"}}); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), "default")
	if got, err := def.SocketPath(t.Context()); err != nil || got != want {
		t.Errorf("socket \"\" reached %q (%v), want tmux's default %q", got, err, want)
	}
	out, err := other.Run(t.Context(), "list-sessions", "-F", "#{session_name}")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "lanes-api") {
		t.Errorf("the session started on the server of $TMUX: %q", out)
	}
	// Inside the default server itself, switch-client still finds its
	// client through $TMUX: the one call that keeps it.
	t.Setenv("TMUX", want+",1,0")
	if err := def.SwitchFrom(t.Context(), os.Getenv("TMUX"), "lanes-api"); errors.Is(err, tmux.ErrOtherServer) {
		t.Errorf("SwitchFrom inside the default server: %v", err)
	}
}
