package tui

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"lanes/state"
	"lanes/theme"
)

// sidebarW is the sidebar's width, its rule included.
const sidebarW = 24

// historyN is how many transitions the history panel asks for.
const historyN = 30

// sidebar lists every live session with its raw-activity dot and, on
// request, the selected session's recent transitions.
type sidebar struct {
	live []item // in the board's order (byUrgency)

	showHist bool
	histID   string // whose history is loaded
	histName string // and that session's name (it may be terminated)
	histAt   time.Time
	hist     []state.Transition
	histErr  string
}

// setRecords keeps the live sessions, whatever the board's filter, each
// derived once.
func (s *sidebar) setRecords(recs []*state.Record, now time.Time) {
	s.live = s.live[:0]
	for _, r := range recs {
		if r.Live() {
			s.live = append(s.live, item{rec: r, d: state.Derive(r, now)})
		}
	}
	slices.SortFunc(s.live, func(x, y item) int { return byUrgency(&x, &y) })
}

// render draws the sidebar in h lines of sidebarW cells; selID is the
// board's selection.
func (s sidebar) render(l *look, h int, selID string, now time.Time, frame int) []string {
	w := sidebarW - 1
	rule := l.muted.s("│")
	out := make([]string, 0, h)
	add := func(line string) {
		if len(out) < h {
			out = append(out, line+rule)
		}
	}
	listH := h - 1
	var hist []string
	if s.showHist {
		hist = s.historyLines(l, w, now)
		listH = max(min(len(s.live), h/2), min(3, h-1))
	}
	add(fit(l.name, " Sessions · "+strconv.Itoa(len(s.live)), paint{}, "", w))
	sel := slices.IndexFunc(s.live, func(x item) bool { return x.rec.ID == selID })
	first := 0
	if sel >= listH {
		first = sel - listH + 1
	}
	for i := first; i < len(s.live) && i < first+listH; i++ {
		r := s.live[i].rec
		a := dotActivity(r, s.live[i].d)
		lead, name := "  ", l.text
		if i == sel {
			lead, name = l.selMark.s("▌")+" ", l.name
		}
		nm := plainSeg(name, r.Name, w-4-9)
		label := theme.ActivitySpec(a).Short
		line := lead + l.dotFor(a, frame) + " " + nm.s
		used := 4 + nm.w
		add(line + strings.Repeat(" ", max(w-used-width(label)-1, 1)) + l.muted.s(label) + " ")
	}
	if len(s.live) == 0 {
		add(fit(l.muted, "  none live", paint{}, "", w))
	}
	for _, line := range hist {
		add(line)
	}
	blank := strings.Repeat(" ", w)
	for len(out) < h {
		out = append(out, blank+rule)
	}
	return out
}

// historyLines is the history panel: a title, then transitions newest
// first as "age dot Label detail". Past dots never breathe.
func (s sidebar) historyLines(l *look, w int, now time.Time) []string {
	out := []string{strings.Repeat(" ", w), fit(l.name, " History · "+s.histName, paint{}, "", w)}
	switch {
	case s.histErr != "":
		return append(out, fit(l.errText, " "+s.histErr, paint{}, "", w))
	case s.histID == "":
		return append(out, fit(l.muted, " select a session", paint{}, "", w))
	case len(s.hist) == 0:
		return append(out, fit(l.muted, " no transitions yet", paint{}, "", w))
	}
	for i := len(s.hist) - 1; i >= 0; i-- {
		tr := s.hist[i]
		sp := theme.ActivitySpec(tr.To)
		age := theme.Age(now, tr.At)
		head := " " + strings.Repeat(" ", max(3-width(age), 0)) + age + " "
		line := l.muted.s(head) + l.dotFor(tr.To, 0) + " " + l.text.s(sp.Short)
		used := width(head) + 2 + width(sp.Short)
		detail := tr.Detail
		if detail == "" {
			detail = tr.Source
		}
		if room := w - used - 1; room > 2 && detail != "" {
			d := plainSeg(l.muted, detail, room)
			line += " " + d.s
			used += 1 + d.w
		}
		out = append(out, pad(line, used, w))
	}
	return out
}
