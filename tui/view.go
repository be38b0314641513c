package tui

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"lanes/state"
	"lanes/theme"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// layout sizes the regions after a resize or a toggle: a title line, the
// sidebar (when every lane still gets its minimum width beside it), the
// lanes, the preview, and the bottom line.
func (m *Model) layout() {
	m.mainH = max(m.h-2, 1)
	m.previewH = 0
	if m.showPrev && m.mainH >= 8 {
		m.previewH = previewHeight(m.mainH)
	}
	allLanes := len(state.Zones)*(minLaneW+laneGap) - laneGap
	m.sidebarOn = m.w >= sidebarW+1+allLanes
	m.boardW = m.w
	if m.sidebarOn {
		m.boardW -= sidebarW + 1
	}
	m.board.setSize(m.boardW, m.mainH-m.previewH)
	m.preview.setSize(m.w, m.previewH)
	m.setHelpLines()
}

// View draws the board. It reads only what Update stored, and does
// nothing else (the pacer sees each view through paced).
func (m Model) View() tea.View {
	content := m.render()
	v := tea.NewView(content)
	v.AltScreen = true
	v.WindowTitle = "lanes"
	return v
}

func (m Model) render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	lines := make([]string, 0, m.h)
	lines = append(lines, m.titleLine())
	// A message wider than the screen takes rows of its own above the
	// bottom line while it lasts (its reason is often at its end): the
	// body gives them up, so nothing under it is hidden.
	more := m.statusLines()
	extra := max(min(len(more)-1, m.mainH-1), 0)
	rows := m.mainH - extra
	if o, ok := m.top().(bodyOverlay); ok { // over the whole body: nothing under it shows
		lines = append(lines, o.body(&m, rows)...)
	} else {
		lines = append(lines, m.body(max(rows-m.previewH, 1))...)
		if m.previewH > 0 {
			p := m.preview.render(m.look)
			lines = append(lines, p[max(len(p)-(rows-1), 0):]...)
		}
	}
	under := len(lines) // the rows a box may cover: all but such a message's
	if extra > 0 {
		lines = append(lines, more[:extra+1]...)
	} else {
		lines, under = append(lines, m.bottomLine()), under+1
	}
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	if o := m.top(); o != nil {
		if box := o.view(&m); box != "" {
			centre(lines[:min(under, len(lines))], box, m.w)
		}
	}
	return strings.Join(lines, "\n")
}

// body is the lanes and the sidebar beside them, h lines: dimmed while
// the store cannot be read, or a word of why when nothing was read.
func (m Model) body(h int) []string {
	if m.stale() && len(m.recs) == 0 {
		return m.troubleBody(h)
	}
	body := m.board.render(m.look, m.boardW, h, m.now, m.frame)
	if m.sidebarOn {
		selID := ""
		if sel := m.board.selected(); sel != nil {
			selID = sel.key()
		}
		side := m.sidebar.render(m.look, h, selID, m.now, m.frame)
		for i := range body {
			body[i] = side[i] + " " + body[i]
		}
	}
	if m.stale() {
		m.dim(body)
	}
	return body
}

