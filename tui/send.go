package tui

import (
	"strings"

	"lanes/state"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// sendDialog types a prompt into a live agent.
type sendDialog struct {
	rec   state.Record
	input textinput.Model
	host  string // the session's host, "" for this one
}

func newSendDialog(l *look, r state.Record) sendDialog {
	d := sendDialog{rec: r, input: newInput(l, "› ", "prompt for "+r.Name)}
	d.input.Focus()
	return d
}

// update edits the prompt; enter asks the board to send it
// (submitSendMsg, which closes the dialog), esc closes it (closeDialogMsg).
func (d sendDialog) update(b *Model, msg tea.Msg) (overlay, tea.Cmd) {
	d.input = fitInput(d.input, b.w) // as wide as it shows before it scrolls
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "esc":
			return d, closeDialog
		case "enter":
			if strings.TrimSpace(d.input.Value()) == "" {
				return d, nil
			}
			s := submitSendMsg{rec: d.rec, text: d.input.Value(), host: d.host}
			return d, func() tea.Msg { return s }
		}
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return d, cmd
}

func (d sendDialog) view(m *Model) string {
	l, w := m.look, m.w
	d.input = fitInput(d.input, w)
	to := d.rec.Name
	if d.host != "" {
		to += " on " + d.host
	}
	return box(l, l.name.s("Send to "+to)+"\n\n"+d.input.View()+"\n\n"+
		l.muted.s("typed literally, then Enter"), w)
}

func (d sendDialog) keys() []key.Binding {
	return []key.Binding{helpBinding("enter", "send"), helpBinding("esc", "cancel")}
}

func (d sendDialog) restyle(l *look) overlay {
	d.input.SetStyles(l.input)
	return d
}
