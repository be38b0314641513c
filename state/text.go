package state

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
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

// unclean: a control character, or one that reorders or hides text: every
// format character (Cf: the bidi marks, embeddings, overrides and
// isolates, the zero-width space and joiners, the word joiner, the soft
// hyphen, the BOM, the tag characters U+E0000–U+E007F…), the line and
// paragraph separators, the variation selectors, the combining grapheme
// joiner and the blank fillers (U+115F, U+1160, U+3164, U+FFA0) that
// draw nothing yet make two names differ.
func unclean(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	switch {
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef, r == 0x034f,
		r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0:
		return true
	}
	return false
}

// CleanLines is CleanText of each line of s, its line ends kept: for a
// message of several lines (a refusal listing files) made of other
// programs' words.
func CleanLines(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && unclean(r) }) && utf8.ValidString(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = CleanText(l)
	}
	return strings.Join(lines, "\n")
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
			out = jsonEscape(out, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// jsonEscape appends r as JSON's \uXXXX escape: a surrogate pair past
// U+FFFF (a tag character), as JSON spells those.
func jsonEscape(out []byte, r rune) []byte {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return fmt.Appendf(out, "\\u%04x\\u%04x", hi, lo)
	}
	return fmt.Appendf(out, "\\u%04x", r)
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
