package tui

import (
	"context"
	"fmt"
	"strings"

	"lanes/state"

	tea "charm.land/bubbletea/v2"
)

// askClearDone asks once to remove every terminated session of this host
// lanes started (Done, however old: `lanes rm --done`), saying how many
// and which; another host's stay (`lanes rm --done` there), and so does
// an adopted one (d forgets it).
func (m *Model) askClearDone() tea.Cmd {
	if cmd := m.refuseStale("clear Done"); cmd != nil {
		return cmd
	}
	var done []*state.Record
	for _, r := range m.recs {
		if r.InDoneToClear() {
			done = append(done, r.Clone())
		}
	}
	if len(done) == 0 {
		return m.flash("nothing in Done", false)
	}
	m.push(newConfirm(pending{do: clearDoneAction(done), rec: state.Record{Name: fmt.Sprintf("%d done session(s)", len(done))}}))
	return nil
}

// clearDoneAction removes recs, one by one, and says how many went.
func clearDoneAction(recs []*state.Record) *action {
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	return &action{verb: "clear Done", question: "Remove %s?",
		detail: strings.Join(names, ", ") + ": their records, history and spool are deleted; worktrees stay.",
		say: func(a Actions, ctx context.Context, _ *state.Record) (string, error) {
			gone := 0
			for _, r := range recs {
				if err := a.Remove(ctx, r.Clone()); err != nil {
					return fmt.Sprintf("removed %d of %d", gone, len(recs)), fmt.Errorf("%s: %w", r.Name, err)
				}
				gone++
			}
			return fmt.Sprintf("removed %d done session(s)", gone), nil
		}}
}
