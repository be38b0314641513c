package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"

	"github.com/charmbracelet/x/ansi"
)

// urgencyFixture is a Needs-you lane whose names sort the other way from
// its urgency: a dialog, two exited agents (the one waiting longer first),
// a failed CI that is newer than both (exited and CI failed share a
// rank).
func urgencyFixture() []*state.Record {
	ask := rec("c2000001", "zz-ask", state.ActivityBlocked, 10*time.Second)
	ask.Activity.Dialog = true
	oldExit := rec("c2000002", "yy-exit-old", state.ActivityExited, 20*time.Minute)
	oldExit.Pane.Dead, oldExit.Pane.ExitStatus = true, intp(1)
	newExit := rec("c2000003", "xx-exit-new", state.ActivityExited, time.Minute)
	newExit.Pane.Dead, newExit.Pane.ExitStatus = true, intp(2)
	ci := withPR(rec("c2000004", "aa-ci", state.ActivityIdle, 3*time.Hour), openPR(state.ReviewPending, state.CIFailing, state.MergeableUnknown))
	ci.PRs[0].StateChangedAt = ago(30 * time.Second) // the failure is new, the turn hours old
	return []*state.Record{ci, newExit, oldExit, ask}
}

// TestLaneOrderIsUrgency: a dialog above an exited agent above a failed
// CI, the longest wait first within a rank; the sidebar in the same order.
func TestLaneOrderIsUrgency(t *testing.T) {
	want := []string{"zz-ask", "yy-exit-old", "xx-exit-new", "aa-ci"}
	m := loaded(urgencyFixture(), ThemeDark, 200, 50)
	var lane []string
	for _, it := range m.board.lanes[state.ZoneNeedsYou.Order()].cards {
		lane = append(lane, it.Rec.Name)
	}
	if !slices.Equal(lane, want) {
		t.Errorf("Needs you lists %q, want %q", lane, want)
	}
	var side []string
	for _, x := range m.sidebar.live {
		side = append(side, x.Rec.Name)
	}
	if !slices.Equal(side, want) {
		t.Errorf("the sidebar lists %q, want %q", side, want)
	}
	// The CI card's age is its badge's: the failure's, not the turn's.
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "aa-ci") || strings.Contains(v, "aa-ci          3h") {
		t.Errorf("the CI-failed card does not show the failure's age:\n%s", v)
	}
}

// TestIdleStackOrderIsUrgency: the idle stack lists the longest idle first.
func TestIdleStackOrderIsUrgency(t *testing.T) {
	recs := []*state.Record{
		rec("b2000001", "a-recent", state.ActivityIdle, time.Minute),
		rec("b2000002", "b-old", state.ActivityIdle, time.Hour),
	}
	m := loaded(recs, ThemeDark, 200, 50)
	var got []string
	for _, it := range m.board.lanes[state.ZoneWorking.Order()].extra {
		got = append(got, it.Rec.Name)
	}
	if want := []string{"b-old", "a-recent"}; !slices.Equal(got, want) {
		t.Errorf("the idle stack lists %q, want %q", got, want)
	}
}
