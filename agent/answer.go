package agent

import (
	"errors"
	"fmt"
	"strings"

	"lanes/state"
)

// Answer is what the user says to a permission dialog from the board or
// `lanes answer` (docs/design.md §15).
type Answer string

// The answers a permission dialog takes.
const (
	Yes    Answer = "yes"    // run the tool this once
	No     Answer = "no"     // refuse it
	Always Answer = "always" // run it, and do not ask again (where the agent offers it)
)

// Answers lists every answer, in the order the board offers them.
var Answers = []Answer{Yes, No, Always}

// ParseAnswer reads an answer as the user typed it: yes, no, always, or
// the board's keys y, n, a, in any case.
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
	ErrNoDialogKeys = errors.New("lanes knows no keys for this agent's dialogs; attach to answer")
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

// dialogKeys are settled against the real agents (scripts/agents
// answer_yes, answer_no, answer_always) and their recorded screens
// (testdata/real/<agent>/permission-*/dialog.screen; TestDialogKeysOnScreens).
// A key that picks an option outright is preferred over moving a
// highlight, and no is never Escape where the dialog numbers its options:
// should the dialog close between lanes' read and the key, Esc would
// interrupt the agent's turn, where a digit only lands in its input.
var dialogKeys = map[state.Agent]DialogKeys{
	// Claude Code 2.1: "❯ 1. Yes / 2. Yes, and always allow … / 3. No";
	// a digit picks its option.
	state.AgentClaude: {Yes: []string{"1"}, Always: []string{"2"}, No: []string{"3"},
		Words:   map[Answer]string{Yes: "1. Yes", Always: "2. Yes, and ", No: "3. No"},
		Options: map[Answer]option{Yes: {text: "1. Yes"}, Always: {text: "2. Yes, and ", prefix: true}, No: {text: "3. No"}}},
	// Codex 0.171: "1. Yes, proceed (y) / 2. Yes, and don't ask again … (p)
	// / 3. No, and tell Codex what to do differently (esc)": the letters it
	// advertises; no has only Esc.
	state.AgentCodex: {Yes: []string{"y"}, Always: []string{"p"}, No: []string{"Escape"},
		Words: map[Answer]string{Yes: "Yes, proceed (y)", Always: "don't ask again", No: "No, and tell Codex what to do differently (esc)"},
		Options: map[Answer]option{Yes: {text: "1. Yes, proceed (y)"}, Always: {text: "2. Yes, and don't ask again", prefix: true},
			No: {text: "3. No, and tell Codex what to do differently (esc)"}}},
	// Gemini CLI 0.61: "1. Allow once / 2. Allow for this session / 3. No,
	// suggest changes (esc)"; a digit picks its option.
	state.AgentGemini: {Yes: []string{"1"}, Always: []string{"2"}, No: []string{"3"},
		Words: map[Answer]string{Yes: "1. Allow once", Always: "2. Allow for this session", No: "3. No, suggest changes"},
		Options: map[Answer]option{Yes: {text: "1. Allow once"}, Always: {text: "2. Allow for this session"},
			No: {text: "3. No, suggest changes (esc)"}}},
	// OpenCode 1.18: "Allow once   Allow always   Reject" with "⇆ select
	// enter confirm": Enter takes the first, highlighted, option; Right
	// Right Enter selects Reject and confirms it (Esc left the dialog
	// open in 2 of 2 runs of the real agent here, raw or from lanes).
	// "Allow always" is not offered: Right Enter left the dialog on
	// screen (it may ask again to confirm), so it is not settled.
	state.AgentOpenCode: {Yes: []string{"Enter"}, No: []string{"Right", "Right", "Enter"},
		Words: map[Answer]string{Yes: "Allow once", No: "Reject"},
		// One line; Enter takes the option highlighted, which a text
		// capture cannot show: the first, as it opens.
		Options: map[Answer]option{Yes: {text: "Allow once   Allow always   Reject"}, No: {text: "Allow once   Allow always   Reject"}}},
}

// KeysFor is what answers agent a's permission dialog with answer.
// Refused with ErrNoDialogKeys for an agent lanes knows no keys of, and
// ErrNoAlways for an "always" its dialog does not offer.
func KeysFor(a state.Agent, answer Answer) ([]string, error) {
	k, ok := dialogKeys[a]
	if !ok {
		return nil, ErrNoDialogKeys
	}
	keys, ok := k.Keys(answer)
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
func Words(a state.Agent) map[Answer]string { return dialogKeys[a].Words }

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
	}
	return nil
}
