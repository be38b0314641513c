package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// confirmDialog asks y/n before a kill, restart or remove.
type confirmDialog struct{ act pending }

func newConfirm(p pending) confirmDialog { return confirmDialog{act: p} }

// update answers the dialog: y asks the board to act (confirmedMsg, which
// closes it), n or esc closes it (closeDialogMsg).
func (c confirmDialog) update(_ *Model, msg tea.Msg) (overlay, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil
	}
	switch k.String() {
	case "y", "Y":
		act := c.act
		return c, func() tea.Msg { return confirmedMsg{act} }
	case "n", "N", "esc", "q":
		return c, closeDialog
	}
	return c, nil
}

func (c confirmDialog) view(m *Model) string {
	l, w := m.look, m.w
	name := c.act.rec.Name
	if c.act.host != "" { // which of the sessions of this name it ends
		name += " on " + c.act.host
	}
	question := fmt.Sprintf(c.act.do.question, name)
	return box(l, l.name.s(question)+"\n\n"+l.muted.s(c.act.do.detail)+"\n\n"+
		l.name.s("y")+l.muted.s(" yes   ")+l.name.s("n")+l.muted.s(" no"), w)
}

func (c confirmDialog) keys() []key.Binding {
	return []key.Binding{helpBinding("y", "yes"), helpBinding("n/esc", "no")}
}
