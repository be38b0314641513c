package tui

import (
	"fmt"
	"strings"

	"lanes/state"
	"lanes/theme"

	tea "charm.land/bubbletea/v2"
)

// diffView is the `D` overlay: what the selected session's checkout
// changed against its base, `git diff --stat` then the diff, scrolled
// (docs/design.md §12). It is read once when opened (R reads it again).
type diffView struct {
	id, name string
	lines    []string // as git gave them, tabs expanded
	err      string
	loading  bool
	off      int
}

// diffMsg is the answer to Actions.Diff for session id.
type diffMsg struct {
	id  string
	out []byte
	err error
}

// openDiff opens the overlay on the selection and asks for its diff.
func (m *Model) openDiff(sel *item) tea.Cmd {
	if sel == nil {
		return m.flash("select a session first", true)
	}
	r := *sel.Rec
	m.diff = diffView{id: r.ID, name: r.Name, loading: true}
	m.mode = modeDiff
	ctx, a := m.ctx, m.actionsOn(sel.Host)
	return func() tea.Msg {
		out, err := a.Diff(ctx, &r)
		return diffMsg{id: r.ID, out: out, err: err}
	}
}

// setDiff takes the diff of the session the overlay shows.
func (d *diffView) set(msg diffMsg) {
	if msg.id != d.id {
		return // an answer for an overlay closed since
	}
	d.loading, d.err, d.lines = false, "", nil
	if msg.err != nil {
		d.err = msg.err.Error()
		return
	}
	// The diff is the agent's text: no control character reaches the
	// terminal (git is asked for no colour; lanes paints it).
	for _, s := range strings.Split(strings.TrimRight(string(msg.out), "\n"), "\n") {
		d.lines = append(d.lines, state.CleanText(strings.ReplaceAll(s, "\t", "    ")))
	}
	if len(d.lines) == 1 && d.lines[0] == "" {
		d.lines = nil
	}
}

// onDiffKey scrolls the diff, reads it again, or closes it.
func (m Model) onDiffKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	page := max(m.overlayRows()-1, 1)
	switch k.String() {
	case "j", "down":
		m.diff.off++
	case "k", "up":
		m.diff.off--
	case "space", "pgdown", "f":
		m.diff.off += page
	case "b", "pgup":
		m.diff.off -= page
	case "g", "home":
		m.diff.off = 0
	case "G", "end":
		m.diff.off = len(m.diff.lines)
	case "R":
		if r := m.recordOf(m.diff.id); r != nil {
			return m, m.openDiff(&item{Derived: state.Derived{Rec: r}})
		}
	case "esc", "q", "D":
		m.mode = modeBoard
	}
	m.diff.off = min(max(m.diff.off, 0), max(len(m.diff.lines)-m.overlayRows(), 0))
	return m, nil
}

// recordOf is the record of session id as the board holds it.
func (m Model) recordOf(id string) *state.Record {
	for _, r := range m.recs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// diffBox is the overlay over the body (h lines).
func (m Model) diffBox(h int) []string {
	l, d := m.look, &m.diff
	cw := max(m.w-4, 0)
	var lines []string
	switch {
	case d.loading:
		lines = append(lines, fit(l.muted, "reading the diff…", paint{}, "", cw))
	case d.err != "":
		lines = append(lines, fit(l.errText, d.err, paint{}, "", cw))
	case len(d.lines) == 0:
		lines = append(lines, fit(l.muted, "no changes against its base", paint{}, "", cw))
	}
	for i := d.off; i < len(d.lines) && len(lines) < h; i++ {
		s := d.lines[i]
		p := l.text
		switch {
		case strings.HasPrefix(s, "+++"), strings.HasPrefix(s, "---"), strings.HasPrefix(s, "diff "):
			p = l.name
		case strings.HasPrefix(s, "+"):
			p = l.role[theme.RoleMerged]
		case strings.HasPrefix(s, "-"):
			p = l.errText
		case strings.HasPrefix(s, "@@"):
			p = l.muted
		}
		lines = append(lines, fit(p, s, paint{}, "", cw))
	}
	return m.overlay(h, fmt.Sprintf("Diff · %s", d.name), d.off, len(d.lines), lines)
}
