package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"lanes/state"
)

// A key of lanes' goes into a permission dialog only when the dialog the
// pane shows — the newest one on screen, the region the agent draws for
// its question — asks about exactly the call the board showed
// (docs/design.md §15). The hook keeps a digest of the call as the
// agent's dialog prints it (CallSum: never the call itself, which is
// content); before a key, CheckDialog reads the dialog's region off the
// screen and compares. Both read the agents' recorded real dialogs
// (testdata/real/*/permission-*/dialog.screen; TestCallSumOnRealDialogs).
// Only shell commands are read so far: lanes answers no other dialog.

// Errors CheckDialog returns; the answer sends nothing after any of them.
var (
	// ErrUncheckable: lanes keeps no digest of the call the dialog asks
	// about (a tool other than a shell command, or a hook from before it
	// kept one), so it cannot check the screen.
	ErrUncheckable = errors.New("lanes cannot check this dialog on the screen (it reads shell-command dialogs only); attach to answer it")
	// ErrNoDialogOnScreen: the pane shows no dialog lanes can read, or
	// something follows the newest one (another being drawn).
	ErrNoDialogOnScreen = errors.New("its pane shows no permission dialog lanes can read whole")
)

// OtherCallError: the pane's newest dialog asks about another call than
// the one the board showed.
type OtherCallError struct{ Call string }

func (e *OtherCallError) Error() string {
	return fmt.Sprintf("its pane now asks about another call (%s), not the one shown", e.Call)
}

// CallSum is the digest of the call agent a's permission dialog prints
// for a tool call (its tool name, its input and Gemini's details, as the
// hook received them); "" when lanes cannot read such a dialog. It holds
// the command's digest, the description's (Claude Code prints it under
// the command; "-" for the others), and the command's lines and length:
// "CMD.DESC.LINES.RUNES".
func CallSum(a state.Agent, tool string, input, details []byte) string {
	cmd, desc, ok := dialogText(a, tool, input, details)
	if !ok {
		return ""
	}
	d := "-"
	if desc != nil {
		d = sum(*desc)
	}
	cmd = strings.TrimRight(cmd, "\n")
	return fmt.Sprintf("%s.%s.%d.%d", sum(cmd), d, strings.Count(cmd, "\n")+1, utf8.RuneCountInString(collapse(cmd)))
}

// dialogText is the call as agent a's dialog prints it: the shell command,
// and for Claude Code the call's description, printed under it; ok is
// false for any other call.
func dialogText(a state.Agent, tool string, input, details []byte) (cmd string, desc *string, ok bool) {
	key, cmd := state.ToolField(input)
	if key != "command" && key != "cmd" {
		key, cmd = state.ToolField(details) // Gemini's ToolPermission
	}
	if key != "command" && key != "cmd" || strings.TrimSpace(cmd) == "" {
		return "", nil, false
	}
	switch a {
	case state.AgentClaude:
		if tool != "Bash" {
			return "", nil, false
		}
		var in struct {
			Description string `json:"description"`
		}
		_ = json.Unmarshal(input, &in)
		return cmd, &in.Description, true
	case state.AgentCodex, state.AgentGemini, state.AgentOpenCode:
		return cmd, nil, true
	}
	return "", nil, false
}

// collapse is text as a screen shows it, give or take its wrapping: each
// run of spaces and line ends one space, none at the ends. "rm -rf ~/x"
// and "rm -rf ~ /x" stay two calls.
func collapse(text string) string { return strings.Join(strings.Fields(text), " ") }

// sum is the digest of text collapsed.
func sum(text string) string {
	h := sha256.Sum256([]byte(collapse(text)))
	return hex.EncodeToString(h[:16])
}

// CheckDialog is nil when screen's newest permission dialog of agent a
// asks about the call whose digest is callSum and offers answer ans; else
// why a key must not go.
func CheckDialog(a state.Agent, ans Answer, callSum, screen string) error {
	want := strings.Split(callSum, ".")
	if len(want) != 4 {
		return ErrUncheckable
	}
	call, rest, ok := dialogCall(a, screen)
	if !ok {
		return ErrNoDialogOnScreen
	}
	if !callMatches(call, want, screenWidth(screen)) {
		return &OtherCallError{Call: state.Summary(collapse(strings.Join(call, " ")), 60)}
	}
	if w := dialogKeys[a].Words[ans]; w == "" || !strings.Contains(strings.Join(rest, "\n"), w) {
		return fmt.Errorf("%w: its dialog offers no %q", ErrNoDialogOnScreen, w)
	}
	return nil
}

