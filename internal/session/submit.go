package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/state"
	"lanes/tmux"
)

// submit types text into r's pane, whose input lanes reads and has just
// seen empty, and presses Enter only once that input shows the text: an
// agent busy drawing (a Gemini CLI resuming its conversation on a loaded
// machine) read an Enter that came a fixed gap after the paste as part of
// it, and the prompt stayed unsent while send said it was sent. After
// Enter the input must not hold it any more (the agent took the prompt,
// or queued it, or drew a dialog over it); a prompt still there, and only
// it, gets Enter once more, then send says it was not taken.
func (s *Service) submit(ctx context.Context, tc *tmux.Client, r *state.Record, text string) error {
	pane := r.Runtime.PaneID
	if err := tc.Paste(ctx, pane, text); err != nil {
		return err
	}
	// Shown: held, or drawn over (Qwen Code's slash-command list hides
	// the footer lanes finds its input by); not yet: still found empty.
	err := s.awaitInput(ctx, tc, r, time.Now().Add(tmux.EnterGap), func(holds, found bool) bool { return holds || !found })
	if errors.Is(err, errInputStays) {
		return fmt.Errorf("the text did not show in its input within %s, so Enter was not pressed: it may be waiting unsent there", submitWait)
	}
	if err != nil {
		return err
	}
	for try := 1; ; try++ {
		if err := tc.SendKeys(ctx, pane, "Enter"); err != nil {
			return fmt.Errorf("text pasted but Enter not confirmed by tmux, it may be waiting unsent: %w", err)
		}
		err := s.awaitInput(ctx, tc, r, time.Time{}, func(holds, _ bool) bool { return !holds })
		switch {
		case !errors.Is(err, errInputStays):
			return err
		case try == 2:
			return errors.New("the text stayed in its input after Enter twice: the agent did not take it")
		}
	}
}

// errInputStays: awaitInput's deadline passed with the input as it was.
var errInputStays = errors.New("its input did not change")

// submitWait is how long submit waits for the input to show the text,
// and then to empty after Enter.
const submitWait = 2 * time.Second

// awaitInput waits, from notBefore, until what r's pane shows of its
// input (state.ReadInput) is done.
func (s *Service) awaitInput(ctx context.Context, tc *tmux.Client, r *state.Record, notBefore time.Time, done func(holds, found bool) bool) error {
	deadline := time.Now().Add(submitWait)
	for {
		if time.Until(notBefore) <= 0 {
			screen, err := tc.CaptureText(ctx, r.Runtime.PaneID)
			switch {
			case err != nil:
				return fmt.Errorf("reading its input: %w", err)
			case done(state.ReadInput(r.Agent, state.Screen(screen))):
				return nil
			case time.Now().After(deadline):
				return errInputStays
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("watching its input: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
