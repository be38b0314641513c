package tui

import (
	"fmt"

	"lanes/internal/shell"
	"lanes/state"

	tea "charm.land/bubbletea/v2"
)

// restorePlanMsg is what restoring a card would run, read off the event
// loop (it asks tmux whether the session is really gone), or why not.
type restorePlanMsg struct {
	rec  state.Record
	host string
	argv []string
	err  error
}

// askRestore (R) asks the command line what restoring the selected card
// would run; restorePlanned then asks to confirm it.
func (m *Model) askRestore(sel *item) tea.Cmd {
	if cmd := m.refuseStale("restore"); cmd != nil {
		return cmd
	}
	if sel == nil {
		return m.flash("select a session first", true)
	}
	r, host := *sel.Rec, sel.Host
	a, ctx := m.actionsOn(host), m.ctx
	return func() tea.Msg {
		argv, err := a.RestorePlan(ctx, &r)
		return restorePlanMsg{rec: r, host: host, argv: argv, err: err}
	}
}

func (m *Model) restorePlanned(msg restorePlanMsg) tea.Cmd {
	if msg.err != nil {
		return m.flash("can't restore "+msg.rec.Name+": "+msg.err.Error(), true)
	}
	if len(m.overlays) > 0 {
		return nil // the user moved on meanwhile
	}
	do := &action{verb: "restore", question: "Restore %s?",
		detail: fmt.Sprintf("Its tmux session is gone. In %s it runs\n  %s", shell.Words([]string{msg.rec.Dir}), shell.Words(msg.argv)),
		doing:  "restoring " + msg.rec.Name + "…", say: Actions.Restore}
	m.push(newConfirm(pending{do: do, rec: msg.rec, host: msg.host}))
	return nil
}
