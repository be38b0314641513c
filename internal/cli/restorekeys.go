package cli

import (
	"context"

	"lanes/state"
)

// The board's R (docs/design.md §13): restore a card whose tmux session is
// gone, after a confirm that shows what will run.

// RestorePlan is the agent's command as `lanes restore` would run it for r
// (its resume arguments included, lanes' injected flags not), or why r
// cannot be restored.
func (b BoardActions) RestorePlan(ctx context.Context, r *state.Record) ([]string, error) {
	all, err := b.a.records()
	if err != nil {
		return nil, err
	}
	plan, err := b.a.planRestore(ctx, r, all)
	if err != nil {
		return nil, err
	}
	return plan.shows(r), nil
}

// Restore is `lanes restore NAME`; it says how the session came back.
func (b BoardActions) Restore(ctx context.Context, r *state.Record) (string, error) {
	all, err := b.a.records()
	if err != nil {
		return "", err
	}
	return b.a.restore(ctx, r, all)
}

// records is every stored record, as they are now.
func (a *app) records() (all []*state.Record, err error) {
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	err = st.View(func(tx *state.Tx) error {
		all, err = tx.All()
		return err
	})
	return all, err
}
