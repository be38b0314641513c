package tui

import (
	"errors"
	"strings"
	"testing"
)

// Issue 30, item 4, the seventh hostile re-run: the board's message after
// P ("PR created: " and gh's last line) carried gh's words raw, and an
// 8-bit OSC and a bidi override reached the terminal. Whatever a message
// holds, it is made printable.
func TestMessagesPrintNoControl(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	for _, msg := range []actionMsg{
		{text: "PR created: \x1b]52;c;cHduZWQ=\a\u009d0;C1T\u009c\u202ehttps://github.com/o/r/pull/7"},
		{err: errors.New("create PR: gh: \x1b[2J\u009b2Jerror\U000E0041")},
	} {
		m = step(m, msg)
		for _, bad := range []string{"\x1b", "\u009d", "\u009b", "\u202e", "\U000E0041", "\a"} {
			if strings.Contains(m.status.text, bad) {
				t.Errorf("message %q kept %q", m.status.text, bad)
			}
		}
	}
	if !strings.Contains(m.status.text, "error") {
		t.Errorf("the message lost its words: %q", m.status.text)
	}
}
