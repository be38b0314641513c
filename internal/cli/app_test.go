package cli

import (
	"io"
	"strings"
	"testing"
)

// An app used without main (the board's actions, tests) reaches the
// sessions' server from $LANES_TMUX_SOCKET, never tmux's default server.
func TestAppWithoutMainUsesTheSessionsServer(t *testing.T) {
	a := newApp(strings.NewReader(""), io.Discard, io.Discard, func(k string) string {
		return map[string]string{"LANES_TMUX_SOCKET": "lanes-test-private"}[k]
	})
	if a.socket != "lanes-test-private" {
		t.Fatalf("socket %q, want the one $LANES_TMUX_SOCKET names", a.socket)
	}
}
