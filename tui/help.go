package tui

import (
	"fmt"
	"strings"

	"lanes/state"
	"lanes/theme"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// helpView is the `?` overlay: every key, and a legend of every badge,
// mark and dot, so glyphs read without colour too. Where both do not fit
// on one page they are pages (helpPages), and tab turns them; any other
// key closes it.
type helpView struct {
	page int           // the page shown, when there are several
	foot []key.Binding // the key line under it: what its keys do
}

// openHelp opens the help on its first page.
func (m *Model) openHelp(*item) tea.Cmd {
	foot := []key.Binding{helpBinding("any key", "close")}
	if len(m.helpPages()) > 1 {
		foot = []key.Binding{helpBinding("tab", "next page"), helpBinding("shift+tab", "back"), helpBinding("other keys", "close")}
	}
	m.push(helpView{foot: foot})
	return nil
}

func (v helpView) update(b *Model, msg tea.Msg) (overlay, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil
	}
	if n := len(b.helpPages()); n > 1 && (k.String() == "tab" || k.String() == "shift+tab") {
		step := map[bool]int{true: 1, false: n - 1}[k.String() == "tab"]
		v.page = (v.page + step) % n
		return v, nil
	}
	return nil, nil
}

func (v helpView) keys() []key.Binding { return v.foot }

// view is the help's box, its page v.page.
func (v helpView) view(m *Model) string {
	l := m.look
	pages := m.helpPages()
	page := pages[v.page%len(pages)]
	hint := "any key closes"
	if len(pages) > 1 {
		back := " (shift+tab back)"
		if m.w < 60 {
			back = "" // the hint stays one line; shift+tab still turns back
		}
		hint = fmt.Sprintf("tab: page %d of %d%s · other keys close", v.page%len(pages)+1, len(pages), back)
	}
	// Every page as wide as the widest, so tab turns pages in one place.
	wide := lipgloss.Width(hint)
	for _, p := range pages {
		wide = max(wide, lipgloss.Width(p))
	}
	body := lipgloss.NewStyle().Width(wide).Render(page + "\n\n" + l.muted.s(hint))
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
func (m *Model) helpPages() []string {
	l := m.look
	full := m.keys.fullHelp(situation{hosts: len(m.hosts) > 0})
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
// atop each page (when there is a title), head atop the first. A line
// that starts with a space belongs with the one above it (a legend row's
// items flowed under its label): such a group moves whole to the next
// page rather than be cut, unless it is taller than a page. The pages
// share the lines evenly where every line stands alone (the keys: never a
// page of two after full ones).
func cut(title string, lines []string, room int, head string) []string {
	per := room
	if head != "" {
		per -= lipgloss.Height(head)
	}
	if title != "" {
		per -= 2
	}
	per = max(per, 2)
	gs := groups(lines)
	if n := (len(lines) + per - 1) / per; n > 1 && len(gs) == len(lines) {
		per = (len(lines) + n - 1) / n
	}
	var pages [][]string
	var page []string
	for _, g := range gs {
		if len(page) > 0 && len(page)+len(g) > per {
			pages, page = append(pages, page), nil
		}
		for len(g) > per { // taller than a page: cut after all
			pages, g = append(pages, g[:per]), g[per:]
		}
		if len(page) == 0 && len(g) > 0 && strings.TrimSpace(ansi.Strip(g[0])) == "" {
			g = g[1:] // a page starts with what it shows
		}
		page = append(page, g...)
	}
	if len(page) > 0 {
		pages = append(pages, page)
	}
	for i, p := range pages { // nor ends with a blank line
		for len(p) > 1 && strings.TrimSpace(ansi.Strip(p[len(p)-1])) == "" {
			p = p[:len(p)-1]
		}
		pages[i] = p
	}
	out := make([]string, len(pages))
	for i, p := range pages {
		top := ""
		if i == 0 {
			top = head
		}
		if title != "" {
			top += title + "\n\n"
		}
		out[i] = top + strings.Join(p, "\n")
	}
	return out
}

// groups are lines split before each line that neither starts with a
// space nor is blank.
func groups(lines []string) [][]string {
	var out [][]string
	for _, l := range lines {
		if t := ansi.Strip(l); len(out) == 0 || t != "" && !strings.HasPrefix(t, " ") {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], l)
	}
	return out
}

// helpFits reports whether keys and legend fit on one page.
func (m Model) helpFits() bool { return m.h >= 34 && m.w >= 80 }

// sayLegend is what each content cue means, short enough for one line of
// the legend at 80 columns.
var sayLegend = map[state.Say]string{
	state.SayTool:    "tool running",
	state.SayAsk:     "question or permission",
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
	// Each row flows under its label at any width (45×20 too).
	b.WriteString("\n\n" + flowItems(l.name.s("Marks")+"   ", marks, "   ", m.w-8))
	var dots []string
	for _, a := range state.Activities {
		dots = append(dots, l.dotFor(a, 0)+" "+l.muted.s(theme.ActivitySpec(a).Short))
	}
	b.WriteString("\n" + flowItems(l.name.s("Dots")+"    ", dots, "  ", m.w-8))
	var says []string
	for _, k := range []state.Say{state.SayTool, state.SayAsk, state.SayMessage} {
		g := theme.SaySpec(k).Glyph
		if k == state.SayMessage {
			g += "…”"
		}
		says = append(says, l.sayGlyph[k].s(g)+" "+l.muted.s(sayLegend[k]))
	}
	b.WriteString("\n" + flowItems(l.name.s("Says")+"    ", says, "  ", m.w-8))
	branch := []string{l.muted.s("↑ commits ahead of its base"), l.muted.s("↓ behind"), l.muted.s("± files changed")}
	b.WriteString("\n" + flowItems(l.name.s("Branch")+"  ", branch, "  ", m.w-8))
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
