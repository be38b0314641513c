package state

import (
	"strings"
	"testing"
)

// Another host's pane reaches the preview with its colours only: a title,
// a clipboard write, a cursor move, a C1 CSI or a bare control in it is
// dropped, the SGR kept.
func TestKeepSGR(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[31mred\x1b[0m plain":              "\x1b[31mred\x1b[0m plain",
		"a\x1b]0;pwned\x07b":                    "ab",
		"\x1b]52;c;aGk=\x1b\\x\x1b[1;38:5:9my":  "x\x1b[1;38:5:9my",
		"up\x1b[2Aclear\x1b[2J\rbell\x07\n":     "upclearbell\n",
		"\u009b31mc1 \x9bbyte":                  "c1 \ufffdbyte", // a raw 0x9b byte is not UTF-8
		"\x1b[" + strings.Repeat("9", 65) + "m": "",
	} {
		if got := string(KeepSGR([]byte(in))); got != want {
			t.Errorf("KeepSGR(%q) = %q, want %q", in, got, want)
		}
	}
}
