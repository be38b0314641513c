package agent

import (
	"strconv"
	"strings"

	"lanes/state"
)

// Dialogs whose options sit on one row that Right moves along (wrapping)
// and Enter confirms (OpenCode 1.18): which option Enter takes is drawn
// only as a background colour, and a person may have moved it (the
// seventh hostile re-run moved it once, and `lanes answer no` approved).
// Their check reads the pane with its styles (capture-pane -e) and counts
// the keys from the option drawn highlighted
// (testdata/real/opencode/highlight).

// StyledDialog reports whether agent a's dialog is checked on a capture
// with its styles (tmux capture-pane -e), not on its text alone.
func StyledDialog(a state.Agent) bool {
	d, ok := DriverOf(a)
	return ok && d.keys.Row != nil
}

// unstyled is a styled capture without its SGR sequences (the only ones
// capture-pane -e writes); any other escape stays, and no reader takes it.
func unstyled(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// sgrLen is the length of the SGR sequence s starts with, 0 for none.
func sgrLen(s string) int {
	if !strings.HasPrefix(s, "\x1b[") {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'm':
			return i + 1
		case c != ';' && c != ':' && (c < '0' || c > '9'):
			return 0
		}
	}
	return 0
}

// highlighted is which of labels the last line of screen holding them
// all, in order, draws on a background unlike the others': its index;
// false unless exactly one is.
func highlighted(screen string, labels []string) (int, bool) {
	lines := strings.Split(screen, "\n")
	for li := len(lines) - 1; li >= 0; li-- {
		text, bgs := styledLine(lines[li])
		at, from := make([]string, len(labels)), 0
		for k, l := range labels {
			i := strings.Index(text[from:], l)
			if i < 0 {
				at = nil
				break
			}
			at[k], from = bgs[from+i], from+i+len(l)
		}
		if at != nil {
			return oddOne(at)
		}
	}
	return 0, false
}

// oddOne is the index of the one value unlike all the others.
func oddOne(vs []string) (int, bool) {
	found := -1
	for i, v := range vs {
		same := 0
		for _, w := range vs {
			if w == v {
				same++
			}
		}
		if same == 1 {
			if found >= 0 {
				return 0, false
			}
			found = i
		}
	}
	return found, found >= 0 && len(vs) > 2
}

// styledLine is a styled line's text, and the background each byte of it
// is drawn on.
func styledLine(l string) (string, []string) {
	var text strings.Builder
	var bgs []string
	bg := ""
	for i := 0; i < len(l); {
		if n := sgrLen(l[i:]); n > 0 {
			bg = background(l[i+2:i+n-1], bg)
			i += n
			continue
		}
		text.WriteByte(l[i])
		bgs = append(bgs, bg)
		i++
	}
	return text.String(), bgs
}

// background is the background after an SGR sequence's parameters,
// given the one before.
func background(params, bg string) string {
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	if params == "" {
		return ""
	}
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case n == 0 || n == 49:
			bg = ""
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			bg = ps[i]
		case n == 48 && i+2 < len(ps) && ps[i+1] == "5":
			bg, i = "5;"+ps[i+2], i+2
		case n == 48 && i+4 < len(ps) && ps[i+1] == "2":
			bg, i = "2;"+strings.Join(ps[i+2:i+5], ";"), i+4
		case n == 38 && i+1 < len(ps) && ps[i+1] == "5":
			i += 2 // a foreground's colour: its numbers are no codes
		case n == 38 && i+1 < len(ps) && ps[i+1] == "2":
			i += 4
		}
	}
	return bg
}

// rowKeys is Right as many times as it takes from option from to option
// to of n, then Enter.
func rowKeys(from, to, n int) []string {
	keys := []string{}
	for range (to - from + n) % n {
		keys = append(keys, "Right")
	}
	return append(keys, "Enter")
}

// SteppedInto is the key that leaves, nothing decided, the step agent a's
// dialog opens when Enter lands on an option other than the one meant
// (OpenCode's "Always allow … Confirm Cancel", after a highlight moved in
// the last moment), nil when screen shows no such step.
func SteppedInto(a state.Agent, screen string) []string {
	if d, ok := DriverOf(a); ok && d.keys.Back != nil && state.Screen(unstyled(screen)).Shows(d.keys.Back) {
		return []string{"Escape"}
	}
	return nil
}
