package tui

import (
	"fmt"
	"strings"

	"lanes/state"
	"lanes/theme"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// diffView is the `D` overlay: what the selected session's checkout
// changed against its base, `git diff --stat` then the diff, scrolled
// (docs/design.md §12). It is read once when opened (R reads it again).
type diffView struct {
	id, name string
	host     string   // "" this one
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

var diffKeys = []key.Binding{helpBinding("↑/k ↓/j", "scroll"), helpBinding("space/b", "page"),
	helpBinding("g/G", "top/end"), helpBinding("R", "read again"), helpBinding("esc/D/q", "close")}

// openDiff opens the overlay on the selection and asks for its diff.
func (m *Model) openDiff(sel *item) tea.Cmd {
	if sel == nil {
		return m.flash("select a session first", true)
	}
	d, cmd := m.readDiff(sel)
	m.push(d)
	return cmd
}

// readDiff is the overlay on sel, reading, and the Cmd that reads it.
func (m *Model) readDiff(sel *item) (diffView, tea.Cmd) {
	r := *sel.Rec
	ctx, a := m.ctx, m.actionsOn(sel.Host)
	return diffView{id: r.ID, name: r.Name, host: sel.Host, loading: true}, func() tea.Msg {
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

// update takes the diff read, scrolls it, reads it again, or closes it.
func (d diffView) update(b *Model, msg tea.Msg) (overlay, tea.Cmd) {
	if msg, ok := msg.(diffMsg); ok {
		d.set(msg)
		return d, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	page := max(b.overlayRows()-1, 1)
	switch k.String() {
	case "j", "down":
		d.off++
	case "k", "up":
		d.off--
	case "space", "pgdown", "f":
		d.off += page
	case "b", "pgup":
		d.off -= page
	case "g", "home":
		d.off = 0
	case "G", "end":
		d.off = len(d.lines)
	case "R": // on the host the session runs on, as D was
		if sel := b.sessionOn(d.host, d.id); sel != nil {
			return b.readDiff(sel)
		}
	case "esc", "q", "D":
		return nil, nil
	}
	d.off = min(max(d.off, 0), max(len(d.lines)-b.overlayRows(), 0))
	return d, nil
}

func (d diffView) view(*Model) string { return "" }

func (d diffView) keys() []key.Binding { return diffKeys }

// sessionOn is session id of host ("" this one) as the board holds it now.
func (m *Model) sessionOn(host, id string) *item {
	for _, d := range m.withHosts() {
		if d.Rec.ID == id && d.Host == host {
			return &item{Derived: d}
		}
	}
	return nil
}

// body is the diff over the body (h lines).
func (d diffView) body(m *Model, h int) []string {
	l := m.look
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
	return m.scrollFrame(h, fmt.Sprintf("Diff · %s", d.name), d.off, len(d.lines), lines)
}
