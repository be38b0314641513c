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
// trimmed and without the selection marker, whole or (prefix) its start.
type option struct {
	text   string
	prefix bool
}

// offers reports whether the dialog draws o.
func (d dialog) offers(o option) bool {
	for _, l := range d.options {
		if l == o.text || o.prefix && strings.HasPrefix(l, o.text) {
			return true
		}
	}
	return false
}

// readDialog reads the newest permission dialog agent a draws on screen;
// ok is false when there is none lanes can read whole.
func readDialog(a state.Agent, screen string) (dialog, bool) {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	var d dialog
	var ok bool
	switch a {
	case state.AgentClaude:
		d, ok = claudeDialog(lines)
	case state.AgentCodex:
		d, ok = codexDialog(lines)
	case state.AgentGemini:
		d, ok = geminiDialog(lines)
	case state.AgentOpenCode:
		d, ok = opencodeDialog(lines)
	}
	// The empty lines the agent draws around the call are not its own.
	d.call = strings.Trim(d.call, "\n")
	return d, ok && d.call != ""
}

// last is the index of the last line that is, trimmed, want; -1 for none.
func last(lines []string, want string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) == want {
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
		if strings.TrimSpace(cut(l)) != "" {
			return false
		}
	}
	return true
}

// optionLines are lines trimmed, each without its selection marker.
func optionLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		for _, m := range []string{"❯ ", "› ", "● "} {
			t = strings.TrimPrefix(t, m)
		}
		out = append(out, strings.TrimSpace(t))
	}
	return out
}

func keep(s string) string { return s }

// Claude Code 2.1, the call and its description three columns in, and
// nothing under the footer:
//
//	Bash command
//	  touch approved.txt && sleep 12
//	  Run touch approved.txt && sleep 12
//	Do you want to proceed?
//	❯ 1. Yes
//	  …
//	Esc to cancel · Tab to amend · ctrl+e to explain
func claudeDialog(lines []string) (dialog, bool) {
	q := last(lines, "Do you want to proceed?")
	head := -1
	for i := q - 1; i >= 0 && head < 0 && q > 0; i-- {
		if lines[i] == " Bash command" {
			head = i
		}
	}
	foot := -1
	for i := q + 1; i < len(lines) && foot < 0 && q >= 0; i++ {
		if strings.HasPrefix(lines[i], " Esc to cancel") {
			foot = i
		}
	}
	if head < 0 || foot < 0 || !blank(lines[foot+1:], keep) {
		return dialog{}, false
	}
	call, ok := margin(lines[head+1:q], "   ")
	if !ok {
		return dialog{}, false
	}
	return dialog{strings.Join(call, "\n"), optionLines(lines[q+1 : foot])}, true
}

// Codex 0.171, the command after "$ " two columns in, and nothing under
// the footer:
//
//	  Would you like to run the following command?
//	  Reason: …
//	  $ touch approved.txt && sleep 12
//	› 1. Yes, proceed (y)
//	  …
//	  Press enter to confirm or esc to cancel
func codexDialog(lines []string) (dialog, bool) {
	q := last(lines, "Would you like to run the following command?")
	foot := last(lines, "Press enter to confirm or esc to cancel")
	if q < 0 || foot < q || !blank(lines[foot+1:], keep) {
		return dialog{}, false
	}
	for _, l := range lines[q+1 : foot] {
		if strings.Contains(l, "Would you like to") || strings.Contains(l, "Press enter to confirm") {
			return dialog{}, false // another dialog under it
		}
	}
	cmd, opt := -1, -1
	for i := q + 1; i < foot && opt < 0; i++ {
		switch t := strings.TrimSpace(lines[i]); {
		case cmd < 0 && strings.HasPrefix(lines[i], "  $ "):
			cmd = i
		case cmd >= 0 && (strings.HasPrefix(t, "› 1. ") || strings.HasPrefix(t, "1. ")):
			opt = i
		}
	}
	if cmd < 0 || opt < 0 {
		return dialog{}, false
	}
	rest, ok := margin(lines[cmd+1:opt], "    ")
	if !ok {
		return dialog{}, false
	}
	call := append([]string{strings.TrimPrefix(lines[cmd], "  $ ")}, rest...)
	return dialog{strings.Join(call, "\n"), optionLines(lines[opt:foot])}, true
}

