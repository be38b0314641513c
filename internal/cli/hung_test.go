package cli

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"lanes/tmux"
)

// A server that let one call run out tmux's timeout is not asked again for
// hungFor: a command's further calls fail at once instead of each waiting
// its own timeout. A caller's own shorter deadline marks nothing, and the
// server is asked again once hungFor has passed.
func TestHungServerIsNotAskedAgainAtOnce(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	a := newApp(nil, nil, nil, func(string) string { return "" })
	a.now = func() time.Time { return now }
	calls := 0
	answer := error(nil)
	a.tmuxRunner = func(string) tmux.Runner {
		return func(ctx context.Context, args ...string) ([]byte, error) {
			calls++
			return nil, answer
		}
	}
	c := a.tmuxFor("s")
	ask := func() error { _, err := c.Run(context.Background(), "list-sessions"); return err }

	answer = fmt.Errorf("tmux list-sessions: %w", tmux.ErrTimeout)
	if err := ask(); !errors.Is(err, tmux.ErrTimeout) || calls != 1 {
		t.Fatalf("first call: err %v, %d calls", err, calls)
	}
	answer = nil
	if err := ask(); !errors.Is(err, tmux.ErrTimeout) || calls != 1 {
		t.Errorf("a call right after a timeout: err %v, %d calls (want the timeout again, no call)", err, calls)
	}
	if err := a.tmuxFor("other").Run; err == nil {
		t.Fatal("no runner")
	}
	if _, err := a.tmuxFor("other").Run(context.Background(), "ls"); err != nil || calls != 2 {
		t.Errorf("another server: err %v, %d calls", err, calls)
	}
	now = now.Add(hungFor)
	if err := ask(); err != nil || calls != 3 {
		t.Errorf("after hungFor: err %v, %d calls (want the server asked again)", err, calls)
	}

	// A deadline of the caller's own is no sign of a hung server.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	answer = fmt.Errorf("tmux list-panes: %w", tmux.ErrTimeout)
	_, _ = c.Run(ctx, "list-panes")
	answer = nil
	if err := ask(); err != nil || calls != 5 {
		t.Errorf("after a call the caller cut short: err %v, %d calls", err, calls)
	}
}
