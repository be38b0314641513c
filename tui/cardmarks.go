package tui

import (
	"strings"

	"lanes/state"
	"lanes/theme"

	"github.com/charmbracelet/x/ansi"
)

// A card's marks: each in the longest form the card's room lets them all
// take (what it says, its label, its glyph).

// marksIn is marks in room cells, two apart, each as long as room lets
// them all be (markForms); a mark wider than room alone is cut, never
// dropped.
func marksIn(l *look, it *item, marks []state.Mark, room int) (string, int) {
	var b strings.Builder
	w := 0
	forms := markForms(l, it, marks, room)
	for i, m := range marks {
		if i > 0 && w > 0 {
			if room-w < 2 {
				break
			}
			b.WriteString("  ")
			w += 2
		}
		c := fitMark(l, it, m, room-w, forms[i])
		if c.w == 0 && w == 0 {
			full, fw := cardMark(l, it, m)
			c.s = ansi.Truncate(full, room, "…")
			c.w = min(fw, ansi.StringWidth(c.s))
		}
		b.WriteString(c.s)
		w += c.w
	}
	return b.String(), w
}

// marksWidth is how wide marks are in form f, two apart.
func marksWidth(l *look, it *item, marks []state.Mark, f int) int {
	w := 0
	for i, m := range marks {
		if i > 0 {
			w += 2
		}
		w += markIn(l, it, m, f).w
	}
	return w
}

// The forms a mark takes on a card, longest first: what it says
// ("Failed: rate limited"), its label ("Failed"), its glyph ("✗").
const (
	formSays = iota
	formLabel
	formGlyph
)

// markIn is mark m in form f.
func markIn(l *look, it *item, m state.Mark, f int) seg {
	switch f {
	case formSays:
		s, w := cardMark(l, it, m)
		return seg{s, w}
	case formLabel:
		s, w := l.markFor(m)
		return seg{s, w}
	}
	sp := theme.MarkSpec(m)
	return seg{l.role[sp.Role].s(sp.Glyph), width(sp.Glyph)}
}

// markForms is the form of each of marks so that they all fit in room
// cells, two apart: the widest is shortened first, a step at a time
// ("✗ Failed: rate limited ↻ 1 agent" → "✗ Failed ↻ 1 agent"), down to
// glyphs.
func markForms(l *look, it *item, marks []state.Mark, room int) []int {
	forms := make([]int, len(marks))
	for {
		total, widest, ww := 0, -1, -1
		for i, m := range marks {
			w := markIn(l, it, m, forms[i]).w
			total += w + min(2, 2*i)
			if forms[i] < formGlyph && w > ww {
				widest, ww = i, w
			}
		}
		if total <= room || widest < 0 {
			return forms
		}
		forms[widest]++
	}
}

// fitMark is mark m in form f, or a shorter one, in at most room cells;
// nothing when not even its glyph fits.
func fitMark(l *look, it *item, m state.Mark, room int, f int) seg {
	for ; f <= formGlyph; f++ {
		if c := markIn(l, it, m, f); c.w <= room {
			return c
		}
	}
	return seg{}
}
