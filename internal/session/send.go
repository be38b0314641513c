package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/agent"
	"lanes/state"
	"lanes/tmux"
)

// Send types text into a live agent's pane, then Enter (`lanes send`),
// with its refusals: a session that cannot take it, and, unless force,
// an agent just started whose prompt does not show.
func (s *Service) Send(ctx context.Context, r *state.Record, text string, force bool) error {
	if err := state.CanSend(r, force); err != nil {
		if errors.Is(err, state.ErrStarting) {
			return fmt.Errorf("%w; try again in a moment, or `lanes kill %s`", err, r.Name)
		}
		return err
	}
	if r.Adopted {
		if err := state.AdoptedPane(r, s.Socket); err != nil {
			return err
		}
	}
	tc := s.Tmux(r.Runtime.Socket)
	read := false // lanes reads the agent's input, and it is empty
	if !force {   // --force answers what the agent shows, prompt or not
		if err := s.awaitPrompt(ctx, tc, r); err != nil {
			return err
		}
		screen, err := s.noDialog(ctx, tc, r)
		if err != nil {
			return err
		}
		_, read = state.ReadInput(r.Agent, state.Screen(screen))
	}
	var err error
	if read {
		err = s.submit(ctx, tc, r, agent.Prompt(r.Agent, text))
	} else {
		err = tc.SendText(ctx, r.Runtime.PaneID, agent.Prompt(r.Agent, text))
	}
	if err == nil {
		_ = s.Seen(ctx, r) // only what the card shows next depends on it
	}
	switch {
	case err == nil, errors.Is(err, tmux.ErrInvalid), errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
		return err // nothing to look at: the text was refused, or the pane is gone
	case errors.Is(err, tmux.ErrSynchronized):
		return fmt.Errorf("%w; nothing was sent", err)
	}
	// A timeout leaves it open what the pane holds now.
	return fmt.Errorf("%w; look at the pane (lanes attach %s) before sending again", err, r.Name)
}

// startingUp is how long after its start an agent may still be drawing
// its first screen.
const startingUp = 30 * time.Second

// awaitPrompt waits, in an idle session started less than startingUp ago,
// until the agent's screen shows its idle prompt (its witness markers,
// docs/design.md §11). An agent still starting drops what is typed: the
// real Gemini CLI lost a prompt sent 2 s after its start, and send said it
// was sent. An agent with no markers, an older session, or one already
// working (it takes a prompt typed meanwhile) is not read.
func (s *Service) awaitPrompt(ctx context.Context, tc *tmux.Client, r *state.Record) error {
	m, ok := state.MarkersOf(r.Agent)
	if !ok || r.Activity.State != state.ActivityIdle || s.now().Sub(r.Runtime.PaneStartedAt) >= startingUp {
		return nil
	}
	deadline := time.Now().Add(s.readyWait())
	for {
		screen, err := tc.CaptureText(ctx, r.Runtime.PaneID)
		switch {
		case err == nil && m.Ready(state.Screen(screen)):
			return nil
		case err == nil && shown(r, string(screen)) != nil:
			return shown(r, string(screen)) // no prompt to wait for: a dialog the record has not heard of yet
		case errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
			return err // the pane is gone: nothing to wait for
		case time.Now().After(deadline):
			return fmt.Errorf("the agent has just started and its prompt did not show within %s, so it may not take the text; nothing was sent — look at the pane (lanes attach %s), or `lanes send --force` types it anyway",
				s.readyWait(), r.Name)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s's prompt: %w; nothing was sent", r.Name, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// ErrDialogShows: the pane shows one of the agent's dialogs, which the
// text and its Enter would answer, though the record (a hook late, or
// none) may not say so yet.
var ErrDialogShows = errors.New("its pane shows a dialog, which the text would answer")

// noDialog is ErrDialogShows when r's pane shows one of its agent's
// dialogs now; else the screen it read.
func (s *Service) noDialog(ctx context.Context, tc *tmux.Client, r *state.Record) ([]byte, error) {
	screen, err := tc.CaptureText(ctx, r.Runtime.PaneID)
	if err != nil {
		return nil, fmt.Errorf("reading its pane before sending: %w; nothing was sent", err)
	}
	return screen, shown(r, string(screen))
}

// shown is why the text may not go into r's pane showing screen: one of
// its agent's dialogs or menus; nil when it shows neither.
func shown(r *state.Record, screen string) error {
	switch {
	case agent.ShowsDialog(r.Agent, screen):
		return fmt.Errorf("%w; nothing was sent — `lanes answer %s yes|no`, `lanes attach %s`, or send --force", ErrDialogShows, r.Name, r.Name)
	case state.InMenu(r.Agent, state.Screen(screen)):
		return fmt.Errorf("%w; nothing was sent — `lanes attach %s`", state.ErrInMenu, r.Name)
	case state.InputHolds(r.Agent, state.Screen(screen)):
		return fmt.Errorf("%w; nothing was sent — `lanes attach %s` to send or clear it, or send --force to type after it", ErrInputHolds, r.Name)
	}
	return nil
}

// ErrInputHolds: the agent's input already holds text (Qwen Code puts an
// interrupted prompt back in it), which the text would run with as one
// prompt.
var ErrInputHolds = errors.New("its input already holds text (the agent put an interrupted prompt back, or someone typed in its pane)")
