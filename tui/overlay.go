package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// overlay is a component over the board: help, history, diff, a dialog,
// the filter. Model.overlays is a stack of them; the top one has the
// keyboard and every message the board does not take itself. It closes by
// returning nil from update (the stack pops), a dialog by closeDialogMsg.
// It tells the board to act through messages (submitNewMsg, confirmedMsg,
// submitSendMsg) or, for what the board owns (the filter, the selection,
// the history it loads), through b.
type overlay interface {
	// update takes msg while the overlay is on top; nil closes it.
	update(b *Model, msg tea.Msg) (overlay, tea.Cmd)
	// view is the overlay's box, centred over the screen ("" for none).
	view(b *Model) string
	// keys are the keys it shows on the bottom line while on top.
	keys() []key.Binding
}

// bodyOverlay is an overlay that takes the body's place (h lines) rather
// than a box over it: nothing of the board shows under it.
type bodyOverlay interface {
	overlay
	body(b *Model, h int) []string
}

// styled is an overlay whose inputs take the theme's styles.
type styled interface {
	overlay
	restyle(l *look) overlay
}

// layer is an overlay on the stack and its key line, rendered once per
// size or theme (the help bubble measures every item with Lip Gloss).
type layer struct {
	o    overlay
	line string
}

// top is the overlay that has the keyboard, nil when the board has it.
func (m *Model) top() overlay {
	if len(m.overlays) == 0 {
		return nil
	}
	return m.overlays[len(m.overlays)-1].o
}

// topIs reports whether an overlay of type T has the keyboard.
func topIs[T overlay](m *Model) bool {
	_, ok := m.top().(T)
	return ok
}

// The stack is never written in place: a Model is a value, and a copy of
// it (Bubble Tea's previous one, a test's) keeps its own overlays.

// push opens o over whatever is open.
func (m *Model) push(o overlay) {
	m.overlays = append(slices.Clip(m.overlays), layer{o: o, line: m.keyLine(o.keys())})
	// What was said before is over: the bottom line is the new one's keys
	// (a message left standing hid a confirm's y yes • n/esc no).
	m.status = statusLine{seq: m.status.seq + 1}
}

// pop closes the top overlay.
func (m *Model) pop() {
	if n := len(m.overlays); n > 0 {
		m.overlays = m.overlays[: n-1 : n-1]
	}
}

// closeTop closes the top overlay when it is a T: the board did what it
// asked.
func closeTop[T overlay](m *Model) {
	if topIs[T](m) {
		m.pop()
	}
}

// setTop replaces the top overlay by o, its next state (nil: pops it).
func (m *Model) setTop(o overlay) {
	if o == nil {
		m.pop()
		return
	}
	if n := len(m.overlays); n > 0 {
		m.overlays = append(slices.Clone(m.overlays[:n-1]), layer{o: o, line: m.overlays[n-1].line})
	}
}

// closeDialog closes the dialog on top: a dialog closes a message after
// its last key, as it asks the board to act (submitNewMsg…).
func closeDialog() tea.Msg { return closeDialogMsg{} }

// toTop hands msg to the top overlay, if any.
func (m Model) toTop(msg tea.Msg) (tea.Model, tea.Cmd) {
	o := m.top()
	if o == nil {
		return m, nil
	}
	next, cmd := o.update(&m, msg)
	m.setTop(next)
	return m, cmd
}

// restyleOverlays gives the open overlays the current theme and renders
// their key lines again.
func (m *Model) restyleOverlays() {
	m.overlays = slices.Clone(m.overlays)
	for i := range m.overlays {
		if s, ok := m.overlays[i].o.(styled); ok {
			m.overlays[i].o = s.restyle(m.look)
		}
		m.overlays[i].line = m.keyLine(m.overlays[i].o.keys())
	}
}
