package agent

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"lanes/state"
)

// Answer is what the user says to a permission dialog from the board or
// `lanes answer` (docs/design.md §15).
type Answer string

// The answers a permission dialog takes.
const (
	Yes    Answer = state.ReplyYes    // run the tool this once
	No     Answer = state.ReplyNo     // refuse it
	Always Answer = state.ReplyAlways // run it, and do not ask again (where the agent offers it)
)

// Answers lists every answer, in the order the board offers them.
var Answers = []Answer{Yes, No, Always}

// ParseAnswer reads an answer as the user typed it: yes, no, always, or
// their first letters, y, n, a (scripts' words, not the board's keys), in any case.
func ParseAnswer(s string) (Answer, error) {
	switch a := Answer(strings.ToLower(s)); a {
	case Yes, No, Always:
		return a, nil
	case "y":
		return Yes, nil
	case "n":
		return No, nil
	case "a":
		return Always, nil
	}
	return "", fmt.Errorf("unknown answer %q (want yes, no or always)", s)
}

// Errors callers may test for.
var (
	// ErrNoDialogKeys: lanes knows no keys for this agent's dialogs (a
	// shell, a custom command): the user answers in the pane.
	ErrNoDialogKeys = errors.New("lanes answers only the dialogs of the coding agents it knows (not a shell's or a custom command's); attach to answer in its pane")
	// ErrNoAlways: the agent's dialog has no "always allow" option.
	ErrNoAlways = errors.New("its dialog offers no \"always allow\"; answer yes or no, or attach")
	// ErrQuestion: the dialog asks a question, which takes words or a
	// choice, not yes or no.
	ErrQuestion = errors.New("it asks a question, not for permission; attach to answer")
	// ErrNoDialog: the session shows no dialog to answer.
	ErrNoDialog = errors.New("it shows no permission dialog")
	// ErrAnswered: lanes already sent an answer to this dialog; the card
	// follows once the witness sees the screen change.
	ErrAnswered = errors.New("it was answered from lanes already; the card follows once its screen changes")
)

// DialogKeys are the tmux key names (send-keys, not literal text) that
// answer an agent's permission dialog, and the dialog's own words for each
// option, which the tests find on the agents' recorded screens.
type DialogKeys struct {
	Yes, No, Always []string
	// Words are the option labels as the dialog shows them, by answer.
	Words map[Answer]string
	// Options are the lines the dialog draws the options on, which the
	// screen check asks for where the key picks them (dialogscreens.go).
	Options map[Answer]option
	// Row, when set, are the option labels of a dialog whose options sit
	// on one row that Right moves along and Enter confirms: an answer
	// whose key is Enter is counted from the option drawn highlighted
	// (highlight.go). Back, when set, are the words of the step a moved
	// highlight's Enter may open instead ("Always allow"), which Esc
	// leaves, nothing decided.
	Row, Back []string
}

// fromHighlight is the keys that take answer ans on screen (styled) from
// the option drawn highlighted.
func (k DialogKeys) fromHighlight(ans Answer, screen string) ([]string, error) {
	to := slices.Index(k.Row, k.Words[ans])
	from, ok := highlighted(screen, k.Row)
	if to < 0 || !ok {
		return nil, fmt.Errorf("%w: lanes cannot tell which of its options is highlighted", ErrNoDialogOnScreen)
	}
	return rowKeys(from, to, len(k.Row)), nil
}

// Keys returns the keys for answer a; ok is false when the dialog has no
// such option.
func (k DialogKeys) Keys(a Answer) (keys []string, ok bool) {
	switch a {
	case Yes:
		keys = k.Yes
	case No:
		keys = k.No
	case Always:
		keys = k.Always
	}
	return keys, len(keys) > 0
}

// KeysFor is what answers agent a's permission dialog with answer.
// Refused with ErrNoDialogKeys for an agent lanes knows no keys of, and
// ErrNoAlways for an "always" its dialog does not offer.
func KeysFor(a state.Agent, answer Answer) ([]string, error) {
	d, ok := DriverOf(a)
	if !ok {
		return nil, ErrNoDialogKeys
	}
	keys, ok := d.keys.Keys(answer)
	if !ok && answer == Always {
		return nil, ErrNoAlways
	}
	if !ok {
		return nil, ErrNoDialogKeys
	}
	return keys, nil
}

// Offers lists the answers agent a's permission dialog takes, in the
// board's order; none for an agent lanes knows no keys of.
func Offers(a state.Agent) []Answer {
	var out []Answer
	for _, ans := range Answers {
		if _, err := KeysFor(a, ans); err == nil {
			out = append(out, ans)
		}
	}
	return out
}

// Words are agent a's dialog labels for each answer.
func Words(a state.Agent) map[Answer]string {
	if d, ok := DriverOf(a); ok {
		return d.keys.Words
	}
	return nil
}

// Answerable is nil when r, as read, shows a permission dialog an answer
// may be typed into; else why not: the reasons send refuses (state.CanSend,
// a dialog aside), ErrQuestion, or ErrNoDialog (also when the witness saw
// the dialog's screen go).
func Answerable(r *state.Record) error {
	if err := state.CanSend(r, true); err != nil {
		if errors.Is(err, state.ErrStarting) {
			return fmt.Errorf("%w; it shows no dialog yet", err)
		}
		return err
	}
	if _, ok := DriverOf(r.Agent); !ok {
		return ErrNoDialogKeys
	}
	switch a := r.Activity; {
	case a.Dialog && state.AsksQuestion(r):
		return ErrQuestion
	case !a.Dialog || a.State != state.ActivityBlocked:
		return ErrNoDialog
	case !a.AnsweredAt.IsZero():
		// One answer per dialog: a second key (a double tap) would land
		// on whatever the agent shows after the first.
		return ErrAnswered
	case !a.DialogGoneAt.IsZero():
		// The witness's last capture no longer showed it: a key would
		// land on whatever the agent shows now.
		return fmt.Errorf("%w: its screen no longer shows it", ErrNoDialog)
	case planned(r) && a.CallSum == "":
		return ErrPlanNotRead
	}
	return nil
}
