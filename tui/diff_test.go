package tui

import (
	"slices"
	"strings"
	"testing"
)

// D opens the selected session's diff over the whole body: the stat, the
// lines painted by lanes (the agent's escape sequences gone), scrolled to
// the end with G, closed with esc.
func TestFlowDiff(t *testing.T) {
	f := answerFlow(t)
	f.keys("D")
	f.wait("the diff", func(v string) bool {
		return strings.Contains(v, "Diff · api") && strings.Contains(v, "app.go | 2 +-") && strings.Contains(v, "+new line")
	})
	if v := *f.last.Load(); strings.Contains(v, "]52;") {
		t.Fatal("an escape sequence from the diff reached the screen")
	}
	f.keys("G")
	f.waitText("context 59")
	f.keys("esc")
	f.wait("the board again", func(v string) bool { return !strings.Contains(v, "Diff · api") })
	f.final()
	if got := f.acts.called(); !slices.Contains(got, "diff api") {
		t.Errorf("actions = %q, want the diff of api", got)
	}
}
