package agent

import (
	"strings"

	"lanes/state"
)

// How each agent draws its shell-command permission dialog, read off the
// recorded real screens (testdata/real/AGENT/permission-*/dialog.screen).
// A reader finds the newest dialog on the screen, takes the call's lines
// with exactly the margin the agent draws them with, and refuses a screen
// where anything but the dialog's own lines follows it (another dialog
// being drawn under it) or where a line is not drawn the agent's way.

// dialog is a permission dialog read off a screen.
type dialog struct {
	call    string   // the call as drawn, its lines joined by "\n", trailing spaces gone
	options []string // the option lines, trimmed, the selection marker gone
}

// option is how a dialog draws the option an answer picks: its line,
// trimmed and without the selection marker, whole or (prefix) its start;
// or, numbered, "N. " and then that, where N is the key that picks it (an
// agent's release may renumber its options: Claude Code 2.1.332 put
// "3. Yes, and switch to auto mode" before "4. No"). or: the words other
// releases draw. first: of the two options drawn so, the first (Qwen Code
// draws "Always allow …" for this project, then for this user; drawn once
// only, it could be either).
type option struct {
	text     string
	prefix   bool
	numbered bool
	first    bool
	or       []string
}

// pick is the key that picks o on the dialog: "" with ok for an option
// whose key is not its number (the agent's fixed keys pick it); ok is false
// when the dialog does not draw o, or draws it twice.
func (d dialog) pick(o option) (key string, ok bool) {
	found, firstKey := 0, ""
	for _, l := range d.options {
		n := ""
		if o.numbered {
			digits := strings.TrimLeft(l, "0123456789")
			rest, dot := strings.CutPrefix(digits, ". ")
			if !dot || len(digits) == len(l) {
				continue
			}
			n, l = l[:len(l)-len(digits)], rest
		}
		for _, t := range append([]string{o.text}, o.or...) {
			if l == t || o.prefix && strings.HasPrefix(l, t) {
				key, found = n, found+1
				break
			}
		}
		if found == 1 && firstKey == "" {
			firstKey = key
		}
	}
	if o.first {
		return firstKey, found == 2
	}
	return key, found == 1
}

// readDialog reads the newest permission dialog agent a draws on screen;
// ok is false when there is none lanes can read whole.
func readDialog(a state.Agent, screen string) (dialog, bool) {
	lines := state.ScreenLines(screen)
	drv, ok := DriverOf(a)
	if !ok || drv.readDialog == nil {
		return dialog{}, false
	}
	d, ok := drv.readDialog(lines)
	// The empty lines the agent draws around the call are not its own.
	d.call = strings.Trim(d.call, "\n")
	return d, ok && d.call != ""
}

// last is the index of the last line that is, trimmed, want; -1 for none.
func last(lines []string, want string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if trim(lines[i]) == want {
			return i
		}
	}
	return -1
}

// margin is each line with its margin (exactly) taken off; false when a
// line is drawn otherwise. An empty line is an empty line of the call.
func margin(lines []string, m string) ([]string, bool) {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			continue
		}
		rest, ok := strings.CutPrefix(l, m)
		if !ok {
			return nil, false
		}
		out[i] = rest
	}
	return out, true
}

// blank reports whether every line is empty once cut is taken off them.
func blank(lines []string, cut func(string) string) bool {
	for _, l := range lines {
		if trim(cut(l)) != "" {
			return false
		}
	}
	return true
}

// optionLines are lines trimmed, each without its selection marker.
func optionLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := trim(l)
		for _, m := range []string{"❯ ", "› ", "● "} {
			t = strings.TrimPrefix(t, m)
		}
		out = append(out, trim(t))
	}
	return out
}

func keep(s string) string { return s }

// trim is state.TrimPlain, the screen readers' one trim.
var trim = state.TrimPlain
