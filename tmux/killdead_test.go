package tmux_test

import (
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// KillSessionOfDeadPane ends a session only while tmux finds its pane
// dead: a running pane's session (one respawned since it was read dead,
// say) stays, a dead one's goes.
func TestKillSessionOfDeadPane(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	newSession(t, c, tmux.NewSessionOpts{Name: "keep", Command: []string{"sleep", "600"}})
	runs := newSession(t, c, tmux.NewSessionOpts{Name: "runs", Command: []string{"sleep", "600"}, LanesID: "idruns"})
	if err := c.KillSessionOfDeadPane(t.Context(), runs.PaneID); err != nil {
		t.Fatalf("on a running pane: %v", err)
	}
	if ok, err := c.HasSession(t.Context(), "runs"); !ok || err != nil {
		t.Fatalf("a running pane's session was killed (%v)", err)
	}
	dead := newSession(t, c, tmux.NewSessionOpts{Name: "dead", Command: []string{"sh", "-c", "exit 3"}, LanesID: "iddead"})
	waitDead(t, c, dead.PaneID)
	if err := c.KillSessionOfDeadPane(t.Context(), dead.PaneID); err != nil {
		t.Fatalf("on a dead pane: %v", err)
	}
	if ok, _ := c.HasSession(t.Context(), "dead"); ok {
		t.Error("a dead pane's session outlived it")
	}
	if err := c.KillSessionOfDeadPane(t.Context(), "lanes-dead"); err == nil {
		t.Error("a name taken as a pane target")
	}
}
