package tui

import (
	"strconv"
	"strings"
	"time"

	"lanes/state"
	"lanes/theme"

	"github.com/charmbracelet/x/ansi"
)

// meta is the card's third line: agent, branch, how it stands against its
// base (↑ ahead, ↓ behind, ± files changed, each when not zero, once git
// was read) and PR numbers.
func meta(r *state.Record) string { return metaIn(r, 1<<20) }

// metaIn is meta in at most room cells, where a long branch name is cut
// first so the counts and PRs after it still show.
func metaIn(r *state.Record, room int) string {
	head, tail := string(r.Agent), metaTail(r)
	if r.Adopted { // lanes did not start it (docs/design.md §13)
		head += " · adopted"
	}
	if b := branchIn(r, room-width(head)-3); r.Branch != "" && b != strings.TrimPrefix(tail, " ") {
		return head + " · " + b
	}
	if s := head + tail; width(s) <= room || tail == "" {
		return s
	}
	return strings.TrimPrefix(tail, " ") // the numbers before the agent's name
}

// branchIn is the branch and what follows it in at most room cells: the
// branch is cut first, to no less than 3 cells, and left out when even
// that leaves no room for the counts and PR numbers.
func branchIn(r *state.Record, room int) string {
	tail := metaTail(r)
	b := r.Branch
	if over := width(b) + width(tail) - room; over > 0 && b != "" {
		switch keep := width(b) - over; {
		case keep >= 3:
			b = ansi.Truncate(b, keep, "…")
		case tail != "":
			return strings.TrimPrefix(tail, " ")
		default:
			b = ansi.Truncate(b, max(room, 0), "…")
		}
	}
	return b + tail
}

// metaTail is what follows the branch: ahead, behind, changed, PRs, and
// what the agent spent (usageSays).
func metaTail(r *state.Record) string {
	var sb strings.Builder
	if g := r.Git; !g.ReadAt.IsZero() {
		for _, f := range []struct {
			mark string
			n    int
		}{{"↑", g.Ahead}, {"↓", g.Behind}, {"±", g.Changed}} {
			if f.n > 0 { // -1: not countable
				sb.WriteString(" " + f.mark + strconv.Itoa(f.n))
			}
		}
	}
	for i, p := range r.PRs {
		if i == 0 {
			sb.WriteString(" ")
		} else {
			sb.WriteString(",")
		}
		sb.WriteString("#")
		sb.WriteString(strconv.Itoa(p.Number))
	}
	if u := usageSays(&r.Usage); u != "" {
		sb.WriteString(" " + u)
	}
	return sb.String()
}

// usageSays is what a card says of its agent's spending: tokens, the
// context (its share of the window where the agent says one), the
// agent's own cost; "" before lanes read any.
func usageSays(u *state.Usage) string {
	if u.At.IsZero() {
		return ""
	}
	s := count(u.Total()) + " tok"
	if p, ok := u.ContextPct(); ok {
		s += " ctx " + strconv.Itoa(int(p)) + "%"
	} else if u.Context > 0 {
		s += " ctx " + count(u.Context)
	}
	if u.CostMicros > 0 {
		s += " " + dollars(u.CostMicros)
	}
	return s
}

// count is n in at most four characters and a unit: 950, 12.3k, 4.5M.
func count(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 100_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.FormatInt(n/1000, 10) + "k"
	case n < 100_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	}
	return strconv.FormatInt(n/1_000_000, 10) + "M"
}

// dollars is an amount of millionths of a dollar to the cent ($0.07), a
// smaller one to the tenth of a cent.
func dollars(micros int64) string {
	if micros < 10_000 {
		return "$" + strconv.FormatFloat(float64(micros)/1e6, 'f', 3, 64)
	}
	return "$" + strconv.FormatFloat(float64(micros)/1e6, 'f', 2, 64)
}

// seg is a painted piece of a line with its width in cells.
type seg struct {
	s string
	w int
}

func plainSeg(p paint, text string, room int) seg {
	text = truncate(text, room)
	return seg{p.s(text), width(text)}
}

