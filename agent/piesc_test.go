package agent

import (
	"regexp"
	"strings"
	"testing"
)

// lanes' pi extension ends a held failed turn as interrupted on Esc alone,
// in each encoding a terminal sends it, and on no other key: under tmux's
// extended-keys every modified key comes as CSI 27;m;k ~, and a hostile
// re-run's Shift+Enter during a retry wait marked the card interrupted.
// The pattern is the extension's own (RE2 reads it as JavaScript does).
func TestPiExtensionEscapeKey(t *testing.T) {
	_, rest, ok := strings.Cut(piExtensionSource, "const escKey = /")
	pattern, _, ok2 := strings.Cut(rest, "/;")
	if !ok || !ok2 {
		t.Fatal("the extension has no escKey pattern")
	}
	esc := regexp.MustCompile(pattern)
	for key, want := range map[string]bool{
		"\x1b": true, "\x1b[27u": true, "\x1b[27;1u": true, "\x1b[27;1:1u": true, "\x1b[27;5;27~": true,
		"\x1b[27;2;13~": false, "\x1b[27;5;97~": false, "\x1b[13;2u": false, "a": false, "\x1b[A": false, "\x1b\x1b": false,
	} {
		if esc.MatchString(key) != want {
			t.Errorf("%q: Esc %v, want %v", key, !want, want)
		}
	}
}
