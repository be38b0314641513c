package tmux_test

import (
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// TestReadsSurviveANonUTF8Locale: without -u, a tmux client in the C locale
// prints the \x1f separator as '_' and every read fails to parse.
func TestReadsSurviveANonUTF8Locale(t *testing.T) {
	c := tmuxtest.Server(t)
	ctx := t.Context()
	if _, err := c.NewSession(ctx, tmux.NewSessionOpts{Name: "loc", Command: []string{"sleep", "60"}, LanesID: "abcd1234"}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LANG", "")
	t.Setenv("LC_ALL", "C")
	t.Setenv("LC_CTYPE", "")
	panes, err := c.ListPanes(ctx, false)
	if err != nil || len(panes) != 1 || panes[0].LanesID != "abcd1234" {
		t.Fatalf("list-panes in the C locale: %+v, %v", panes, err)
	}
}
