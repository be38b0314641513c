package state

import (
	"strings"
	"unicode/utf8"
)

// InputHolds reports whether s, a screen of agent a with no dialog over
// it, shows text in the agent's input: text lanes did not type there (Qwen
// Code puts an interrupted prompt back in its input), which a prompt typed
// after it would run as one with; or, read after lanes' Enter, a prompt
// the agent did not take.
//
// Only its input counts, found where the agent draws it (its Markers'
// Input and InputRule): a model's answer may quote the placeholder, and
// the agent's history shows past prompts as its input line does. Where
// the input is found only by its place on a whole screen (Qwen's last
// input line, pi's last box), it counts only at the agent's prompt.
// Where lanes cannot find it, it holds nothing.
func InputHolds(a Agent, s Screen) bool {
	holds, _ := ReadInput(a, s)
	return holds
}

// ReadInput is InputHolds, and whether lanes found the input on s at all
// (found false: it holds nothing as far as lanes can tell).
func ReadInput(a Agent, s Screen) (holds, found bool) {
	m, ok := MarkersOf(a)
	if !ok || m.dialogShows(s) {
		return false, false
	}
	lines := strings.Split(string(s), "\n")
	switch {
	case m.InputRule != "" && m.Input != "":
		return ruledLineHolds(lines, m)
	case !m.Ready(s):
		return false, false
	case m.InputRule != "":
		return boxHolds(lines, m.InputRule)
	}
	for i := len(lines) - 1; i >= 0 && m.Input != ""; i-- {
		if strings.HasPrefix(lines[i], m.Input) {
			return !Screen(lines[i]).Shows(m.Empty), true
		}
	}
	return false, false
}

// ruledLineHolds reads an input line drawn under a rule (Gemini CLI: its
// composer " > …" is the first line starting with m.Input under the
// screen's last rule, which its history and its busy line are above):
// whether that line holds more than its placeholder. No such line (a
// shell mode's " ! " composer, no rule): it cannot tell.
func ruledLineHolds(lines []string, m Markers) (holds, found bool) {
	rule := -1
	for i := len(lines) - 1; i >= 0 && rule < 0; i-- {
		if strings.HasPrefix(lines[i], m.InputRule) {
			rule = i
		}
	}
	for _, l := range lines[rule+1:] {
		if rule >= 0 && strings.HasPrefix(l, m.Input) {
			return strings.TrimSpace(strings.TrimPrefix(l, m.Input)) != "" && !Screen(l).Shows(m.Empty), true
		}
	}
	return false, false
}

// boxHolds reports whether the input box lines draw, between the last two
// that start with rule and are as wide, holds text: a line with any, or a
// rule that says more lines are scrolled out of it ("─── ↑ 2 more"). A
// shorter line of rule in a draft is the draft's (a hostile re-run's
// "draft text" over "──────────" read empty). No box: it cannot tell, so
// it holds nothing.
func boxHolds(lines []string, rule string) (holds, found bool) {
	var at []int // the last two rules, the bottom one first
	for i := len(lines) - 1; i >= 0 && len(at) < 2; i-- {
		if strings.HasPrefix(lines[i], rule) && (len(at) == 0 || width(lines[i]) == width(lines[at[0]])) {
			at = append(at, i)
		}
	}
	if len(at) < 2 {
		return false, false
	}
	for _, l := range lines[at[1] : at[0]+1] {
		if strings.Trim(strings.TrimSpace(l), "─") != "" {
			return true, true
		}
	}
	return false, true
}

// width is how many cells line, as captured (its trailing blanks cut),
// spans: a rule's "─" and its "↑ 2 more" are one cell each.
func width(line string) int { return utf8.RuneCountInString(strings.TrimRight(line, " ")) }
