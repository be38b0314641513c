package state

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText is s without terminal control: escape sequences (CSI, OSC, DCS
// and the other string commands, two-byte ESC sequences) whole, and every
// other C0, DEL and C1 character (unicode.IsControl, the rule tmux.SendText
// refuses text by); without the characters that reorder or hide text
// (bidi embeddings, overrides and isolates, zero-width ones); and with
// each byte that is not UTF-8 (a raw 0x9b is an 8-bit CSI) as U+FFFD. It
// is the one rule for every string lanes did not write itself — agent
// payload text, branch names, PR fields, other hosts' lines, other
// programs' output — before it reaches a record, the history or a
// terminal, so none can move the cursor, retitle a window, write the
// clipboard or pass for other text by being printed.
func CleanText(s string) string {
	if !strings.ContainsFunc(s, unclean) && utf8.ValidString(s) {
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
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
		case unclean(r):
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

// unclean: a control character, or one that reorders or hides text — the
// bidi marks, embeddings, overrides and isolates (U+061C, U+200E–U+200F,
// U+202A–U+202E, U+2066–U+2069), the zero-width space, joiners and word
// joiner (U+200B–U+200D, U+2060–U+2064) and the BOM.
func unclean(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == 0x061c, r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e,
		r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069, r == 0xfeff:
		return true
	}
	return false
}

// JSONSafe is JSON text b with every character CleanText would drop
// written as a \uXXXX escape (encoding/json leaves C1 controls, bidi and
// zero-width characters raw): the same data for a program, nothing a
// terminal acts on for a person who prints it. Such characters occur only
// inside JSON strings, where the escape means the same.
func JSONSafe(b []byte) []byte {
	i := firstUnclean(b)
	if i < 0 {
		return b
	}
	out := append(make([]byte, 0, len(b)+16), b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if unclean(r) {
			out = fmt.Appendf(out, "\\u%04x", r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstUnclean is the offset of b's first unclean character, -1 when none:
// printable ASCII, nearly all of JSON text, is passed byte by byte.
func firstUnclean(b []byte) int {
	for i := 0; i < len(b); {
		if c := b[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if unclean(r) {
			return i
		}
		i += size
	}
	return -1
}
