package tui

// The board's selection: finding it again after a rebuild, moving it,
// and keeping it in view.

import (
	"slices"

	"lanes/state"
)

// reselect puts the selection back on the row with selKey, else on the
// nearest selectable row of the same lane, else of the nearest lane.
func (b *board) reselect() {
	if b.selKey != "" {
		for li := range b.lanes {
			for ri, r := range b.lanes[li].rows {
				if r.key() == b.selKey {
					b.lane, b.row = li, ri
					return
				}
			}
		}
	}
	b.lane = min(max(b.lane, 0), len(b.lanes)-1)
	for d := 0; d < len(b.lanes); d++ {
		for _, li := range []int{b.lane - d, b.lane + d} {
			if li < 0 || li >= len(b.lanes) {
				continue
			}
			if ri := nearestSelectable(b.lanes[li].rows, b.row); ri >= 0 {
				b.lane, b.row = li, ri
				b.selKey = b.lanes[li].rows[ri].key()
				return
			}
		}
	}
	b.row, b.selKey = 0, ""
}

func nearestSelectable(rows []row, at int) int {
	at = min(max(at, 0), len(rows)-1)
	for d := 0; d < len(rows); d++ {
		if i := at - d; i >= 0 && rows[i].selectable() {
			return i
		}
		if i := at + d; i < len(rows) && rows[i].selectable() {
			return i
		}
	}
	return -1
}

// scroll keeps the selection in view, vertically in its lane and
// horizontally among the lanes, and keeps other lanes from scrolling past
// their end.
func (b *board) scroll() {
	for i := range b.lanes {
		l := &b.lanes[i]
		l.off = min(l.off, max(len(l.rows)-1, 0))
		if i == b.lane && b.selKey != "" {
			if b.row < l.off {
				l.off = b.row
			}
			for l.off < b.row && rowsHeight(l.rows[l.off:b.row+1]) > b.bodyH {
				l.off++
			}
		}
		// Pull back while rows above would fit, so a shrunk lane never
		// shows a gap where it could show a card.
		for l.off > 0 && rowsHeight(l.rows[l.off-1:]) <= b.bodyH {
			l.off--
		}
	}
	if b.lane < b.first {
		b.first = b.lane
	}
	if b.lane >= b.first+b.vis {
		b.first = b.lane - b.vis + 1
	}
	b.first = min(max(b.first, 0), len(b.lanes)-b.vis)
}

func rowsHeight(rows []row) int {
	h := 0
	for _, r := range rows {
		h += r.height()
	}
	return h
}

// move shifts the selection: dy rows within the lane, dx lanes sideways
// (skipping empty lanes, landing on the row nearest the same height).
func (b *board) move(dx, dy int) {
	if b.selKey == "" {
		return
	}
	rows := b.lanes[b.lane].rows
	for i := b.row + dy; dy != 0 && i >= 0 && i < len(rows); i += dy {
		if rows[i].selectable() {
			b.row = i
			break
		}
	}
	if dx != 0 {
		y := b.screenY(b.lane, b.row)
		for li := b.lane + dx; li >= 0 && li < len(b.lanes); li += dx {
			if ri := b.nearestAtY(li, y); ri >= 0 {
				b.lane, b.row = li, ri
				break
			}
		}
	}
	b.selKey = b.lanes[b.lane].rows[b.row].key()
	b.scroll()
}

// jump moves the selection n selectable rows down its lane (up when n is
// negative), stopping at the lane's first or last.
func (b *board) jump(n int) {
	if b.selKey == "" || n == 0 {
		return
	}
	rows, step := b.lanes[b.lane].rows, 1
	if n < 0 {
		step, n = -1, -n
	}
	for i := b.row + step; n > 0 && i >= 0 && i < len(rows); i += step {
		if rows[i].selectable() {
			b.row, n = i, n-1
		}
	}
	b.selKey = rows[b.row].key()
	b.scroll()
}

// page is how many selectable rows of the selected lane fit on screen at
// once (at least one): what PgUp and PgDn move by.
func (b *board) page() int {
	if b.selKey == "" {
		return 1
	}
	l := &b.lanes[b.lane]
	n, h := 0, 0
	for _, r := range l.rows[l.off:] {
		if h += r.height(); h > b.bodyH {
			break
		}
		if r.selectable() {
			n++
		}
	}
	return max(n, 1)
}

// screenY is where row ri of lane li starts on screen (relative to the body).
func (b *board) screenY(li, ri int) int {
	l := &b.lanes[li]
	if ri < l.off {
		return -1
	}
	return rowsHeight(l.rows[l.off:ri])
}

func (b *board) nearestAtY(li, y int) int {
	best, bestD := -1, 0
	for ri, r := range b.lanes[li].rows {
		if !r.selectable() {
			continue
		}
		d := b.screenY(li, ri) - y
		if d < 0 {
			d = -d
		}
		if best < 0 || d < bestD {
			best, bestD = ri, d
		}
	}
	return best
}

// selected is the session under the selection; nil on the idle header or
// on an empty board.
func (b *board) selected() *item {
	if b.selKey == "" {
		return nil
	}
	return b.lanes[b.lane].rows[b.row].it
}

// selectFirstCard puts the selection on the first card (in lane order)
// when it is on none, such as the idle stack's header after a filter, so
// the keys act on a session at once; a closed idle stack is opened when
// only it holds one. It reports whether the selection moved.
func (b *board) selectFirstCard() bool {
	if b.selected() != nil || len(b.lanes) == 0 {
		return false
	}
	onCard := func() bool {
		for li, l := range b.lanes {
			for ri, r := range l.rows {
				if r.it != nil {
					b.lane, b.row, b.selKey = li, ri, r.key()
					return true
				}
			}
		}
		return false
	}
	if !onCard() {
		if len(b.lanes[0].extra) == 0 || b.idleOpen() {
			return false
		}
		b.idlePref = 1
		b.relayout()
		if !onCard() {
			return false
		}
	}
	b.scroll()
	return true
}

// onIdleHead reports whether the selection is the idle stack's header.
func (b *board) onIdleHead() bool { return b.selKey == idleHeadKey }

// nextNeedsYou selects the card after the selected one in the Needs you
// lane, in its order (the board's urgency, every host's cards), the first
// when the selection is elsewhere or on its last; false when it is empty.
func (b *board) nextNeedsYou() bool {
	li := slices.IndexFunc(b.lanes, func(l lane) bool { return l.zone == state.ZoneNeedsYou })
	if li < 0 {
		return false
	}
	rows, start := b.lanes[li].rows, 0
	if b.lane == li && b.selKey != "" {
		start = b.row + 1
	}
	for d := range len(rows) {
		if ri := (start + d) % len(rows); rows[ri].it != nil {
			b.lane, b.row, b.selKey = li, ri, rows[ri].key()
			b.scroll()
			return true
		}
	}
	return false
}
