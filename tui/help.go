package tui

import (
	"strings"

	"lanes/state"
	"lanes/theme"

	"charm.land/lipgloss/v2"
)

// helpBox is the `?` overlay: every key, and a legend of every badge, mark
// and dot, so glyphs read without colour too. When both do not fit (80×24),
// they are two pages, and tab turns between them.
func (m Model) helpBox() string {
	l := m.look
	full := m.keys.FullHelp()
	if len(m.hosts) > 0 { // the host filter, where there are hosts to filter
		full[1] = append(full[1], m.keys.Host)
	}
	keys := l.name.s("Keys") + "\n\n" + m.help.FullHelpView(full)
	if m.stale() { // the title says it short; here it is whole
		keys = l.errText.s("Store") + "\n\n" + l.text.s(oneLine(m.trouble.Error())) + "\n\n" + keys
	}
	var body string
	switch {
	case m.helpFits():
		body = keys + "\n\n" + m.legend() + "\n\n" + l.muted.s("any key closes")
	case m.helpPage == 0:
		body = keys + "\n\n" + l.muted.s("tab statuses and glyphs · any other key closes")
	default:
		body = m.legend() + "\n\n" + l.muted.s("tab keys · any other key closes")
	}
	box := l.st.SelectedCard.Padding(1, 2)
	if lipgloss.Width(body)+6 > m.w-2 { // padding and border; keep a margin
		box = box.Width(m.w - 2) // wraps the longest lines
	}
	return box.Render(body)
}

// helpFits reports whether keys and legend fit on one page.
func (m Model) helpFits() bool { return m.h >= 34 && m.w >= 80 }

// sayLegend is what each content cue means, short enough for one line of
// the legend at 80 columns.
var sayLegend = map[state.Say]string{
	state.SayTool:    "tool running",
	state.SayAsk:     "question or permission asked",
	state.SayMessage: "last message",
}

// legend shows every status badge, mark and activity dot.
func (m Model) legend() string {
	l := m.look
	var b strings.Builder
	b.WriteString(l.name.s("Statuses") + "\n\n")
	const colW = 18
	cols := max(1, min(4, (m.w-8)/colW))
	for i, s := range state.Statuses {
		badge, w := l.badgeFor(s, "", colW)
		b.WriteString(pad(badge, w, colW))
		if i%cols == cols-1 && i < len(state.Statuses)-1 {
			b.WriteString("\n")
		}
	}
	var marks []string
	for _, mk := range state.Marks {
		s, _ := l.markFor(mk)
		marks = append(marks, s)
	}
	marks = append(marks, l.role[theme.Muted.Role].s(theme.Muted.Glyph+" "+theme.Muted.Short))
	b.WriteString("\n\n" + flowItems(l.name.s("Marks")+"   ", marks, "   ", m.w-8))
	b.WriteString("\n" + l.name.s("Dots") + "    ")
	for _, a := range state.Activities {
		b.WriteString(l.dotFor(a, 0) + " " + l.muted.s(theme.ActivitySpec(a).Short) + "  ")
	}
	b.WriteString("\n" + l.name.s("Says") + "    ")
	for _, k := range []state.Say{state.SayTool, state.SayAsk, state.SayMessage} {
		g := theme.SaySpec(k).Glyph
		if k == state.SayMessage {
			g += "…”"
		}
		b.WriteString(l.sayGlyph[k].s(g) + " " + l.muted.s(sayLegend[k]) + "  ")
	}
	b.WriteString("\n" + l.name.s("Branch") + "  " + l.muted.s("↑ commits ahead of its base  ↓ behind  ± files changed"))
	b.WriteString("\n" + l.muted.s("Only an active dot breathes; a card's badge is its status, a dot its agent's activity."))
	return b.String()
}

// flowItems lays items after head, sep between them, and starts a new line
// (indented as wide as head) before an item that would pass width: a
// label is never cut in two.
func flowItems(head string, items []string, sep string, width int) string {
	indent := strings.Repeat(" ", lipgloss.Width(head))
	var b strings.Builder
	b.WriteString(head)
	x := lipgloss.Width(head)
	for i, it := range items {
		w := lipgloss.Width(it)
		if i > 0 {
			if x+len(sep)+w > width {
				b.WriteString("\n" + indent)
				x = len(indent)
			} else {
				b.WriteString(sep)
				x += len(sep)
			}
		}
		b.WriteString(it)
		x += w
	}
	return b.String()
}
