package tui

import (
	"slices"
	"strings"
	"testing"
)

// A crashed command's preview shows its last words over tmux's notice,
// not the empty rows of its tall pane between them (a new-user trial saw
// only blank lines and "Pane is dead").
func TestPreviewOfADeadPane(t *testing.T) {
	// As capture-pane -p gives a 50-row pane whose command wrote one line.
	capture := "fatal: config missing at line 7\n" + strings.Repeat("\n", 48) +
		"Pane is dead (status 2, Tue Dec  1 04:23:38 2026)\n"
	got := tailLines([]byte(capture), 5)
	want := []string{"fatal: config missing at line 7", "Pane is dead (status 2, Tue Dec  1 04:23:38 2026)"}
	if !slices.Equal(got, want) {
		t.Fatalf("preview lines %q, want %q", got, want)
	}
	// A live pane keeps the blank lines it drew between its lines.
	live := "one\n\n\ntwo\n\n"
	if got, want := tailLines([]byte(live), 5), []string{"one", "", "", "two"}; !slices.Equal(got, want) {
		t.Fatalf("live pane lines %q, want %q", got, want)
	}
}