// Gemini CLI 0.61: the command in a box inside the dialog's box, and the
// same command after "? Shell" in its header; nothing under the outer box.
//
//	╭──────────────────────────────╮
//	│ ? Shell  touch approved.txt && sleep 12   │
//	│ ╭──────────────────────────╮ │
//	│ │ touch approved.txt && sleep 12       │ │
//	│ ╰──────────────────────────╯ │
//	│ Allow execution of [Shell]?    │
//	│                                │
//	│ ● 1. Allow once                │
//	│   …                            │
//	╰────────────────────────────────╯
func geminiDialog(lines []string) (dialog, bool) {
	q := -1
	for i := len(lines) - 1; i >= 0 && q < 0; i-- {
		if strings.TrimRight(strings.TrimSuffix(lines[i], "│"), " ") == "│ Allow execution of [Shell]?" {
			q = i
		}
	}
	if q < 4 || !strings.HasPrefix(lines[q-1], "│ ╰") {
		return dialog{}, false
	}
	top := -1
	for i := q - 2; i >= 1 && top < 0; i-- {
		if strings.HasPrefix(lines[i], "│ ╭") {
			top = i
		}
	}
	end := -1
	for i := q + 1; i < len(lines) && end < 0; i++ {
		if strings.HasPrefix(lines[i], "╰") {
			end = i
		}
	}
	if top < 2 || end < 0 || !blank(lines[end+1:], keep) || !strings.HasPrefix(lines[top-2], "╭") {
		return dialog{}, false
	}
	inner := func(l string) (string, bool) {
		body, ok := strings.CutPrefix(l, "│ │ ")
		body, end := strings.CutSuffix(body, "│ │")
		return strings.TrimRight(body, " "), ok && end
	}
	var call []string
	for _, l := range lines[top+1 : q-1] {
		t, ok := inner(l)
		if !ok {
			return dialog{}, false
		}
		call = append(call, t)
	}
	header := strings.TrimRight(strings.TrimSuffix(lines[top-1], "│"), " ")
	if len(call) == 0 || header != "│ ? Shell  "+call[0] {
		return dialog{}, false
	}
	opts := make([]string, 0, end-q-1)
	for _, l := range lines[q+1 : end] {
		opts = append(opts, strings.TrimSuffix(strings.TrimPrefix(l, "│"), "│"))
	}
	return dialog{strings.Join(call, "\n"), optionLines(opts)}, true
}

// OpenCode 1.18, its sidebar sharing the lines far to the right; the
// command after "$ " on a line of its own, the options on one line, and
// only the sidebar under them:
//
//	┃  △ Permission required
//	┃    # Shell command
//	┃
//	┃  $ touch approved.txt && sleep 12
//	┃                                                  /root/proj
//	┃   Allow once   Allow always   Reject        ⇆ select  enter confirm
//	┃                                                  • OpenCode 1.18.33
func opencodeDialog(lines []string) (dialog, bool) {
	const gap = "          " // ten spaces: the sidebar's column begins
	// main is a line's text left of the sidebar.
	main := func(l string) string {
		if i := strings.Index(l, gap); i >= 0 {
			return strings.TrimRight(l[:i], " ")
		}
		return l
	}
	q := -1
	for i := len(lines) - 1; i >= 0 && q < 0; i-- {
		if strings.TrimSpace(main(lines[i])) == "┃  △ Permission required" {
			q = i
		}
	}
	opt := -1
	for i := q + 1; i < len(lines) && opt < 0 && q >= 0; i++ {
		if strings.HasPrefix(strings.TrimSpace(main(lines[i])), "┃   Allow once") {
			opt = i
		}
	}
	if q < 0 || opt < q+4 {
		return dialog{}, false
	}
	// The sidebar's column: where its text starts under the options.
	col := -1
	for _, l := range lines[opt+1:] {
		bar, ok := strings.CutPrefix(strings.TrimLeft(l, " "), "┃")
		switch t := strings.TrimLeft(bar, " "); {
		case ok && t != "":
			if c := len(l) - len(t); col < 0 || c < col {
				col = c
			}
		case strings.TrimSpace(l) != "":
			return dialog{}, false // anything but the sidebar under the options
		}
	}
	// Every line of the dialog but the command's: its text, or the sidebar.
	side := func(l string) string {
		if col > 0 && len(l) > col && strings.TrimSpace(l[:col]) == "┃" {
			return "┃"
		}
		return strings.TrimSpace(l)
	}
	if side(lines[q+1]) != "┃    # Shell command" || side(lines[q+2]) != "┃" {
		return dialog{}, false
	}
	cmd := ""
	for _, l := range lines[q+3 : opt] {
		switch t := side(l); {
		case t == "┃":
		case cmd == "" && strings.HasPrefix(t, "┃  $ ") && !strings.Contains(l, gap):
			cmd = strings.TrimPrefix(t, "┃  $ ")
		default:
			return dialog{}, false // a second line of the command, or text beside it
		}
	}
	if cmd == "" {
		return dialog{}, false
	}
	return dialog{cmd, []string{strings.TrimPrefix(strings.TrimSpace(main(lines[opt])), "┃   ")}}, true
}