// callMatches reports whether the dialog's call lines print the call want
// describes (CallSum's parts): the command in the first k lines and the
// description in the rest, for some k; the command in as many lines as it
// has at least, and in one when it has one and fits the screen's width
// with room to spare (a second line there is a line end in the command,
// not a wrap).
func callMatches(lines []string, want []string, width int) bool {
	cmdLines, _ := strconv.Atoi(want[2])
	runes, _ := strconv.Atoi(want[3])
	for k := 1; k <= len(lines); k++ {
		if sum(strings.Join(lines[:k], " ")) != want[0] {
			continue
		}
		desc := strings.Join(lines[k:], " ")
		switch {
		case want[1] == "-" && collapse(desc) != "", want[1] != "-" && sum(desc) != want[1]:
		case k < cmdLines, cmdLines == 1 && runes+12 < width && k != 1:
		default:
			return true
		}
	}
	return false
}

// screenWidth is the widest line of screen: the pane's width, near enough.
func screenWidth(screen string) int {
	w := 0
	for l := range strings.Lines(screen) {
		w = max(w, utf8.RuneCountInString(strings.TrimRight(l, "\n")))
	}
	return w
}

// dialogCall reads the newest permission dialog agent a draws on screen:
// the call it asks about, as printed, and its lines from the question on
// (the options). ok is false when there is none lanes can read whole.
func dialogCall(a state.Agent, screen string) (call []string, rest []string, ok bool) {
	call, rest, ok = dialogLines(a, screen)
	call = slices.DeleteFunc(slices.Clone(call), func(l string) bool { return strings.TrimSpace(l) == "" })
	return call, rest, ok && len(call) > 0
}

// dialogLines is dialogCall by agent, the call's lines as drawn.
func dialogLines(a state.Agent, screen string) ([]string, []string, bool) {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	switch a {
	case state.AgentClaude:
		return claudeDialog(lines)
	case state.AgentCodex:
		return codexDialog(lines)
	case state.AgentGemini:
		return geminiDialog(lines)
	case state.AgentOpenCode:
		return opencodeDialog(lines)
	}
	return nil, nil, false
}

// last is the index of the last line from..end that is, trimmed, want
// (match: contains it); -1 for none.
func last(lines []string, from int, want string, match bool) int {
	for i := len(lines) - 1; i >= from; i-- {
		t := strings.TrimSpace(lines[i])
		if t == want || match && strings.Contains(t, want) {
			return i
		}
	}
	return -1
}

// Claude Code 2.1:
//
//	Bash command
//	  touch approved.txt && sleep 12
//	  Run touch approved.txt && sleep 12
//	Do you want to proceed?
//	❯ 1. Yes
//	  …
//	Esc to cancel · Tab to amend · ctrl+e to explain
//
// and nothing after its footer.
func claudeDialog(lines []string) ([]string, []string, bool) {
	q := last(lines, 0, "Do you want to proceed?", false)
	if q < 0 {
		return nil, nil, false
	}
	head := -1
	for i := q - 1; i >= 0 && head < 0; i-- {
		if strings.TrimSpace(lines[i]) == "Bash command" {
			head = i
		}
	}
	foot := -1
	for i := q + 1; i < len(lines) && foot < 0; i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "Esc to cancel") {
			foot = i
		}
	}
	if head < 0 || foot < 0 || strings.TrimSpace(strings.Join(lines[foot+1:], "")) != "" {
		return nil, nil, false
	}
	return lines[head+1 : q], lines[q+1 : foot+1], true
}

