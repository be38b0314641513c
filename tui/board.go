package tui

import (
	"slices"
	"strings"
	"time"

	"lanes/state"
)

// item is one session as the board shows it: its record and what Derive
// says about it. Records are never changed once received.
type item struct {
	state.Derived
	// say and says are what the card says (state.Says), when the board
	// shows content.
	say  state.Say
	says string
}

// key identifies the session across rebuilds.
func (it *item) key() string { return sessionKey(it.Derived) }

// title names the card's session in an overlay's title: "api", or "api
// @build" for another host's.
func (it *item) title() string {
	if it.Host == "" {
		return it.Rec.Name
	}
	return it.Rec.Name + " @" + it.Host
}

// rowKind is what one row of a lane holds.
type rowKind uint8

const (
	rowCard     rowKind = iota // a full card
	rowIdle                    // a compact entry of the idle stack
	rowIdleHead                // "Idle · N": opens and closes the stack
	rowSub                     // a sub-header (Ready, Merged · live)
	rowEmpty                   // the quiet placeholder of an empty lane
)

type row struct {
	kind  rowKind
	it    *item
	label string
}

// cardH is a card's height: a border, four lines, a border. Every card has
// the content line, blank when there is nothing to say, so all cards are
// one height.
const cardH = 6

func (r row) height() int {
	if r.kind == rowCard {
		return cardH
	}
	return 1
}

func (r row) selectable() bool {
	return r.kind == rowCard || r.kind == rowIdle || r.kind == rowIdleHead
}

// key identifies the row across rebuilds, so the selection follows a
// session when its card changes lane.
func (r row) key() string {
	switch r.kind {
	case rowCard, rowIdle:
		return r.it.key()
	case rowIdleHead:
		return idleHeadKey
	}
	return ""
}

const idleHeadKey = "\x00idle"

// lane is one zone's column: its main cards and, for Working, the idle
// stack, for Ready to merge, the merged-but-live part.
type lane struct {
	zone  state.Zone
	cards []*item
	extra []*item
	rows  []row
	off   int // first row drawn
}

// count is the number shown in the lane header: Working counts its working
// cards (the idle stack has its own count, as in `lanes status-line`).
func (l *lane) count() int {
	if l.zone == state.ZoneWorking {
		return len(l.cards)
	}
	return len(l.cards) + len(l.extra)
}

// board is the lanes area: which session sits in which lane, the
// selection, and what each lane has scrolled to.
type board struct {
	// total and totalIdle count every session on the board by lane (the
	// idle stack apart), whatever the filter shows: the title's counts.
	total     []int
	totalIdle int
	items     []item
	lanes     []lane

	lane, row int    // the selection: lane index, row index
	selKey    string // the selected row's key, kept across rebuilds
	idlePref  int    // 0: open the idle stack when it fits; 1 open; -1 closed

	first, vis int // lanes shown side by side: the first and how many
	bodyH      int // rows under the lane headers

	// hostOn: the host filter shows one host's sessions, host's ("" this
	// one's); like the / filter, it leaves the title's counts whole.
	hostOn bool
	host   string
}

func newBoard() board {
	b := board{lanes: make([]lane, len(state.Zones)), vis: len(state.Zones)}
	for i, z := range state.Zones {
		b.lanes[i].zone = z
	}
	return b
}

// recent reports whether r belongs on the board: everything live, and
// terminated sessions of the last 24 h unless all are asked for.
func recent(r *state.Record, now time.Time, all bool) bool {
	return all || r.Recent(now)
}

// matches is the `/` filter: a case-insensitive substring of the name, the
// agent or the branch.
func matches(r *state.Record, filter string) bool {
	if filter == "" {
		return true
	}
	f := strings.ToLower(filter)
	return strings.Contains(strings.ToLower(r.Name), f) ||
		strings.Contains(strings.ToLower(string(r.Agent)), f) ||
		strings.Contains(strings.ToLower(r.Branch), f)
}

