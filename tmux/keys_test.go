package tmux_test

import (
	"errors"
	"path/filepath"
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// Key names reach the program as the keys they name (Escape is ESC, Enter
// a carriage return), one after another, and the pane leaves copy mode
// first; anything that is not a key name is refused before tmux runs.
func TestSendKeysPressesNamedKeys(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	pane, out := rawSink(t, c, "keys")
	if _, err := raw(t, c, "copy-mode", "-t", pane); err != nil {
		t.Fatal(err)
	}
	for _, keys := range [][]string{{"1"}, {"y"}, {"Escape"}, {"Right", "Enter"}} {
		if err := c.SendKeys(t.Context(), pane, keys...); err != nil {
			t.Fatalf("SendKeys %q: %v", keys, err)
		}
	}
	waitReceived(t, out, "1y\x1b\x1b[C\r")
	for _, bad := range [][]string{nil, {""}, {"hello"}, {"Enter; kill-server"}, {"C-c"}, {"-l"}} {
		if err := c.SendKeys(t.Context(), pane, bad...); !errors.Is(err, tmux.ErrInvalid) {
			t.Errorf("SendKeys %q = %v, want ErrInvalid", bad, err)
		}
	}
}

// In a window whose panes are synchronized, tmux would type a key or a
// text into every pane of it: lanes sends nothing (issue 30's third
// hostile run saw an answer's key reach a second agent's dialog).
func TestSendRefusesSynchronizedPanes(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	pane, out := rawSink(t, c, "sync")
	other := filepath.Join(t.TempDir(), "other")
	second, err := raw(t, c, "split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane,
		"sh", "-c", `stty raw -echo && echo ready && exec cat > "$0"`, other)
	if err != nil {
		t.Fatal(err)
	}
	waitCapture(t, c, second, "ready")
	if _, err := raw(t, c, "set-option", "-w", "-t", pane, "synchronize-panes", "on"); err != nil {
		t.Fatal(err)
	}
	if err := c.SendKeys(t.Context(), pane, "1"); !errors.Is(err, tmux.ErrSynchronized) {
		t.Errorf("SendKeys into a synchronized window: %v, want ErrSynchronized", err)
	}
	if err := c.SendText(t.Context(), pane, "hi"); !errors.Is(err, tmux.ErrSynchronized) {
		t.Errorf("SendText into a synchronized window: %v, want ErrSynchronized", err)
	}
	if _, err := raw(t, c, "set-option", "-w", "-t", pane, "synchronize-panes", "off"); err != nil {
		t.Fatal(err)
	}
	// Then each pane gets its own key only: nothing came before it.
	if err := c.SendKeys(t.Context(), second, "y"); err != nil {
		t.Fatal(err)
	}
	if err := c.SendKeys(t.Context(), pane, "1"); err != nil {
		t.Fatal(err)
	}
	waitReceived(t, other, "y")
	waitReceived(t, out, "1")
}
