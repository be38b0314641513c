package state

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"
)

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"Bash":                                "Bash",
		"mcp__git__log é 日本":                  "mcp__git__log é 日本",
		"a\x1b[31mred\x1b[0m b":               "ared b",
		"x\x1b]52;c;aGVsbG8=\x07y":            "xy",
		"x\x1b]0;title\x1b\\y":                "xy",
		"x\x1bPq#0\x1b\\y":                    "xy",
		"x\x1bcy":                             "xy",
		"tab\there\nnl\r\x00\x7f":             "tabherenl",
		"c1\u0085\u009b2Jcsi\u009d0;t\u009cz": "c1csiz",
		"trailing\x1b":                        "trailing",
		"unterminated\x1b]0;never ends":       "unterminated",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

// What reorders or hides text goes too, and a byte that is not UTF-8
// (a raw 0x9b is an 8-bit CSI) becomes U+FFFD (issue 30, item 4).
func TestCleanTextBidiZeroWidthAndBadBytes(t *testing.T) {
	for in, want := range map[string]string{
		"main\u202e\u2066evil\u2069":     "mainevil",
		"fix\u200b\u200d-\ufeffit\u061c": "fix-it",
		"a\x9b2Jb":                       "a\ufffd2Jb",
		"a\u009b2Jb\u009d0;x\u0007c":     "abc",
		"\x1b]52;c;aGk=\x07branch":       "branch",
		"plain ünïcode ✓":                "plain ünïcode ✓",
		// The seventh hostile re-run: what draws nothing yet makes two
		// names differ (tag characters, a soft hyphen, line and
		// paragraph separators, variation selectors, fillers).
		"n\U000E0041\U000E007Fa\u00adme": "name",
		"a\u2028b\u2029c\u180ed":         "abcd",
		"x\ufe0fy\U000E0100z\u034fw":     "xyzw",
		"p\u3164q\u115fr\uffa0s\u2061t":  "pqrst",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

// JSON text keeps its data but carries no raw C1, bidi or zero-width
// character: each is a \u escape (issue 30, item 4).
func TestJSONSafe(t *testing.T) {
	for _, in := range []map[string]string{
		{"branch": "a\u009b2J\u202eb\u200bc", "plain": "ünï ✓"},
		// Non-ASCII text before the first unclean character, a DEL last.
		{"plain": "ünï ✓", "zeta": "é\u2066x\u007f"},
		// Past U+FFFF: a surrogate pair, as JSON spells it.
		{"name": "n\U000E0041\u00ad\u2028x"},
	} {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		safe := JSONSafe(b)
		if bytes.ContainsFunc(safe, unclean) {
			t.Fatalf("JSONSafe left %q", safe)
		}
		var back map[string]string
		if err := json.Unmarshal(safe, &back); err != nil || !maps.Equal(back, in) {
			t.Fatalf("JSONSafe changed the data: %q → %v, %v", b, back, err)
		}
	}
}
