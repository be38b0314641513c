package session

import (
	"context"
	"fmt"

	"lanes/state"
)

// Peek is what r's pane shows now, with its colours (tmux's SGR, as
// capture-pane -e draws them): the board's preview, and `lanes peek`,
// which the board of another host runs over ssh for its preview.
func (s *Service) Peek(ctx context.Context, r *state.Record) ([]byte, error) {
	if !r.Live() {
		return nil, fmt.Errorf("%s: %w; no pane to look at", r.Name, state.ErrTerminated)
	}
	if err := NotStarted(r); err != nil {
		return nil, err
	}
	out, err := s.Tmux(r.Runtime.Socket).CapturePane(ctx, r.Runtime.PaneID, 0)
	if err != nil {
		return nil, fmt.Errorf("reading %s's pane: %w", r.Name, err)
	}
	return out, nil
}