// Codex 0.171:
//
//	  Would you like to run the following command?
//	  Environment: local
//	  Reason: …
//	  $ touch approved.txt && sleep 12
//	› 1. Yes, proceed (y)
//	  …
//	  Press enter to confirm or esc to cancel
func codexDialog(lines []string) ([]string, []string, bool) {
	q := last(lines, 0, "Would you like to run the following command?", false)
	if q < 0 {
		return nil, nil, false
	}
	cmd, opt := -1, -1
	for i := q + 1; i < len(lines) && opt < 0; i++ {
		t := strings.TrimSpace(lines[i])
		switch {
		case cmd < 0 && strings.HasPrefix(t, "$ "):
			cmd = i
		case cmd >= 0 && (strings.HasPrefix(t, "› 1. ") || strings.HasPrefix(t, "1. ")):
			opt = i
		}
	}
	foot := last(lines, max(opt, 0), "Press enter to confirm or esc to cancel", false)
	if cmd < 0 || opt < 0 || foot < 0 {
		return nil, nil, false
	}
	call := append([]string{strings.TrimPrefix(strings.TrimSpace(lines[cmd]), "$ ")}, lines[cmd+1:opt]...)
	return call, lines[opt : foot+1], true
}

// Gemini CLI 0.61: the call in a box inside the dialog's box.
//
//	│ ? Shell  touch approved.txt && sleep 12          │
//	│ ╭────────────────────────────────────────────╮ │
//	│ │ touch approved.txt && sleep 12             │ │
//	│ ╰────────────────────────────────────────────╯ │
//	│ Allow execution of [Shell]?                      │
//	│ ● 1. Allow once                                  │
//	│   …                                              │
//	╰──────────────────────────────────────────────────╯
func geminiDialog(lines []string) ([]string, []string, bool) {
	q := last(lines, 0, "Allow execution of [", true)
	if q < 0 {
		return nil, nil, false
	}
	bottom, top := -1, -1
	for i := q - 1; i >= 0 && top < 0; i-- {
		switch t := strings.TrimSpace(lines[i]); {
		case bottom < 0 && strings.HasPrefix(t, "│ ╰"):
			bottom = i
		case bottom >= 0 && strings.HasPrefix(t, "│ ╭"):
			top = i
		}
	}
	end := -1
	for i := q + 1; i < len(lines) && end < 0; i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "╰") {
			end = i
		}
	}
	if top < 0 || end < 0 {
		return nil, nil, false
	}
	var call []string
	for _, l := range lines[top+1 : bottom] {
		t := strings.TrimSpace(l)
		t = strings.TrimSuffix(strings.TrimPrefix(t, "│ │"), "│ │")
		call = append(call, t)
	}
	return call, lines[q+1 : end], true
}

// OpenCode 1.18, its sidebar sharing the lines on the right:
//
//	┃  △ Permission required
//	┃    # Shell command
//	┃
//	┃  $ touch approved.txt && sleep 12
//	┃
//	┃   Allow once   Allow always   Reject          ⇆ select  enter confirm
func opencodeDialog(lines []string) ([]string, []string, bool) {
	const gap = "          " // ten spaces: the sidebar's column begins
	strip := func(l string) string {
		t := strings.TrimPrefix(strings.TrimLeft(l, " "), "┃")
		if strings.HasPrefix(t, gap) {
			return "" // the sidebar alone
		}
		if i := strings.Index(t, gap); i >= 0 {
			t = t[:i]
		}
		return strings.TrimSpace(t)
	}
	q := -1
	for i := len(lines) - 1; i >= 0 && q < 0; i-- {
		if strip(lines[i]) == "△ Permission required" {
			q = i
		}
	}
	if q < 0 || q+1 >= len(lines) || strip(lines[q+1]) != "# Shell command" {
		return nil, nil, false
	}
	cmd, opt := -1, -1
	for i := q + 2; i < len(lines) && opt < 0; i++ {
		t := strip(lines[i])
		switch {
		case cmd < 0 && strings.HasPrefix(t, "$ "):
			cmd = i
		case strings.HasPrefix(t, "Allow once") && strings.Contains(t, "Reject"):
			opt = i
		}
	}
	if cmd < 0 || opt < 0 {
		return nil, nil, false
	}
	call := []string{strings.TrimPrefix(strip(lines[cmd]), "$ ")}
	for _, l := range lines[cmd+1 : opt] {
		call = append(call, strip(l))
	}
	return call, lines[opt : opt+1], true
}
