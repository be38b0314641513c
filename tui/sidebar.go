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

// sidebar lists every live session with its raw-activity dot.
type sidebar struct {
	live  []*item // in the board's order (byUrgency), into items
	items []item
}

// setRecords keeps the live sessions, whatever the board's filter, each
// derived once.
func (s *sidebar) setRecords(ds []state.Derived) {
	s.items, s.live = s.items[:0], s.live[:0]
	for _, d := range ds {
		if d.Rec.Live() {
			s.items = append(s.items, item{Derived: d})
		}
	}
	for i := range s.items {
		s.live = append(s.live, &s.items[i])
	}
	slices.SortFunc(s.live, byUrgency) // pointers: an item is too big to move about
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
	add(fit(l.name, " Sessions · "+strconv.Itoa(len(s.live)), paint{}, "", w))
	sel := slices.IndexFunc(s.live, func(x *item) bool { return x.key() == selID })
	first := 0
	if sel >= listH {
		first = sel - listH + 1
	}
	for i := first; i < len(s.live) && i < first+listH; i++ {
		r := s.live[i].Rec
		a := dotActivity(r, s.live[i].D)
		lead, name := "  ", l.text
		if i == sel {
			lead, name = l.selMark.s("▌")+" ", l.name
		}
		mute := 0
		if r.Muted {
			mute = 2
		}
		// The badge's words, as the card says them (its dot says the
		// activity); another host's session names its host there.
		word := theme.StatusSpec(s.live[i].D.Status).Short
		label := seg{l.muted.s(word), width(word)}
		if h := s.live[i].Host; h != "" {
			label = hostTag(l, h, 8)
		}
		nm := plainSeg(name, r.Name, max(w-5-label.w-mute, 6))
		line := lead + l.dotFor(a, frame) + " " + nm.s
		used := 4 + nm.w + mute
		if r.Muted {
			line += " " + l.role[theme.Muted.Role].s(theme.Muted.Glyph)
		}
		add(line + strings.Repeat(" ", max(w-used-label.w-1, 1)) + label.s + " ")
	}
	if len(s.live) == 0 {
		add(fit(l.muted, "  none live", paint{}, "", w))
	}
	blank := strings.Repeat(" ", w)
	for len(out) < h {
		out = append(out, blank+rule)
	}
	return out
}
