package tui

import (
	"slices"
	"testing"
)

// C clears Done in one step: it asks once, saying how many and which,
// and removes each terminated session of this host; a live one stays.
func TestFlowClearDone(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("C")
	f.waitText("Remove 3 done session(s)?")
	f.waitText("shipped, old, ancient:")
	f.keys("y")
	f.waitText("removed 3 done session(s)")
	f.final()
	got := f.acts.called()
	slices.Sort(got)
	if want := []string{"remove ancient", "remove old", "remove shipped"}; !slices.Equal(got, want) {
		t.Errorf("actions = %q, want %q", got, want)
	}
}
