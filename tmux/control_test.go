package tmux_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// clients lists the server's clients as "name control-mode session".
func clients(t *testing.T, c *tmux.Client) []string {
	t.Helper()
	out, err := raw(t, c, "list-clients", "-F", "#{client_control_mode} #{session_id}")
	if err != nil && !errors.Is(err, tmux.ErrNoServer) {
		t.Fatalf("list-clients: %v", err)
	}
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

func TestControlReadsAsAClientDoes(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	a := newSession(t, c, tmux.NewSessionOpts{Name: "a", Command: []string{"sleep", "600"}, LanesID: "id-a"})
	newSession(t, c, tmux.NewSessionOpts{Name: "b;x", Command: []string{"sleep", "600"}, LanesID: "id-b"})
	newSession(t, c, tmux.NewSessionOpts{Name: "theirs", Command: []string{"sleep", "600"}})
	size := func() string {
		s, err := raw(t, c, "display-message", "-p", "-t", a.SessionID, "#{window_width}x#{window_height}")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := size()

	k, err := c.StartControl(t.Context(), a.SessionID)
	if err != nil {
		t.Fatalf("StartControl: %v", err)
	}
	defer k.Close()
	if got := clients(t, c); !slices.Equal(got, []string{"1 " + a.SessionID}) {
		t.Fatalf("clients = %q, want one control client on %s", got, a.SessionID)
	}
	// It has no status line to show a message on.
	if n, err := c.Display(t.Context(), "hello", time.Second); n != 0 || err != nil {
		t.Errorf("Display = %d, %v; want no client to show it to", n, err)
	}
	want, err := c.ListPanes(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	out, err := k.Run(t.Context(), []string{"run-shell", "true"}, []string{"list-panes", "-a", "-F", "#{@lanes_id}\x1f#{session_name}"})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := string(out); got != "id-a\x1fa\nid-b\x1fb;x\n\x1ftheirs\n" {
		t.Errorf("control output = %q", got)
	}
	r := &tmux.PaneReader{Client: c, AnyVersion: true}
	defer r.Close()
	for _, reap := range []bool{false, true, false} {
		got, err := r.ListPanes(t.Context(), reap)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("PaneReader.ListPanes(reap %v) = %v, %v; want %v", reap, got, err, want)
		}
	}
	if got := size(); got != before {
		t.Errorf("window size %s after the control client attached, was %s", got, before)
	}

	// A failed command closes the client: the next read takes another way.
	if _, err := k.Run(t.Context(), []string{"has-session", "-t", "=nosuch"}); !errors.Is(err, tmux.ErrNoSession) {
		t.Errorf("Run on a missing target = %v, want ErrNoSession", err)
	}
	if _, err := k.Run(t.Context(), []string{"list-sessions"}); !errors.Is(err, tmux.ErrControlGone) {
		t.Errorf("Run after a failure = %v, want ErrControlGone", err)
	}
	if _, err := k.Run(t.Context(), []string{"display-message", "-p", "it's"}); !errors.Is(err, tmux.ErrInvalid) {
		t.Errorf("a quote in a word = %v, want ErrInvalid", err)
	}
}

// The reader attaches after a read that found a live session of lanes',
// to a session of its own (never an agent's, never a user's), which no
// read shows; reads go on when that session ends under it; Close leaves
// no client and no reader session behind.
func TestPaneReaderFollowsTheServer(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	r := &tmux.PaneReader{Client: c, AnyVersion: true}
	defer r.Close()
	if _, err := r.ListPanes(t.Context(), false); !errors.Is(err, tmux.ErrNoServer) {
		t.Fatalf("no server: %v", err)
	}
	newSession(t, c, tmux.NewSessionOpts{Name: "theirs", Command: []string{"sleep", "600"}})
	if _, err := r.ListPanes(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if got := clients(t, c); len(got) != 0 {
		t.Fatalf("attached %q with no session of lanes' to watch", got)
	}
	a := newSession(t, c, tmux.NewSessionOpts{Name: "a", Command: []string{"sleep", "600"}, LanesID: "id-a"})
	panes, err := r.ListPanes(t.Context(), false)
	if err != nil || len(panes) != 2 {
		t.Fatalf("first read = %d panes, %v", len(panes), err)
	}
	sessions, err := raw(t, c, "list-sessions", "-F", "#{session_name} #{session_id}")
	if err != nil {
		t.Fatal(err)
	}
	var reader string
	for line := range strings.Lines(sessions) {
		if name, id, _ := strings.Cut(strings.TrimSpace(line), " "); name == tmux.ReaderSession {
			reader = id
		}
	}
	if reader == "" {
		t.Fatalf("no reader session among %q", sessions)
	}
	if got := clients(t, c); !slices.Equal(got, []string{"1 " + reader}) {
		t.Fatalf("clients = %q, want a control client on %s (not %s)", got, reader, a.SessionID)
	}
	panes, err = r.ListPanes(t.Context(), false)
	if err != nil || len(panes) != 2 || slices.ContainsFunc(panes, func(p tmux.Pane) bool { return p.SessionID == reader }) {
		t.Fatalf("read over the control client = %+v, %v; want the two sessions' panes, not the reader's", panes, err)
	}
	// Its session ends, whatever detach-on-destroy says: reads go on.
	if _, err := raw(t, c, "set-option", "-t", reader, "detach-on-destroy", "off"); err != nil {
		t.Fatal(err)
	}
	if _, err := raw(t, c, "kill-session", "-t", reader); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "the control client to leave", func() bool {
		return !slices.ContainsFunc(clients(t, c), func(s string) bool { return strings.HasPrefix(s, "1 ") })
	})
	if panes, err := r.ListPanes(t.Context(), false); err != nil || len(panes) != 2 {
		t.Fatalf("read after its session ended = %d panes, %v", len(panes), err)
	}
	r.Close()
	if got := clients(t, c); len(got) != 0 {
		t.Errorf("clients left after Close: %q", got)
	}
	if _, err := raw(t, c, "has-session", "-t", "="+tmux.ReaderSession); !errors.Is(err, tmux.ErrNoSession) {
		t.Errorf("reader session after Close: %v, want gone", err)
	}
}
