package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"lanes/state"
)

// A key of lanes' goes into a permission dialog only when the dialog the
// pane shows — the newest one on screen, the region the agent draws for
// its question — asks about exactly the call the board showed
// (docs/design.md §15). The hook keeps a digest of the call as the
// agent's dialog prints it (CallSum: never the call itself, which is
// content); before a key, CheckDialog reads the dialog's region off the
// screen, exactly as the agent draws it, and compares it whole: the same
// characters, spaces and line ends. A call the screen could show another
// way (wrapped, a description of two lines, a tab) is refused, never
// guessed at. Both read the agents' recorded real dialogs
// (testdata/real/*/permission-*/dialog.screen; TestCallSumOnRealDialogs,
// dialogscreens.go). Only shell commands are read so far: lanes answers no
// other dialog.

// Errors CheckDialog returns; the answer sends nothing after any of them.
var (
	// ErrUncheckable: lanes keeps no digest of the call the dialog asks
	// about (a tool other than a shell command, or a hook from before it
	// kept one), so it cannot check the screen.
	ErrUncheckable = errors.New("lanes cannot check this dialog on the screen (it reads a one-line shell command, with a one-line description or none); attach to answer it")
	// ErrNoDialogOnScreen: the pane shows no dialog lanes can read, or
	// something follows the newest one (another being drawn).
	ErrNoDialogOnScreen = errors.New("its pane shows no permission dialog lanes can read whole")
)

// OtherCallError: the pane's newest dialog asks about another call than
// the one the board showed; Call is its text as visible spells it.
type OtherCallError struct{ Call string }

func (e *OtherCallError) Error() string {
	return fmt.Sprintf("its pane now asks about another call (%s), not the one shown", e.Call)
}

// CallSum is the digest of the call agent a's permission dialog prints
// for a tool call (its tool name, its input and Gemini's details, as the
// hook received them), exactly: "" when lanes cannot read such a dialog,
// or the call could be printed as another's (see dialogText).
func CallSum(a state.Agent, tool string, input, details []byte) string {
	if text, ok := dialogText(a, tool, input, details); ok {
		return sum(text)
	}
	return ""
}

// dialogText is the call as agent a's dialog prints it, line by line:
// the shell command, and for Claude Code the call's description on the
// line under it. ok is false for any other call, and for one whose
// printing is not one text only: a tab or a carriage return in it, a
// Claude description that is empty or has lines of its own (the lines
// would not say where the command ends).
func dialogText(a state.Agent, tool string, input, details []byte) (string, bool) {
	key, cmd := state.ToolField(input)
	if key != "command" && key != "cmd" {
		key, cmd = state.ToolField(details) // Gemini's ToolPermission
	}
	cmd = strings.TrimRight(cmd, "\n")
	// One line only: the agents draw a command's further lines and its
	// wraps alike (Codex, Claude Code at the same margin), so a call of
	// several lines could be read as another's.
	if key != "command" && key != "cmd" || strings.TrimSpace(cmd) == "" || strings.ContainsAny(cmd, "\t\r\n") {
		return "", false
	}
	d, ok := DriverOf(a)
	if !ok || d.callText == nil {
		return "", false
	}
	return d.callText(tool, strings.TrimRight(cmd, " "), input)
}

// plainCall: the agent prints the command alone.
func plainCall(_, cmd string, _ []byte) (string, bool) { return cmd, true }

// sum is the digest of text, exactly.
func sum(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:16])
}

// CheckDialog is the keys that answer ans on screen's newest permission
// dialog of agent a, when it asks about exactly the call whose digest is
// callSum and draws the option the keys pick; else why no key may go.
func CheckDialog(a state.Agent, ans Answer, callSum, screen string) ([]string, error) {
	if callSum == "" || strings.Contains(callSum, ".") { // none, or a digest of before
		return nil, ErrUncheckable
	}
	if isPlanSum(callSum) {
		return checkPlan(a, ans, callSum, screen)
	}
	drv, known := DriverOf(a)
	text := screen
	if known && drv.keys.Row != nil {
		text = unstyled(screen) // a StyledDialog capture
	}
	d, ok := readDialog(a, text)
	if !known || !ok {
		return nil, ErrNoDialogOnScreen
	}
	if sum(d.call) != callSum {
		return nil, &OtherCallError{Call: visible(d.call, 300)}
	}
	keys, fixed := drv.keys.Keys(ans)
	key, drawn := d.pick(drv.keys.Options[ans])
	switch {
	case !fixed || !drawn:
		return nil, fmt.Errorf("%w: its dialog does not offer %q where the key would pick it", ErrNoDialogOnScreen, drv.keys.Words[ans])
	case key != "":
		return []string{key}, nil // its number on this screen
	case drv.keys.Row != nil && slices.Equal(keys, []string{"Enter"}):
		return drv.keys.fromHighlight(ans, screen)
	}
	return keys, nil
}

// visible is a call's text as a refusal prints it: what could make two
// calls look alike spelled out — a character a terminal would not show
// or a space other than the plain one as ⟨U+200B⟩, a line end as ⏎ — and
// runs of spaces kept; cut to n characters with "…".
func visible(s string, n int) string {
	var b strings.Builder
	k := 0
	for _, r := range s {
		if k == n {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n':
			b.WriteString("⏎")
		case r != ' ' && (unicode.IsSpace(r) || r == utf8.RuneError || state.CleanText(string(r)) == ""):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r)
		}
		k++
	}
	return b.String()
}
