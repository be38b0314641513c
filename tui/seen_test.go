package tui

import (
	"slices"
	"testing"
	"time"

	"lanes/state"
)

// Issue 32, item 2: moving the board's selection onto a card whose failed
// turn nobody has seen tells the store it was seen (an automatic turn may
// then let it go); a card with nothing unseen, or another host's, costs
// no write.
func TestSelectionMarksSeen(t *testing.T) {
	recs := fixture()
	failed := recs[0]
	failed.Activity.State, failed.Activity.Outcome = state.ActivityIdle, state.OutcomeFailure
	failed.Activity.Since = fixedNow.Add(-time.Minute)
	m := loaded(recs, ThemeDark, 160, 48)
	fake := m.o.Actions.(*fakeActions)
	var it *item
	for li := range m.board.lanes {
		for _, r := range m.board.lanes[li].rows {
			if r.it != nil && r.it.Rec.ID == failed.ID {
				it = r.it
			}
		}
	}
	if it == nil {
		t.Fatal("the failed card is not on the board")
	}
	cmd := m.seen(it)
	if cmd == nil {
		t.Fatal("a failed turn nobody saw: no seen")
	}
	cmd()
	if !slices.Contains(fake.called(), "seen "+failed.Name) {
		t.Errorf("calls %q, want seen %s", fake.called(), failed.Name)
	}
	state.Seen(it.Rec, fixedNow)
	if m.seen(it) != nil {
		t.Error("seen again after it was seen")
	}
	remote := *it
	remote.Host = "gpu"
	failed.Activity.SeenAt = time.Time{}
	if cmd := m.seen(&remote); cmd != nil { // told there; this store is not written
		cmd()
	}
	if n := len(fake.called()); n != 1 {
		t.Errorf("another host's card: this host's service called %q", fake.called())
	}
}
