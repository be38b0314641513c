package tmux_test

import (
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// SessionName and SessionEnv read what doctor needs to tell whose session
// an unknown @lanes_id is: its name and the environment new-session -e
// gave it.
func TestSessionNameAndEnv(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	with := newSession(t, c, tmux.NewSessionOpts{Name: "lanes-f1", Env: []string{"LANES_STATE_DIR=/x/other"},
		Command: []string{"sleep", "600"}, LanesID: "abcd1234"})
	without := newSession(t, c, tmux.NewSessionOpts{Name: "plain", Command: []string{"sleep", "600"}})
	if name, err := c.SessionName(t.Context(), with.SessionID); err != nil || name != "lanes-f1" {
		t.Errorf("SessionName(%s) = %q, %v", with.SessionID, name, err)
	}
	if v, ok, err := c.SessionEnv(t.Context(), with.SessionID, "LANES_STATE_DIR"); err != nil || !ok || v != "/x/other" {
		t.Errorf("SessionEnv(with) = %q, %v, %v", v, ok, err)
	}
	if v, ok, err := c.SessionEnv(t.Context(), without.SessionID, "LANES_STATE_DIR"); err != nil || ok {
		t.Errorf("SessionEnv(without) = %q, %v, %v; want not set, no error", v, ok, err)
	}
}