// renderCard draws one session as a card w cells wide:
//
//	╭────────────────────╮
//	│ ● api          5m  │  activity dot, name, age of the badge
//	│  ◐ Review  ✗ Failed│  status badge, marks (or exit detail)
//	│ claude · fix #12   │  agent, branch, PRs
//	│ ▸ Bash: npm test   │  what it says (blank when nothing)
//	╰────────────────────╯
//
// Done cards carry no dot (their agent is gone) and a frame in their own
// colour: merged green, terminated graphite. The selected card has a thick
// frame.
func renderCard(l *look, it *item, w int, sel bool, now time.Time, frame int) [cardH]string {
	r := it.Rec
	cw := w - 4
	fp, name := cardPaint(l, it, sel)
	b := l.plain
	if sel {
		b = l.selected
	}

	line1 := titleLine(l, it, name, cw, now, frame)

	// Line 2: the badge, then the marks, or the reason a session ended.
	line2, w2 := l.badgeFor(it.D.Status, state.Detail(r, it.D), cw)
	var carry []state.Mark
	for _, m := range it.D.Marks {
		ms, mw := cardMark(l, it, m)
		if len(carry) == 0 && w2+1+mw <= cw {
			line2, w2 = line2+" "+ms, w2+1+mw
		} else {
			carry = append(carry, m)
		}
	}

	// Line 4: what the session says; blank at the bottom when nothing,
	// so a quiet card reads as shorter, not as missing a line.
	line4, w4 := sayLine(l, it, cw)

	// Line 3: marks that did not fit beside the badge, then agent, branch,
	// PRs, and why a session ended (on line 4 when it is blank and the
	// reason would not fit here whole). The marks never take the agent's
	// and branch's room: as short as it leaves them, or on line 4 when it
	// is blank and they would have to shrink.
	meta := width(metaIn(r, cw))
	if len(carry) > 0 && w4 == 0 && marksWidth(l, it, carry, formLabel)+2+meta > cw {
		line4, w4 = marksIn(l, it, carry, cw)
		carry = nil
	}
	room := cw
	if len(carry) > 0 {
		room = max(cw-meta-2, marksWidth(l, it, carry, formGlyph))
	}
	l3, w3 := marksIn(l, it, carry, room)
	line3 := strings.Builder{}
	line3.WriteString(l3)
	if w3 > 0 && cw-w3 >= 2 {
		line3.WriteString("  ")
		w3 += 2
	}
	if cw-w3 > 0 {
		text := metaIn(r, cw-w3)
		if reason := r.Runtime.TerminatedReason; r.Runtime.Terminated && reason != "" {
			if w4 == 0 && width(text)+3+width(reason) > cw-w3 {
				rs := plainSeg(l.muted, reason, cw)
				line4, w4 = rs.s, rs.w
			} else {
				text += " · " + reason
			}
		}
		ms := plainSeg(l.muted, text, cw-w3)
		line3.WriteString(ms.s)
		w3 += ms.w
	}

	var c [cardH]string
	edge := fp.s(b.Left)
	redge := fp.s(b.Right)
	c[0] = fp.s(b.TopLeft + strings.Repeat(b.Top, w-2) + b.TopRight)
	c[1] = edge + " " + line1 + " " + redge
	c[2] = edge + " " + pad(line2, w2, cw) + " " + redge
	c[3] = edge + " " + pad(line3.String(), w3, cw) + " " + redge
	c[4] = edge + " " + pad(line4, w4, cw) + " " + redge
	c[5] = fp.s(b.BottomLeft + strings.Repeat(b.Bottom, w-2) + b.BottomRight)
	return c
}

// cardPaint is the paint of a card's frame and of its name (a done
// card's name is plain text).
func cardPaint(l *look, it *item, sel bool) (frame, name paint) {
	kind, name := frameLive, l.name
	switch {
	case sel:
		kind = frameSelected
	case it.Rec.Runtime.Terminated && it.D.Status == state.StatusMerged:
		kind = frameMerged
	case it.Rec.Runtime.Terminated:
		kind = frameTerminated
	}
	if it.Rec.Runtime.Terminated {
		name = l.text
	}
	return l.frame[kind], name
}

// titleLine is a card's first line, cw cells: dot, name (in name's
// style), mute glyph, then the host tag and the age at the right.
func titleLine(l *look, it *item, name paint, cw int, now time.Time, frame int) string {
	r := it.Rec
	age := theme.Age(now, it.D.Since)
	var lead seg
	if r.Live() {
		lead = seg{l.dotFor(dotActivity(r, it.D), frame) + " ", 2}
	}
	ageW := width(age)
	var mute seg
	if r.Muted {
		mute = seg{" " + l.role[theme.Muted.Role].s(theme.Muted.Glyph), 2}
	}
	// Another host's session names its host before the age, in what the
	// name leaves (at most maxTagW cells): the name comes first.
	tag := hostTag(l, it.Host, cw-lead.w-mute.w-ageW-1-min(width(r.Name), 8)-1)
	if tag.w > 0 {
		tag = seg{tag.s + " ", tag.w + 1}
	}
	nm := plainSeg(name, r.Name, cw-lead.w-mute.w-tag.w-ageW-1)
	return lead.s + nm.s + mute.s + strings.Repeat(" ", max(cw-lead.w-nm.w-mute.w-tag.w-ageW, 1)) + tag.s + l.muted.s(age)
}

