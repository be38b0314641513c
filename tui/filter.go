package tui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// filterInput is the `/` overlay: the filter typed in the title line,
// the board narrowed at each key. enter keeps it (esc on the board clears
// it), esc clears it.
type filterInput struct{ in textinput.Model }

var filterKeys = []key.Binding{helpBinding("enter", "keep filter"), helpBinding("esc", "clear")}

// openFilter opens the filter where it was left.
func (m *Model) openFilter(*item) tea.Cmd {
	f := filterInput{in: newInput(m.look, "/ ", "name, agent or branch")}
	f.in.SetWidth(30)
	f.in.SetValue(m.filter)
	cmd := f.in.Focus()
	m.push(f)
	return cmd
}

func (f filterInput) update(b *Model, msg tea.Msg) (overlay, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok { // cursor blinks, pastes
		var cmd tea.Cmd
		f.in, cmd = f.in.Update(msg)
		return f, cmd
	}
	switch k.String() {
	case "enter":
		if b.board.selectFirstCard() {
			return nil, tea.Batch(b.capture(), b.loadHistory(false))
		}
		return nil, nil
	case "esc":
		b.filter = ""
		b.rebuild()
		return nil, nil
	}
	var cmd tea.Cmd
	f.in, cmd = f.in.Update(k)
	if v := f.in.Value(); v != b.filter {
		b.filter = v
		b.rebuild()
	}
	return f, cmd
}

// view is empty: the title line shows the input (titleLine).
func (f filterInput) view(*Model) string { return "" }

func (f filterInput) keys() []key.Binding { return filterKeys }

func (f filterInput) restyle(l *look) overlay {
	f.in.SetStyles(l.input)
	return f
}