// titleLine is the brand, each zone's count in its colour (idle apart, as
// the status line has it), and the filter.
func (m Model) titleLine() string {
	l := m.look
	zones, idle := m.board.counts()
	right, rw := "", 0
	f, filtering := m.top().(filterInput)
	switch {
	case filtering:
		right = f.in.View()
		rw = lipgloss.Width(right)
	case m.filter != "":
		right = l.muted.s("/ ") + l.text.s(m.filter) + l.muted.s("  esc clears")
		rw = ansi.StringWidth(m.filter) + 2 + 12
	}
	if m.showAll {
		right = l.muted.s("all done  ") + right
		rw += 10
	}
	if m.hostSel > 0 { // the host filter
		label := m.hostLabel()
		right = l.muted.s("@ ") + l.text.s(label) + l.muted.s("  ") + right
		rw += 4 + width(label)
	}
	brand := l.brand.s(" lanes ")
	room := m.w - 7 - rw - 2
	sum, sw := m.summary(zones, idle, true)
	if sw > room {
		sum, sw = m.summary(zones, idle, false)
	}
	if sw > room {
		sum, sw = "", 0
	}
	if len(m.hosts) > 0 { // which hosts are down or connecting
		sum, sw = m.hostTitle(zones, idle, sum, sw, room)
	}
	if m.stale() { // the counts are stale too; what to do comes first
		note := truncate("✗ "+troubleNote(m.trouble), max(m.w-7-1, 0))
		sum, sw = l.errText.s(note), width(note)
		if rw == 0 && !m.readAt.IsZero() { // how old the dimmed records are
			age := "last read " + theme.Age(m.now, m.readAt) + " ago"
			right, rw = l.muted.s(age), width(age)
		}
		if rw > m.w-7-1-sw-1 {
			right, rw = "", 0
		}
	}
	if exited := m.serverExitNote(m.w - 7 - 1 - rw - 1 - 2); !m.stale() && exited != "" { // what went, and what brings it back
		note := truncate("✗ "+exited, max(m.w-7-1-rw-1, 0))
		sum, sw = l.errText.s(note), width(note)
	} else if !m.stale() && !m.tmuxDownSince.IsZero() { // the flash at the bottom passes; this lasts
		note := truncate("✗ "+m.tmuxNote(), max(m.w-7-1-rw-1, 0))
		sum, sw = l.errText.s(note), width(note)
	}
	if m.prsStopped != "" && rw == 0 && m.w-7-1-sw >= 20 { // and so does this, where it fits
		const note = "✗ PRs from GitHub off"
		right, rw = l.errText.s(note), width(note)
	}
	if today, over := m.usageToday(); m.o.UsageTopLine && rw == 0 && today != "" && m.w-7-1-sw-1 >= width(today)+2 { // formatted only: rebuild summed it
		right, rw = l.muted.s(today), width(today)
		if over { // the day's budget is spent: said until the day ends
			right, rw = l.errText.s("✗ "+today), width(today)+2
		}
	}
	if rw > m.w-7-1 {
		right, rw = "", 0
	}
	line := brand + " " + sum + strings.Repeat(" ", max(m.w-7-1-sw-rw, 0)) + right
	if m.w < 8 {
		return ansi.Truncate(line, m.w, "")
	}
	return line
}

// summary is "● 2 working  ○ 3 idle  ◆ 1 needs you …" (long) or
// "●2 ○3 ◆1 …" (short), zero counts muted.
func (m Model) summary(zones []int, idle int, long bool) (string, int) {
	l := m.look
	var sb strings.Builder
	w := 0
	add := func(p paint, glyph string, n int, label string) {
		if w > 0 {
			sb.WriteString(" ")
			w++
			if long {
				sb.WriteString(" ")
				w++
			}
		}
		text := glyph + strconv.Itoa(n)
		if long {
			text = glyph + " " + strconv.Itoa(n) + " " + label
		}
		if n == 0 {
			p = l.muted
		}
		sb.WriteString(p.s(text))
		w += ansi.StringWidth(text)
	}
	for i, z := range state.Zones {
		sp := theme.ZoneSpec(z)
		add(l.zone[z], sp.Glyph, zones[i], strings.ToLower(sp.Short))
		if z == state.ZoneWorking {
			isp := theme.StatusSpec(state.StatusIdle)
			add(l.role[isp.Role], isp.Glyph, idle, strings.ToLower(isp.Short))
		}
	}
	return sb.String(), w
}

// statusLineMax is how many rows a long message may take.
const statusLineMax = 3

