package tui

import (
	"strconv"
	"strings"
	"time"

	"lanes/state"
	"lanes/theme"
)

// Lane geometry: below minLaneW a card's name and badge no longer share
// sensible lines, so narrower terminals show fewer lanes side by side and
// scroll sideways to the rest.
const (
	minLaneW = 22
	laneGap  = 1
	minDrawW = 12 // below it a terminal shows lane headers only
)

// emptyLaneW is the width an empty lane keeps beside lanes with cards:
// its whole header ("⇡ Ready to merge 0") and the blank cell that ends
// every header; the room goes to the cards, which have things to say.
const emptyLaneW = 19

// laneWidths splits w cells among the lanes shown (empty: which have no
// session) and the gaps between them: evenly, except that beside lanes
// with cards an empty lane keeps only emptyLaneW.
func laneWidths(w int, empty []bool) []int {
	n := len(empty)
	ws := make([]int, n)
	inner := max(w-laneGap*(n-1), n)
	k := 0
	for _, e := range empty {
		if e {
			k++
		}
	}
	if k == 0 || k == n || inner/n <= emptyLaneW {
		k = 0 // every lane alike
	}
	full := n - k
	q, extra := (inner-k*emptyLaneW)/full, (inner-k*emptyLaneW)%full
	j := 0 // among the lanes with cards, the first take the remainder
	for i := range ws {
		if k > 0 && empty[i] {
			ws[i] = emptyLaneW
			continue
		}
		ws[i] = q
		if j < extra {
			ws[i]++
		}
		j++
	}
	return ws
}

// render draws the visible lanes into exactly h lines of w cells.
func (b *board) render(l *look, w, h int, now time.Time, frame int) []string {
	empty := make([]bool, b.vis)
	for i := range empty {
		ln := &b.lanes[b.first+i]
		empty[i] = len(ln.cards)+len(ln.extra) == 0
	}
	widths := laneWidths(w, empty)
	cols := make([][]string, b.vis)
	for i := range cols {
		li := b.first + i
		cols[i] = b.renderLane(l, li, widths[i], h, now, frame, li == b.first && li > 0, i == b.vis-1 && li < len(b.lanes)-1)
	}
	lines := make([]string, h)
	gap := strings.Repeat(" ", laneGap)
	var sb strings.Builder
	for y := range lines {
		sb.Reset()
		for i := range cols {
			if i > 0 {
				sb.WriteString(gap)
			}
			sb.WriteString(cols[i][y])
		}
		lines[y] = sb.String()
	}
	return lines
}

// renderLane draws lane li as h lines of exactly w cells: the header, then
// every row that fits whole (a card never shows cut in half).
func (b *board) renderLane(l *look, li, w, h int, now time.Time, frame int, moreLeft, moreRight bool) []string {
	ln := &b.lanes[li]
	out := make([]string, 0, h)
	out = append(out, b.laneHeader(l, ln, w, moreLeft, moreRight))
	y := 0
	if w < minDrawW {
		y = h // too narrow for any row to read; the header still counts
	}
	for ri := ln.off; ri < len(ln.rows) && y+ln.rows[ri].height() <= h-1; ri++ {
		r := ln.rows[ri]
		sel := li == b.lane && ri == b.row && b.selKey != ""
		switch r.kind {
		case rowCard:
			c := renderCard(l, r.it, w, sel, now, frame)
			out = append(out, c[:]...)
		case rowIdle:
			out = append(out, idleRow(l, r.it, w, sel, now, frame))
		case rowIdleHead:
			out = append(out, idleHead(l, len(ln.extra), b.idleOpen(), w, sel))
		case rowSub:
			out = append(out, subHeader(l, r.label, w))
		case rowEmpty:
			out = append(out, fit(l.muted, " "+r.label, l.muted, "", w))
		}
		y += r.height()
	}
	blank := strings.Repeat(" ", w)
	for len(out) < h {
		out = append(out, blank)
	}
	return out[:h]
}

// laneHeader is "glyph Name count" in the zone's colour (muted when the lane
// is empty), with the rows scrolled out of view counted on the right and
// arrows where more lanes lie sideways.
func (b *board) laneHeader(l *look, ln *lane, w int, moreLeft, moreRight bool) string {
	sp := theme.ZoneSpec(ln.zone)
	lead, name, count := sp.Glyph+" ", sp.Short, " "+strconv.Itoa(ln.count())
	if moreLeft {
		lead = "‹ " + lead
	}
	above, below := ln.hidden(b.bodyH)
	var right string
	if above > 0 {
		right = "↑" + strconv.Itoa(above)
	}
	if below > 0 {
		if right != "" {
			right += " "
		}
		right += "↓" + strconv.Itoa(below)
	}
	if moreRight {
		if right != "" {
			right += " "
		}
		right += "›"
	}
	p := l.zone[ln.zone]
	if len(ln.cards)+len(ln.extra) == 0 {
		p = l.muted
	}
	// One cell kept blank at the end: lanes sit one cell apart, and a
	// count of hidden rows must not read as the next lane's (the last lane
	// on screen, pointing at more with ›, ends at the edge). A narrow lane
	// shortens its name, never its count.
	gap := ""
	if !moreRight {
		w, gap = w-1, " "
	}
	room := w
	if right != "" {
		room -= width(right) + 1
	}
	if over := width(lead+name+count) - room; over > 0 && width(name) > over {
		name = truncate(name, width(name)-over)
	}
	return fit(p, lead+name+count, l.muted, right, w) + gap
}

// hidden counts the sessions scrolled above and below the lane's body.
func (ln *lane) hidden(bodyH int) (above, below int) {
	for _, r := range ln.rows[:ln.off] {
		if r.it != nil {
			above++
		}
	}
	y := 0
	for _, r := range ln.rows[ln.off:] {
		y += r.height()
		if y > bodyH && r.it != nil {
			below++
		}
	}
	return above, below
}

// fit lays left and right text (plain, painted with lp and rp) on one line of
// w cells, truncating left first and dropping right when there is no room.
func fit(lp paint, left string, rp paint, right string, w int) string {
	lw, rw := width(left), width(right)
	if rw > 0 && lw+1+rw > w {
		if rw+2 > w/2 {
			right, rw = "", 0
		}
	}
	room := w
	if rw > 0 {
		room = w - rw - 1
	}
	if lw > room {
		left = truncate(left, room)
		lw = width(left)
	}
	s := lp.s(left) + strings.Repeat(" ", w-lw-rw)
	if rw > 0 {
		s += rp.s(right)
	}
	return s
}

// pad fills a painted string of visible width sw to w cells.
func pad(s string, sw, w int) string {
	if sw >= w {
		return s
	}
	return s + strings.Repeat(" ", w-sw)
}

// subHeader splits Ready to merge: what can merge, and what merged while
// its session still runs.
func subHeader(l *look, which string, w int) string {
	var text string
	var p paint
	switch which {
	case "merged":
		text = " " + theme.StatusSpec(state.StatusMerged).Glyph + " merged · still live"
		p = l.role[theme.RoleMerged]
	default:
		text = " " + theme.ZoneSpec(state.ZoneReadyToMerge).Glyph + " ready"
		p = l.role[theme.RoleReady]
	}
	return fit(p, text, paint{}, "", w)
}
