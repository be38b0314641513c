package tui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// dialogW is the width of a dialog box, border included, where the
// screen has room for it.
const dialogW = 56

// dialogWidth is a dialog's width on a screen w cells wide: narrower
// than dialogW there, its border still whole (at 45 columns the right
// edge was cut).
func dialogWidth(w int) int { return max(min(dialogW, w), 20) }

// fitInput is in as wide as a dialog w cells wide leaves it.
func fitInput(in textinput.Model, w int) textinput.Model {
	in.SetWidth(max(dialogWidth(w)-6-lipgloss.Width(in.Prompt), 4))
	return in
}

func newInput(l *look, prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.SetStyles(l.input)
	in.SetWidth(dialogW - 6 - lipgloss.Width(prompt))
	return in
}

// box frames a dialog's content, for a screen w cells wide.
func box(l *look, content string, w int) string {
	st := l.st.SelectedCard.Padding(1, 2).Width(dialogWidth(w))
	return st.Render(content)
}

// splitArgs splits a typed command line into words the way a POSIX shell
// would, without running one: blanks separate words, '…' keeps everything
// literally, "…" keeps everything but the backslash of \", \\, \$ and \`,
// and \ escapes the next character outside quotes. Nothing else ($, *, ;)
// is special.
func splitArgs(s string) ([]string, error) {
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		quote   rune // 0, '\'' or '"'
		escaped bool // after \ outside quotes
		// pendingBackslash: after \ inside "…", where it escapes only some
		// characters.
		pendingBackslash bool
	)
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"' && pendingBackslash:
			// Inside "…" a backslash escapes only ", \, $ and `.
			if !strings.ContainsRune(`"\$`+"`", r) {
				cur.WriteRune('\\')
			}
			cur.WriteRune(r)
			pendingBackslash = false
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				pendingBackslash = true
			default:
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\':
			escaped, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	switch {
	case quote != 0:
		return nil, fmt.Errorf("unclosed %c quote in the arguments", quote)
	case escaped:
		return nil, errors.New("a trailing \\ in the arguments escapes nothing")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
