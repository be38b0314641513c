package tmux_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// TestDisplayArgv: one list-clients, then every client's display-message in
// one chained invocation, the text escaped as a format and as an argv word.
func TestDisplayArgv(t *testing.T) {
	var calls [][]string
	c := &tmux.Client{Run: func(_ context.Context, args ...string) ([]byte, error) {
		calls = append(calls, args)
		if args[0] == "list-clients" {
			return []byte("/dev/pts/3\n/dev/pts/9\n"), nil
		}
		return nil, nil
	}}
	n, err := c.Display(t.Context(), "lanes: c#1 needs you;", 5*time.Second)
	if err != nil || n != 2 {
		t.Fatalf("Display = %d, %v; want 2 clients, nil", n, err)
	}
	want := [][]string{
		{"list-clients", "-F", "#{?client_control_mode,,#{client_name}}"},
		{"display-message", "-c", "/dev/pts/3", "-d", "5000", `lanes: c##1 needs you\;`, ";",
			"display-message", "-c", "/dev/pts/9", "-d", "5000", `lanes: c##1 needs you\;`},
	}
	if len(calls) != 2 || strings.Join(calls[0], " ") != strings.Join(want[0], " ") || strings.Join(calls[1], "|") != strings.Join(want[1], "|") {
		t.Errorf("calls:\n%q\nwant\n%q", calls, want)
	}
}

// TestDisplayNoClients: a server nobody is attached to gets no second call.
func TestDisplayNoClients(t *testing.T) {
	calls := 0
	c := &tmux.Client{Run: func(context.Context, ...string) ([]byte, error) { calls++; return nil, nil }}
	if n, err := c.Display(t.Context(), "x", time.Second); n != 0 || err != nil || calls != 1 {
		t.Errorf("Display = %d, %v after %d calls; want 0, nil after 1", n, err, calls)
	}
}

// TestDisplayReachesAttachedClient attaches a real client (in a pane of a
// second private server, which gives it a terminal) and reads the message
// off its status line.
func TestDisplayReachesAttachedClient(t *testing.T) {
	srv := tmuxtest.Server(t)
	if _, err := srv.Run(t.Context(), "new-session", "-d", "-s", "work", "sleep", "600"); err != nil {
		t.Fatal(err)
	}
	if n, err := srv.Display(t.Context(), "nobody", time.Second); n != 0 || err != nil {
		t.Fatalf("Display with no client = %d, %v; want 0, nil", n, err)
	}
	view := tmuxtest.Server(t)
	if _, err := view.Run(t.Context(), "new-session", "-d", "-x", "100", "-y", "10", "env", "-u", "TMUX",
		"tmux", "-L", srv.Socket, "-f", "/dev/null", "attach", "-t", "work"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the client to attach", func() bool {
		out, _ := raw(t, srv, "list-clients", "-F", "#{client_name}")
		return out != ""
	})
	msg := "lanes: api needs you — Allow Bash: printf '%d' #{pane_id} #(touch x) && rm -rf #build"
	n, err := srv.Display(t.Context(), msg, 5*time.Second)
	if err != nil || n != 1 {
		t.Fatalf("Display = %d, %v; want 1 client, nil", n, err)
	}
	var screen string
	waitFor(t, 4*time.Second, "the message on the client's status line", func() bool {
		screen, _ = raw(t, view, "capture-pane", "-p")
		return strings.Contains(screen, msg)
	})
}

// TestDisplayNoServer says so with the sentinel, for callers that ignore it.
func TestDisplayNoServer(t *testing.T) {
	srv := tmuxtest.Server(t)
	if _, err := srv.Display(t.Context(), "x", time.Second); !errors.Is(err, tmux.ErrNoServer) {
		t.Errorf("Display on no server: %v, want ErrNoServer", err)
	}
}
