package tmux_test

import (
	"errors"
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
