package tui

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// width is the cells plain text takes. Names, branches and labels are
// nearly always made of runes that take one cell each (ASCII, Latin,
// punctuation such as "·" and "…", arrows, box drawing, geometric shapes);
// anything else is measured by grapheme.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !narrow(r) {
			return ansi.StringWidth(s)
		}
		i += size
		n++
	}
	return n
}

// narrow reports runes that are always one cell and never combine.
func narrow(r rune) bool {
	switch {
	case r >= 0xa0 && r < 0x300, // Latin-1 and Latin extended
		r >= 0x2010 && r <= 0x2027, // dashes, quotes, bullets, "…"
		r >= 0x2190 && r <= 0x21ff, // arrows
		r >= 0x2500 && r <= 0x25ff: // box drawing, blocks, geometric shapes
		return true
	}
	return false
}

// truncate cuts plain text to n cells, ending in "…" when cut.
func truncate(s string, n int) string {
	if width(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return ansi.Truncate(s, n, "…")
}
