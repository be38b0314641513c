package tui

import (
	"fmt"
	"strings"

	"lanes/state"
	"lanes/theme"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// helpBox is the `?` overlay: every key, and a legend of every badge, mark
// and dot, so glyphs read without colour too. Where both do not fit on one
// page they are pages (helpPages), and tab turns them.
func (m Model) helpBox() string {
	l := m.look
	pages := m.helpPages()
	page := pages[m.helpPage%len(pages)]
	hint := "any key closes"
	if len(pages) > 1 {
		hint = fmt.Sprintf("tab: page %d of %d · other keys close", m.helpPage%len(pages)+1, len(pages))
	}
	body := page + "\n\n" + l.muted.s(hint)
	box := l.st.SelectedCard.Padding(1, 2)
	if lipgloss.Width(body)+6 > m.w-2 { // padding and border; keep a margin
		box = box.Width(max(m.w-2, 10)) // wraps the longest lines
	}
	return box.Render(body)
}

// helpPages are the help's pages: keys and legend on one where both fit
// (80×34 and up); else the keys in their columns where those fit (80×24),
// or in one column cut to the screen's height (45×20: the columns lost
// all but the first), then the legend, cut the same way.
func (m Model) helpPages() []string {
	l := m.look
	full := m.keys.FullHelp()
	if len(m.hosts) > 0 { // the host filter, where there are hosts to filter
		full[1] = append(full[1], m.keys.Host)
	}
	head := ""
	if m.stale() { // the title says it short; here it is whole
		head = l.errText.s("Store") + "\n\n" + l.text.s(oneLine(m.trouble.Error())) + "\n\n"
	}
	whole := m.help
	whole.SetWidth(0)
	cols := whole.FullHelpView(full)
	room := max(m.h-8, 4) // the screen less border, padding and the hint
	if m.helpFits() {
		return []string{head + l.name.s("Keys") + "\n\n" + cols + "\n\n" + m.legend()}
	}
	var pages []string
	if lipgloss.Width(cols)+8 <= m.w && lipgloss.Height(head+cols)+2 <= room {
		pages = append(pages, head+l.name.s("Keys")+"\n\n"+cols)
	} else {
		pages = append(pages, cut(l.name.s("Keys"), m.keyColumn(full), room, head)...)
	}
	// Wrapped here as the box would, so each page is as tall as it shows.
	legend := ansi.Wordwrap(m.legend(), max(m.w-8, 10), " ")
	return append(pages, cut("", strings.Split(legend, "\n"), room, "")...)
}

// keyColumn is every key of full, one a line, its words after it.
func (m Model) keyColumn(full [][]key.Binding) []string {
	kw := 0
	for _, col := range full {
		for _, b := range col {
			kw = max(kw, lipgloss.Width(b.Help().Key))
		}
	}
	var out []string
	for _, col := range full {
		for _, b := range col {
			k := b.Help().Key
			out = append(out, m.look.name.s(k)+strings.Repeat(" ", kw-lipgloss.Width(k)+1)+m.look.muted.s(b.Help().Desc))
		}
	}
	return out
}

// cut lays lines on pages of room lines each, title and a blank line
// atop each page (when there is a title), head atop the first.
func cut(title string, lines []string, room int, head string) []string {
	per := room - lipgloss.Height(head)
	if title != "" {
		per -= 2
	}
	per = max(per, 2)
	var pages []string
	for i := 0; i < len(lines); i += per {
		page := head
		if title != "" {
			page += title + "\n\n"
		}
		pages = append(pages, page+strings.Join(lines[i:min(i+per, len(lines))], "\n"))
		head = ""
	}
	return pages
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
