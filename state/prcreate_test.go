package state

import (
	"testing"
	"time"
)

// BadgePR is the PR that makes the badge: the worst open one (a stacked PR
// only while failing, draft or changes requested), else the closed or
// merged one that changed last.
func TestBadgePR(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	open := func(n int, base, head, review, ci string) PR {
		return PR{Number: n, State: PRStateOpen, Base: base, Head: head, Review: review, CI: ci, Mergeable: MergeableUnknown}
	}
	for _, c := range []struct {
		name string
		prs  []PR
		want int // 0: none
	}{
		{"none", nil, 0},
		{"worst open", []PR{open(1, "main", "a", ReviewApproved, CIPassing), open(2, "main", "b", ReviewNone, CIFailing)}, 2},
		{"stacked counts only when bad", []PR{open(1, "main", "a", ReviewPending, CIPassing), open(2, "a", "b", ReviewNone, CINone)}, 1},
		{"open beats merged", []PR{{Number: 3, State: PRStateMerged}, open(4, "main", "a", ReviewNone, CINone)}, 4},
		{"latest closed", []PR{{Number: 5, State: PRStateClosed, StateChangedAt: t0.Add(time.Hour)}, {Number: 6, State: PRStateMerged, StateChangedAt: t0}}, 5},
	} {
		p, ok := BadgePR(c.prs)
		if got := map[bool]int{true: p.Number}[ok]; got != c.want {
			t.Errorf("%s: #%d (%v), want #%d", c.name, p.Number, ok, c.want)
		}
	}
}
