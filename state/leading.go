package state

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lastLeading is where the last of words starts in s that leads its line,
// as an agent draws its own status lines: only blanks before it, or one
// glyph and its blank ("ℹ Request cancelled.", Qwen's "●︎ Request
// cancelled."), and indented no deeper than indent when indent ≥ 0 (the
// column its answers start at: their own lines, a quote among them, are
// indented deeper). A box's side ("│ ", a tool's output) is no such
// glyph. -1 when none does.
func (s Screen) lastLeading(words []string, indent int) int {
	at := -1
	for _, w := range words {
		for end := len(s); end > at; {
			i := strings.LastIndex(string(s[:end]), w)
			if i <= at {
				break
			}
			if leads(lineBefore(s, i), indent) {
				at = i
				break
			}
			end = i
		}
	}
	return at
}

// lineBefore is the text of s's line up to i.
func lineBefore(s Screen, i int) string {
	return string(s[strings.LastIndex(string(s[:i]), "\n")+1 : i])
}

// leads reports whether before, what its line holds ahead of a marker,
// lets the marker lead the line, at most indent deep (indent < 0: any).
func leads(before string, indent int) bool {
	rest := strings.TrimLeft(before, " ")
	if indent >= 0 && len(before)-len(rest) > indent {
		return false
	}
	rest = strings.TrimRight(rest, " ")
	if rest == "" {
		return true
	}
	glyph, n := utf8.DecodeRuneInString(rest)
	// After the glyph, its variation selector; "ℹ" is a letter to unicode.
	rest = strings.TrimLeft(rest[n:], "\ufe0e\ufe0f")
	word := glyph < utf8.RuneSelf && (unicode.IsLetter(glyph) || unicode.IsDigit(glyph))
	return rest == "" && !word && (glyph < 0x2500 || glyph > 0x257f)
}

// indentOf is how many blanks line starts with.
func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// choiceLeads reports whether the text at i leads its line as a choice's
// title or option does: what may lead a line before it, after a box's
// side ("│ ● 1. Keep trying") and an option's number ("› 1. Yes").
func choiceLeads(s Screen, i int) bool {
	before := strings.TrimRight(lineBefore(s, i), " ")
	before = strings.TrimPrefix(before, "│")
	if num, ok := strings.CutSuffix(before, "."); ok {
		before = strings.TrimRight(num, "0123456789")
	}
	return leads(before, -1)
}

// dialogShows reports whether s shows one of the agent's dialogs: one of
// its words with no idle prompt drawn under it. A dialog takes its input's
// place, so the prompt drawn again below a dialog's words says they are
// history (a hostile re-run: the call Esc refused, its command saying
// "Enter to select", kept the card in a dialog for good).
func (m Markers) dialogShows(s Screen) bool {
	d := s.last(m.Dialog)
	return d >= 0 && !Screen(s[d:]).Shows(m.Idle)
}
