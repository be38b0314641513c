package tui

import (
	"slices"

	"lanes/agent"
	"lanes/state"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// situation is what decides which of the board's keys apply: the
// selected card and the board around it.
type situation struct {
	card     bool // a card is selected
	merged   bool // its PR merged
	remote   bool // it is another host's, a host the board knows
	down     bool // and that host is down
	idleHead bool // the selection is the idle stack's head (no card)
	hosts    bool // the board has other hosts
}

// The conditions the key table names.
func always(situation) bool         { return true }
func hostUp(s situation) bool       { return !s.down }
func hostDown(s situation) bool     { return s.down }
func mergedCard(s situation) bool   { return s.merged && !s.down }
func unmergedCard(s situation) bool { return !s.merged && !s.down }
func remoteUp(s situation) bool     { return s.remote && !s.down }
func localCard(s situation) bool    { return !s.remote && !s.idleHead }
func onIdleHead(s situation) bool   { return s.idleHead }
func otherHosts(s situation) bool   { return s.hosts }
func noHosts(s situation) bool      { return !s.hosts }

// footSet is a set of the board's key lines (footer), a bit each.
type footSet uint16

// in reports whether f is one of fs.
func (fs footSet) in(f footer) bool { return fs&(1<<f) != 0 }

// on is the set of key lines fs.
func on(fs ...footer) footSet {
	var out footSet
	for _, f := range fs {
		out |= 1 << f
	}
	return out
}

// everyFoot is every key line but the answer line's.
var everyFoot = on(footLive, footExited, footEnded, footRestorable, footMerged, footIdle)

// binding is one row of the board's key table: a key, what it does, when
// it applies, and where `?` and the key line show it. onBoardKey walks
// the table; at most one row of a key applies in any situation
// (TestKeyTableOneRowPerKey).
type binding struct {
	key  key.Binding
	when func(situation) bool
	do   func(m *Model, sel *item) tea.Cmd
	// moves: the key may move the selection; the preview, the history and
	// the seen mark follow it.
	moves bool
	// col is the `?` column (1–3; 0: not there), where the row shows as
	// helpAs when set (the moves share lines there), in table order.
	col    int
	helpAs key.Binding
	// foot is the key lines that show the row, as footAs when set, in
	// footRank's order.
	foot     footSet
	footAs   key.Binding
	footRank int
	// answer is the answer the key gives a permission dialog: the answer
	// line shows it only for an agent that offers it.
	answer agent.Answer
}

func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}

// keyTable is every key of the board; see keyrows.go for the rows.
type keyTable []binding

// find is the row of k that applies in s, if any.
func (t keyTable) find(k tea.KeyPressMsg, s situation) (binding, bool) {
	for _, b := range t {
		if key.Matches(k, b.key) && b.when(s) {
			return b, true
		}
	}
	return binding{}, false
}

// fullHelp is the `?` overlay's keys, one column per kind: the rows with a
// column that apply on the board as s has it (no card).
func (t keyTable) fullHelp(s situation) [][]key.Binding {
	cols := make([][]key.Binding, 3)
	for _, b := range t {
		if b.col == 0 || !b.when(s) {
			continue
		}
		h := b.key
		if b.helpAs.Help().Key != "" {
			h = b.helpAs
		}
		cols[b.col-1] = append(cols[b.col-1], h)
	}
	return cols
}

// footerKeys is the key line f: its rows in footRank's order; on the
// answer line, only the answers agent ag offers.
func (t keyTable) footerKeys(f footer, ag state.Agent) []key.Binding {
	var rows []binding
	for _, b := range t {
		if b.foot.in(f) && (b.answer == "" || slices.Contains(agent.Offers(ag), b.answer)) {
			rows = append(rows, b)
		}
	}
	slices.SortStableFunc(rows, func(a, b binding) int { return a.footRank - b.footRank })
	out := make([]key.Binding, len(rows))
	for i, b := range rows {
		out[i] = b.key
		if b.footAs.Help().Key != "" {
			out[i] = b.footAs
		}
	}
	return out
}

// footer is which key line the board shows, after the selected card: the
// keys that act on it.
type footer int

const (
	footLive       footer = iota // a live session, or no card selected
	footExited                   // live, but its agent exited
	footEnded                    // terminated
	footRestorable               // terminated, and R brings it back
	footMerged                   // its PR merged: d cleans it up
	footIdle                     // the idle stack's head: enter opens or closes it
	footAnswer                   // in a permission dialog: its answers first
	nFooters
)

func helpBinding(keys, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, desc))
}
