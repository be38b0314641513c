package state

import (
	"strings"
	"unicode/utf8"
)

// Menus and pickers (docs/design.md §11; issue 32, item 6): an agent's
// slash commands open lists (/resume, /model, /config…) that fire no hook.
// While one shows, text typed into the pane searches or picks in it: the
// witness looks at an idle pane once its output settles, the card says
// "in a menu", and send refuses as it does for a dialog.

// Menus are how an agent's screen shows one of its menus open, from its
// recorded real screens (testdata/real/menus).
type Menus struct {
	// Words show only while one of its menus does (their footers' keys).
	Words []string
	// Find, when set, finds a menu drawn without words of its own.
	Find func(Screen) bool
}

// MenusOf is agent a's menus; false when none are known.
func MenusOf(a Agent) (*Menus, bool) {
	r, ok := ReadingOf(a)
	return r.Menus, ok && r.Menus != nil
}

// InMenu reports whether s, the screen of an agent a that no dialog
// holds, shows one of its menus — or one of its dialogs' words, which
// some of its menus share (Claude Code's /model and /rewind end "Esc to
// cancel").
func InMenu(a Agent, s Screen) bool {
	if m, ok := MenusOf(a); ok && (s.Shows(m.Words) || m.Find != nil && m.Find(s)) {
		return true
	}
	mk, ok := MarkersOf(a)
	return ok && mk.dialogShows(s)
}

// opencodePicker: OpenCode's pickers and its command palette (/themes,
// /agents, ctrl+p "Commands") draw a title ending in "esc" and, a line or
// two below, under the title's first letter, its search box: "Search", or
// what the user typed into it (two cells in); the conversation may show
// on the same rows to their left (testdata/real/menus; the eighth, ninth
// and tenth hostile re-runs' send ran the palette's "Undo previous
// message").
func opencodePicker(screen Screen) bool {
	lines := strings.Split(string(screen), "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " ")
		head, ok := strings.CutSuffix(l, "   esc")
		gap := strings.LastIndex(strings.TrimRight(head, " "), "   ")
		if !ok || gap < 0 {
			continue
		}
		col := utf8.RuneCountInString(head[:gap+3]) // the title's first letter
		for _, next := range lines[i+1 : min(i+3, len(lines))] {
			if r := []rune(next); len(r) > col && strings.TrimSpace(string(r[col:min(len(r), col+4)])) != "" {
				return true
			}
		}
	}
	return false
}
