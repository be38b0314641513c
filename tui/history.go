package tui

import (
	"strconv"
	"strings"
	"time"

	"lanes/state"
	"lanes/theme"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// historyN is how many transitions the history asks for.
const historyN = 30

// history is the selected session's recent transitions, as the board
// loads them while the history overlay is open (loadHistory): it follows
// the selection through every cycle.
type history struct {
	id   string    // whose history is loaded
	name string    // and that session's name (it may be terminated)
	at   time.Time // the activity change it was asked as of
	trs  []state.Transition
	err  string
}

// historyView is the `H` overlay: the history over the board's whole
// width, one transition to a line, newest first.
type historyView struct {
	off int // the first line shown, scrolled with j/k
}

var historyKeys = []key.Binding{helpBinding("↑/k ↓/j", "scroll"), helpBinding("esc/H/q", "close")}

// openHistory opens the overlay on the selection's history, read again.
func (m *Model) openHistory(*item) tea.Cmd {
	m.push(historyView{})
	return m.loadHistory(true)
}

// update scrolls the history or closes it; nothing else acts while it is
// open.
func (v historyView) update(b *Model, msg tea.Msg) (overlay, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil
	}
	switch k.String() {
	case "j", "down":
		v.off++
	case "k", "up":
		v.off--
	case "esc", "q", "H":
		return nil, nil
	}
	v.off = min(max(v.off, 0), max(len(b.hist.trs)-b.overlayRows(), 0))
	return v, nil
}

func (v historyView) view(*Model) string { return "" }

func (v historyView) keys() []key.Binding { return historyKeys }

// overlayRows is how many lines an overlay shows at once: the body
// between the title and the bottom line, less the frame's two borders,
// its title and the blank line under it.
func (m Model) overlayRows() int { return max(m.h-2-4, 1) }

// body is the history over the body (h lines), newest first.
func (v historyView) body(m *Model, h int) []string {
	l, hs := m.look, &m.hist
	cw := max(m.w-4, 0)
	var lines []string
	switch {
	case hs.err != "":
		lines = append(lines, fit(l.errText, hs.err, paint{}, "", cw))
	case hs.id == "":
		lines = append(lines, fit(l.muted, "select a session", paint{}, "", cw))
	case len(hs.trs) == 0:
		lines = append(lines, fit(l.muted, "no transitions yet", paint{}, "", cw))
	}
	// Newest first: the i-th line from the top is transition n-1-i.
	for i := v.off; i < len(hs.trs) && len(lines) < h; i++ {
		tr := hs.trs[len(hs.trs)-1-i]
		if m.o.NoContent {
			tr.Detail = state.DetailEvent(tr.Detail)
		}
		lines = append(lines, transitionLine(l, tr, cw, m.now))
	}
	return m.scrollFrame(h, "History · "+hs.name, v.off, len(hs.trs), lines)
}

// scrollFrame is a frame m.w wide over the body (h lines): a title with what
// is scrolled out of view (off lines above, of total), a blank line, then
// lines, each already cut to the frame's inner width.
func (m *Model) scrollFrame(h int, title string, off, total int, lines []string) []string {
	l, w := m.look, m.w
	cw := max(w-4, 0)
	fp := l.frame[frameSelected]
	b := l.selected
	var right string
	if off > 0 {
		right = "↑" + strconv.Itoa(off)
	}
	if below := total - off - m.overlayRows(); below > 0 {
		right = strings.TrimSpace(right + " ↓" + strconv.Itoa(below))
	}
	out := make([]string, 0, h)
	out = append(out, fp.s(b.TopLeft+strings.Repeat(b.Top, max(w-2, 0))+b.TopRight))
	line := func(s string) { out = append(out, fp.s(b.Left)+" "+s+" "+fp.s(b.Right)) }
	line(fit(l.name, title, l.muted, right, cw))
	line(strings.Repeat(" ", cw))
	for _, s := range lines {
		if len(out) >= h-1 {
			break
		}
		line(s)
	}
	for len(out) < h-1 {
		line(strings.Repeat(" ", cw))
	}
	out = append(out, fp.s(b.BottomLeft+strings.Repeat(b.Bottom, max(w-2, 0))+b.BottomRight))
	if w < 4 { // narrower than the frame itself
		for i := range out {
			out[i] = ansi.Truncate(out[i], w, "")
		}
	}
	return out[:h]
}

// transitionLine is one transition in w cells: its age, the dot and label
// it went to, from what, its event and its source; the event is what is
// cut when the line is short. Past dots never breathe.
func transitionLine(l *look, tr state.Transition, w int, now time.Time) string {
	age := theme.Age(now, tr.At)
	head := strings.Repeat(" ", max(4-width(age), 0)) + age + "  "
	sp := theme.ActivitySpec(tr.To)
	label := sp.Short + strings.Repeat(" ", max(9-width(sp.Short), 1))
	from := "from " + theme.ActivitySpec(tr.From).Short
	if tr.From == tr.To {
		from = "" // an event that moved nothing (an answer sent from lanes)
	}
	from += strings.Repeat(" ", max(13-width(from), 1))
	used := width(head) + 2 + width(label) + width(from)
	s := l.muted.s(head) + l.dotFor(tr.To, 0) + " " + l.text.s(label) + l.muted.s(from)
	src := plainSeg(l.muted, tr.Source, max(w-used, 0))
	room := w - used - src.w - 2
	if tr.Detail != "" && room > 0 {
		d := plainSeg(l.text, tr.Detail, room)
		s += d.s
		used += d.w
	}
	return pad(s, used, w-src.w) + src.s
}
