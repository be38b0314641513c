package near

import "testing"

func TestWord(t *testing.T) {
	among := []string{"theme", "agent", "notify.ways", "notify.enabled", "status-line", "restart", "restore"}
	for word, want := range map[string]string{
		"them": "theme", "thmee": "theme", "agnet": "agent", "notify.way": "notify.ways",
		"rest":   "", // starts restart and restore: several, so none
		"colour": "", "st": "status-line", "": "",
	} {
		if got := Word(word, among); got != want {
			t.Errorf("Word(%q) = %q, want %q", word, got, want)
		}
	}
	if d := Distance("ab", "ba"); d != 1 {
		t.Errorf("a swap of neighbours is one edit, not %d", d)
	}
}
