package state

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText is s without terminal control: escape sequences (CSI, OSC, DCS
// and the other string commands, two-byte ESC sequences) whole, and every
// other C0, DEL and C1 character (unicode.IsControl, the rule tmux.SendText
// refuses text by). Agent payload text goes through it before it reaches a
// record or the history, so no surface can be made to move the cursor,
// retitle a window or write the clipboard by printing it.
func CleanText(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s // the common case, no allocation
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
		case r == 0x9b: // C1 CSI: a CSI sequence without the ESC
			i += size + csiLen(s[i+size:])
		case r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f: // C1 DCS, OSC, SOS, PM, APC
			i += size + stringLen(s[i+size:])
		case unicode.IsControl(r):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// escapeLen is the length of the escape sequence that s starts with (s[0]
// is ESC).
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiLen(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringLen(s[2:])
	}
	if s[1] < 0x20 || s[1] >= 0x7f {
		return 1 // a lone ESC: what follows is not part of it
	}
	return 2
}

// csiLen is the length of a CSI sequence's parameters, intermediates and
// final byte (0x40–0x7e).
func csiLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		} else if c < 0x20 || c > 0x3f {
			return i // malformed: stop before the stray byte
		}
	}
	return len(s)
}

// stringLen is the length of a control string's body up to and including
// its terminator: BEL, ST (ESC \) or C1 ST; unterminated, the rest of s.
func stringLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
	}
	return len(s)
}