// statusLines is the status message wrapped to the screen's width, at
// most statusLineMax rows (the last cut); nil when it fits on one.
func (m Model) statusLines() []string {
	if m.status.text == "" {
		return nil
	}
	p, text := m.look.text, "· "+oneLine(m.status.text)
	if m.status.isErr {
		p, text = m.look.errText, "✗ "+oneLine(m.status.text)
	}
	if width(text) <= m.w || m.w < 10 {
		return nil
	}
	rows := strings.Split(ansi.Wrap(text, m.w, " "), "\n")
	if len(rows) > statusLineMax {
		rows[statusLineMax-1] = strings.Join(rows[statusLineMax-1:], " ")
		rows = rows[:statusLineMax]
	}
	for i, r := range rows {
		rows[i] = fit(p, r, paint{}, "", m.w)
	}
	return rows
}

// bottomLine is the status message while it lasts, else the keys of
// whatever has focus.
func (m Model) bottomLine() string {
	l := m.look
	if m.status.text != "" {
		if m.status.isErr {
			return fit(l.errText, "✗ "+oneLine(m.status.text), paint{}, "", m.w)
		}
		return fit(l.text, "· "+oneLine(m.status.text), paint{}, "", m.w)
	}
	if line, ok := m.answerHelp(); ok {
		return line
	}
	if len(m.overlays) > 0 {
		return m.overlays[len(m.overlays)-1].line
	}
	return m.footLine[m.footer()]
}

// footer is the key line for the selection: the idle stack's head, a
// card, or none.
func (m Model) footer() footer {
	sel := m.board.selected()
	switch {
	case m.board.onIdleHead():
		return footIdle
	case sel == nil:
		return footLive
	case sel.Rec.Merged():
		return footMerged
	case sel.Rec.Runtime.Terminated && state.Restorable(sel.Rec, true) == nil:
		return footRestorable
	case sel.Rec.Runtime.Terminated:
		return footEnded
	case errors.Is(state.CanSend(sel.Rec, true), state.ErrAgentExited):
		return footExited
	}
	return footLive
}

// setHelpLines renders the key lines once per size or theme: the help
// bubble measures every item with Lip Gloss, too slow for every frame.
func (m *Model) setHelpLines() {
	m.help.SetWidth(m.w)
	for f := range footAnswer {
		m.footLine[f] = m.keyLine(m.keys.footerKeys(f, ""))
	}
	m.setAnswerLines()
	m.restyleOverlays()
}

// keyLine is bindings as the key line shows them in m.w cells: all, or
// those that fit, "? help" last whatever goes (at 45 columns it was the
// first cut, and with it the way to every other key).
func (m *Model) keyLine(bindings []key.Binding) string {
	var rest []key.Binding
	var helpKey *key.Binding
	for _, b := range bindings {
		if b.Help().Key == "?" {
			helpKey = &b
			continue
		}
		rest = append(rest, b)
	}
	if helpKey != nil {
		whole := m.help // measured whole: the bubble would cut them itself
		whole.SetWidth(0)
		for n := len(rest); n >= 0; n-- {
			if line := whole.ShortHelpView(append(slices.Clone(rest[:n]), *helpKey)); ansi.StringWidth(line) <= m.w {
				return line
			}
		}
	}
	// help cuts at the last item that fits, but not when even its "…"
	// does not; the cut here holds at any width.
	return ansi.Truncate(m.help.ShortHelpView(bindings), m.w, "…")
}

// oneLine keeps a message on its line (tmux errors carry stderr).
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// centre draws box centred over lines, w cells wide.
func centre(lines []string, box string, w int) {
	bl := strings.Split(box, "\n")
	bw := min(lipgloss.Width(box), w)
	x := max((w-bw)/2, 0)
	y := max((len(lines)-len(bl))/2, 0)
	for i, s := range bl {
		if y+i >= len(lines) {
			break
		}
		base := lines[y+i]
		s = ansi.Truncate(s, bw, "")
		lines[y+i] = ansi.Truncate(base, x, "") + ansi.ResetStyle + s + ansi.ResetStyle +
			ansi.TruncateLeft(base, x+bw, "")
	}
}
