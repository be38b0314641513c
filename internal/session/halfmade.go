package session

import (
	"context"
	"errors"
	"time"

	"lanes/tmux"
)

// halfMadeGrace bounds the tmux calls that end an interrupted start's
// session: the user asked to stop, so lanes does not wait long.
const halfMadeGrace = 3 * time.Second

// dropHalfMade ends the session tmuxName that an interrupted `lanes new`
// may have made, found by its exact name and known as its own by the
// @lanes_id it set (id); a session of that name carrying another id is not
// touched. It reports whether nothing of the start is left in tmux: false
// when tmux did not answer, and the start is left to the collector, which
// adopts the session or drops its record within state.StartWindow.
func dropHalfMade(ctx context.Context, tc *tmux.Client, tmuxName, id string) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), halfMadeGrace)
	defer cancel()
	got, err := tc.SessionLanesID(ctx, tmuxName)
	switch {
	case errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
		return true // tmux made nothing
	case err != nil:
		return false
	case got != id:
		return true // another's session of that name: nothing of ours
	}
	err = tc.KillSession(ctx, tmuxName)
	return err == nil || errors.Is(err, tmux.ErrNoSession)
}
