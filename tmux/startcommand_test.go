package tmux

import (
	"slices"
	"testing"
)

// TestSplitCommand: words tmux 3.3 quoted come back as they were; text in
// a form SplitCommand does not know is refused, never guessed at.
func TestSplitCommand(t *testing.T) {
	words := []string{"/bin/sh", "-c", `echo "a b"; sleep 100`, "it's", `x"$y`, "~h", "", "é", "a\tb", `back\slash`, "\x01"}
	// As tmux 3.3a printed #{pane_start_command} for those words.
	text := `/bin/sh -c "echo \"a b\"; sleep 100" "it's" "x\"\$y" \~h '' é a\tb back\\slash \001`
	if got, ok := SplitCommand(text); !ok || !slices.Equal(got, words) {
		t.Fatalf("SplitCommand(%s) = %q, %v", text, got, ok)
	}
	for _, bad := range []string{"", `sh -c "unterminated`, `trailing\`, `sh  -c x`, `"a"b`} {
		if got, ok := SplitCommand(bad); ok {
			t.Errorf("SplitCommand(%q) = %q, want refused", bad, got)
		}
	}
}
