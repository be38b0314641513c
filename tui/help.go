package tui

import (
	"strings"

	"lanes/state"
	"lanes/theme"
)

// helpBox is the `?` overlay: every key, and when the terminal is tall
// enough a legend of every badge, mark and dot, so glyphs read without
// colour too.
func (m Model) helpBox() string {
	l := m.look
	var b strings.Builder
	b.WriteString(l.name.s("Keys") + "\n\n" + m.help.FullHelpView(m.keys.FullHelp()))
	if m.h >= 34 && m.w >= 80 {
		b.WriteString("\n\n" + l.name.s("Statuses") + "\n\n")
		const cols, colW = 4, 18
		for i, s := range state.Statuses {
			badge, w := l.badgeFor(s, "", colW)
			b.WriteString(pad(badge, w, colW))
			if i%cols == cols-1 {
				b.WriteString("\n")
			}
		}
		b.WriteString("\n\n" + l.name.s("Marks") + "   ")
		for _, mk := range []state.Mark{state.MarkFailed, state.MarkInterrupted, state.MarkUnconfirmed, state.MarkUnreachable} {
			s, _ := l.markFor(mk)
			b.WriteString(s + "   ")
		}
		b.WriteString("\n" + l.name.s("Dots") + "    ")
		for _, a := range state.Activities {
			b.WriteString(l.dotFor(a, 0) + " " + l.muted.s(theme.ActivitySpec(a).Short) + "  ")
		}
		b.WriteString("\n" + l.muted.s("Only an active dot breathes; a card's badge is its status, a dot its agent's activity."))
	}
	b.WriteString("\n\n" + l.muted.s("any key closes"))
	return l.st.SelectedCard.Padding(1, 2).Render(b.String())
}