// set sorts recs into lanes by Derive's zone; content: the cards say what
// the agents do (off for LANES_CONTENT=off).
func (b *board) set(ds []state.Derived, now time.Time, filter string, all, content bool) {
	b.items = b.items[:0]
	b.total = make([]int, len(b.lanes))
	b.totalIdle = 0
	for _, d := range ds {
		r := d.Rec
		if !recent(r, now, all) {
			continue
		}
		it := item{Derived: d}
		// The title's counts are the whole board's, whatever the filter
		// shows: it is where one looks for "does anything need me".
		if li, extra := b.place(&it); extra && b.lanes[li].zone == state.ZoneWorking {
			b.totalIdle++
		} else {
			b.total[li]++
		}
		if matches(r, filter) && (!b.hostOn || d.Host == b.host) {
			if content {
				it.say, it.says = state.Says(r)
			}
			b.items = append(b.items, it)
		}
	}
	for i := range b.lanes {
		b.lanes[i].cards, b.lanes[i].extra = b.lanes[i].cards[:0], b.lanes[i].extra[:0]
	}
	for i := range b.items {
		it := &b.items[i]
		li, extra := b.place(it)
		if l := &b.lanes[li]; extra {
			l.extra = append(l.extra, it)
		} else {
			l.cards = append(l.cards, it)
		}
	}
	for i := range b.lanes {
		slices.SortFunc(b.lanes[i].cards, byUrgency)
		slices.SortFunc(b.lanes[i].extra, byUrgency)
	}
	b.relayout()
}

// place is the lane it goes in, and whether in the lane's second part:
// the idle stack of Working, the merged-but-live part of Ready to merge
// (Derive's own statuses in these zones, set apart).
func (b *board) place(it *item) (lane int, extra bool) {
	lane = it.D.Zone.Order()
	if lane >= len(b.lanes) {
		lane = state.ZoneNeedsYou.Order() // an unknown zone asks for a look
	}
	zone := b.lanes[lane].zone
	return lane, it.D.IdleStack() || zone == state.ZoneReadyToMerge && it.D.Status == state.StatusMerged
}

// byUrgency is state.Derived.Compare for the board's items: every lane, its
// idle stack and the sidebar list sessions in this one order.
func byUrgency(x, y *item) int { return x.Compare(&y.Derived) }

// deriveAll appends recs derived at now to dst: the board derives each
// record once a cycle, for its lanes, its sidebar and its notifications.
func deriveAll(dst []state.Derived, recs []*state.Record, now time.Time) []state.Derived {
	for _, r := range recs {
		dst = append(dst, state.DeriveAt(r, now))
	}
	return dst
}

// setSize fits the board into w×h cells (lane headers included).
func (b *board) setSize(w, h int) {
	b.vis = min(len(b.lanes), max(1, (w+laneGap)/(minLaneW+laneGap)))
	b.bodyH = max(0, h-1)
	b.relayout()
}

// idleOpen reports whether the idle stack shows its entries.
func (b *board) idleOpen() bool {
	switch {
	case b.idlePref > 0:
		return true
	case b.idlePref < 0:
		return false
	}
	w := &b.lanes[0]
	return len(w.cards)*cardH+1+len(w.extra) <= b.bodyH
}

// toggleIdle opens a closed idle stack or closes an open one.
func (b *board) toggleIdle() {
	if b.idleOpen() {
		b.idlePref = -1
	} else {
		b.idlePref = 1
	}
	b.relayout()
}

// relayout rebuilds every lane's rows, finds the selection again and
// scrolls it into view.
func (b *board) relayout() {
	open := b.idleOpen()
	empty := b.totalIdle == 0 && !slices.ContainsFunc(b.total, func(n int) bool { return n > 0 })
	for i := range b.lanes {
		l := &b.lanes[i]
		l.rows = l.rows[:0]
		switch {
		case len(l.cards)+len(l.extra) == 0:
			r := row{kind: rowEmpty, label: "no sessions"}
			if empty && i == 0 { // nothing anywhere, not a filter's doing
				r.label = "no sessions: press n"
			}
			l.rows = append(l.rows, r)
			continue
		case l.zone == state.ZoneReadyToMerge && len(l.extra) > 0 && len(l.cards) > 0:
			l.rows = append(l.rows, row{kind: rowSub, label: "ready"})
		}
		for _, it := range l.cards {
			l.rows = append(l.rows, row{kind: rowCard, it: it})
		}
		switch {
		case l.zone == state.ZoneWorking && len(l.extra) > 0:
			l.rows = append(l.rows, row{kind: rowIdleHead})
			if open {
				for _, it := range l.extra {
					l.rows = append(l.rows, row{kind: rowIdle, it: it})
				}
			}
		case len(l.extra) > 0:
			l.rows = append(l.rows, row{kind: rowSub, label: "merged"})
			for _, it := range l.extra {
				l.rows = append(l.rows, row{kind: rowCard, it: it})
			}
		}
	}
	b.reselect()
	b.scroll()
}

// counts is each zone's header count, in zone order, and the idle stack's.
func (b *board) counts() (zones []int, idle int) {
	if b.total == nil {
		return make([]int, len(b.lanes)), 0
	}
	return b.total, b.totalIdle
}
