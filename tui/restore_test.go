package tui

import (
	"slices"
	"strings"
	"testing"
)

// R on a card whose tmux session is gone shows what it will run before it
// runs it; n runs nothing, y restores. So does one the user killed; one
// that exited cleanly says why it is not restored, and opens no dialog.
func TestFlowRestore(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("/")
	f.tm.Type("lost")
	f.keys("enter")
	f.waitText("esc clears")
	f.keys("R")
	f.waitText("Restore lost?")
	f.waitText("gemini --resume 0b7e3c2a-5d1f-4e8a-9c6b-") // the dialog wraps the rest
	f.keys("n")
	f.wait("the question gone", func(v string) bool { return !strings.Contains(v, "Restore lost?") })
	if got := f.acts.called(); len(got) != 0 {
		t.Fatalf("actions after n = %q, want none", got)
	}
	f.keys("R")
	f.waitText("Restore lost?")
	f.keys("y")
	f.waitText("restored lost: resumed")
	// One the user killed comes back too, asked first.
	f.keys("esc", "a", "/")
	f.tm.Type("old")
	f.keys("enter")
	f.waitText("esc clears")
	f.keys("R")
	f.waitText("Restore old?")
	f.keys("n")
	f.wait("the question gone", func(v string) bool { return !strings.Contains(v, "Restore old?") })
	// One that exited cleanly is not.
	f.keys("esc", "/")
	f.tm.Type("shipped")
	f.keys("enter")
	f.waitText("esc clears")
	f.keys("R")
	f.waitText("can't restore shipped")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"restore lost"}) {
		t.Errorf("actions = %q, want one restore of lost", got)
	}
}
