package tmux_test

import (
	"context"
	"slices"
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// TestSplitCommandOfRealTmux: what a real tmux prints for a pane's start
// command splits back into the argv it was started with.
func TestSplitCommandOfRealTmux(t *testing.T) {
	c := tmuxtest.Server(t)
	argv := []string{"/bin/sh", "-c", `sleep 100; echo "$0 #1"`, "it's", "~", "{x}", "%y", "a\tb", "é"}
	ctx := context.Background()
	if _, err := c.NewSession(ctx, tmux.NewSessionOpts{Name: "argv", Command: argv}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Run(ctx, "display-message", "-p", "-t", "=argv:", "#{pane_start_command}")
	if err != nil {
		t.Fatal(err)
	}
	text := string(out[:len(out)-1])
	if got, ok := tmux.SplitCommand(text); !ok || !slices.Equal(got, append([]string{"--"}, argv...)) && !slices.Equal(got, argv) {
		t.Fatalf("tmux printed %s; split %q, %v", text, got, ok)
	}
}