// sayLine is what the session says in at most room cells, and its width:
// the kind's glyph, then the text cut with an ellipsis; a message sits in
// quotes; a tool asking permission reads "Allow Bash: …" where the word
// costs none of its input. Nothing to say is an empty line.
func sayLine(l *look, it *item, room int) (string, int) {
	if it.say == state.SayNothing || room < 3 {
		return "", 0
	}
	g := l.sayGlyph[it.say]
	text := it.says
	switch a := &it.Rec.Activity; {
	case it.say == state.SayPermission && width(text)+6 <= room-2:
		text = "Allow " + text // where the tool's input loses nothing by it
	case (it.say == state.SayTool || it.say == state.SayPermission) && isPath(a.ToolInput) && width(text) > room-2:
		// A path's end names the file: cut it at the front.
		head := a.Tool + ": …"
		text = head + ansi.TruncateLeft(a.ToolInput, width(a.ToolInput)-(room-2-width(head)), "")
	}
	t := plainSeg(l.sayText[it.say], text, room-2)
	if it.say == state.SayMessage {
		return g.s("“") + t.s + g.s("”"), t.w + 2
	}
	return g.s(theme.SaySpec(it.say).Glyph) + " " + t.s, t.w + 2
}

// idleRow is one compact entry of the idle stack: dot, name, marks,
// branch and counts, what it said last, age.
func idleRow(l *look, it *item, w int, sel bool, now time.Time, frame int) string {
	r := it.Rec
	lead, name := "  ", l.text
	if sel {
		lead, name = l.selMark.s("▌")+" ", l.name
	}
	age := theme.Age(now, it.D.Since)
	room := w - 2 - 2 - width(age) - 1 // lead, dot, age, right margin
	nameW := width(r.Name)
	var marks string
	mw := 0
	if r.Muted {
		marks, mw = " "+l.role[theme.Muted.Role].s(theme.Muted.Glyph), 2
	}
	// Another host's card keeps its host beside its marks: the tag's room
	// is taken before the marks' labels (a mark shortens to its glyph),
	// so a host going down never hides which host it is.
	glyphs := 0
	for _, m := range it.D.Marks {
		glyphs += 1 + width(theme.MarkSpec(m).Glyph)
	}
	tag := hostTag(l, it.Host, room-min(nameW, 8)-mw-glyphs-2)
	tagW := 0
	if tag.w > 0 {
		tagW = 1 + tag.w
	}
	for _, m := range it.D.Marks {
		sp := theme.MarkSpec(m)
		text := sp.Glyph + " " + theme.MarkShort(m, it.Rec, true)
		if nameW+tagW+mw+1+width(text) > room-1 {
			text = sp.Glyph // the label does not fit beside the name
		}
		marks += " " + l.role[sp.Role].s(text)
		mw += 1 + width(text)
	}
	if tag.w > 0 {
		marks, mw = " "+tag.s+marks, mw+tagW
	}
	nm := plainSeg(name, r.Name, room-mw-1)
	used := 2 + 2 + nm.w + mw
	// The branch and how it stands against its base, where the counts
	// and a few cells of the branch fit: a finished worktree session is
	// read by what it did.
	if left := w - used - width(age) - 2; r.Branch != "" || metaTail(r) != "" || r.Adopted {
		g := strings.TrimSpace(branchIn(r, left-2))
		if r.Adopted { // lanes did not start it: said first, where it fits
			g = strings.TrimSuffix("adopted · "+g, " · ")
			if width(g) > left-2 {
				g = "adopted"
			}
		}
		if width(g) <= left-2 && width(g) > 0 {
			marks += "  " + l.muted.s(g)
			used += 2 + width(g)
		}
	}
	// The last message, muted, where the row has room for a few words
	// or the whole of it.
	if left := w - used - width(age) - 2; left >= minSaid || (it.says != "" && width(it.says)+4 <= left) {
		if s, sw := sayLine(l, it, left-2); sw > 0 {
			marks += "  " + s
			used += 2 + sw
		}
	}
	return lead + l.dotFor(dotActivity(r, it.D), frame) + " " + nm.s + marks +
		strings.Repeat(" ", max(w-used-width(age)-1, 1)) + l.muted.s(age) + " "
}

// isPath reports a tool input that is one file path, whose end says more
// than its start.
func isPath(s string) bool {
	return strings.Contains(s, "/") && !strings.ContainsAny(s, " \t")
}

// minSaid is the least room an idle row gives its message: fewer cells
// would show a word or two and an ellipsis, which says nothing.
const minSaid = 12

// idleHead is the idle stack's header, "○ Idle · N", with ▾ when open.
func idleHead(l *look, n int, open bool, w int, sel bool) string {
	lead := "  "
	if sel {
		lead = l.selMark.s("▌") + " "
	}
	sp := theme.StatusSpec(state.StatusIdle)
	text := sp.Glyph + " " + sp.Short + " · " + strconv.Itoa(n)
	arrow := "▸"
	if open {
		arrow = "▾"
	}
	return lead + fit(l.role[sp.Role], text, l.muted, arrow+" ", w-2)
}
