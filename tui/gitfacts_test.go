package tui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/state"

	"github.com/charmbracelet/x/ansi"
)

// gitRec is a session on a long branch with an open PR and the git facts
// given (read at fixedNow when any is set).
func gitRec(ahead, behind, changed int) *state.Record {
	r := withPR(rec("e3000001", "api", state.ActivityIdle, time.Minute), openPR(state.ReviewPending, state.CIPassing, state.MergeableUnknown))
	r.Branch = "lanes/fix-the-login-redirect"
	r.Git.Ahead, r.Git.Behind, r.Git.Changed = ahead, behind, changed
	r.Git.ReadAt = fixedNow
	return r
}

// The meta line shows ↑ ↓ ± after the branch, each only when not zero, and
// nothing before the first read.
func TestMetaShowsAheadBehindChanged(t *testing.T) {
	pr := gitRec(0, 0, 0).PRs[0].Number
	for _, c := range []struct {
		r    *state.Record
		want string
	}{
		{gitRec(3, 1, 7), "↑3 ↓1 ±7"},
		{gitRec(3, 0, 0), "↑3"},
		{gitRec(0, 2, 5), "↓2 ±5"},
		{gitRec(0, 0, 0), ""},
	} {
		want := "claude · lanes/fix-the-login-redirect"
		if c.want != "" {
			want += " " + c.want
		}
		want += " #" + strconv.Itoa(pr)
		if got := meta(c.r); got != want {
			t.Errorf("meta %q, want %q", got, want)
		}
	}
	unread := gitRec(3, 1, 7)
	unread.Git.ReadAt = time.Time{}
	if got := meta(unread); got != "claude · lanes/fix-the-login-redirect #"+strconv.Itoa(pr) {
		t.Errorf("never read: %q", got)
	}
}

// A card with the figures is never wider than the card, at every width.
func TestGitFactsNeverWidenACard(t *testing.T) {
	l := newLook(true, false)
	b := newBoard()
	b.set(deriveAll(nil, []*state.Record{gitRec(123, 45, 6789)}, fixedNow), fixedNow, "", false, true)
	for _, it := range b.items {
		for w := minDrawW; w <= 90; w++ {
			for i, line := range renderCard(l, &it, w, false, fixedNow, 0) {
				if got := ansi.StringWidth(line); got != w {
					t.Fatalf("at %d cells line %d is %d wide: %q", w, i, got, ansi.Strip(line))
				}
			}
		}
	}
}

// A long branch name is cut before the counts: ↑ ↓ ± and the PRs show on
// a narrow card; a count git could not make (-1) shows nothing.
func TestMetaCutsTheBranchFirst(t *testing.T) {
	r := rec("g1000001", "lb", state.ActivityIdle, time.Minute)
	r.Branch = "topic/a-really-long-branch-name-for-testing-width"
	r.Git = state.GitFacts{Ahead: 1, Behind: -1, Changed: 1, ReadAt: fixedNow}
	got := metaIn(r, 24)
	if !strings.HasSuffix(got, " ↑1 ±1") || width(got) > 24 || strings.Contains(got, "-1") {
		t.Errorf("metaIn = %q (%d cells), want the branch cut and ↑1 ±1 kept in 24", got, width(got))
	}
}

// A failure too long for the card is cut, never dropped: "Failed: usage
// limit, resets 10:04 PM" vanished from a 38-cell card (issue 32).
func TestALongFailureIsCutNotDropped(t *testing.T) {
	l := newLook(true, false)
	r := rec("f1000001", "limited", state.ActivityIdle, time.Minute)
	r.Activity.Outcome, r.Activity.Failure = state.OutcomeFailure, "usage limit, resets 10:04 PM"
	b := newBoard()
	b.set(deriveAll(nil, []*state.Record{r}, fixedNow), fixedNow, "", false, true)
	for _, w := range []int{minDrawW, 24, 38, 60} {
		card := renderCard(l, &b.items[0], w, false, fixedNow, 0)
		text := ansi.Strip(strings.Join(card[:], "\n"))
		if !strings.Contains(text, "✗ Fa") {
			t.Errorf("at %d cells the failure is gone:\n%s", w, text)
		}
		for i, line := range card {
			if got := ansi.StringWidth(line); got != w {
				t.Fatalf("at %d cells line %d is %d wide: %q", w, i, got, ansi.Strip(line))
			}
		}
	}
}

// Marks that do not all fit in their own words shorten to their labels
// and glyphs, so none hides behind another: a new user saw "✗ Failed:
// rate limited …" and not the background agent beside it (issue 32).
func TestEveryMarkShowsWhenTheyCrowd(t *testing.T) {
	l := newLook(true, false)
	r := rec("f1000002", "crowded", state.ActivityIdle, time.Minute)
	r.Activity.Outcome, r.Activity.Failure = state.OutcomeFailure, "rate limited"
	r.Activity.Background = []string{"agent:a1"}
	b := newBoard()
	b.set(deriveAll(nil, []*state.Record{r}, fixedNow), fixedNow, "", false, true)
	if len(b.items[0].D.Marks) < 2 {
		t.Fatalf("marks %v, want failed and background", b.items[0].D.Marks)
	}
	for _, w := range []int{minDrawW, 24, 30, 38} {
		card := renderCard(l, &b.items[0], w, false, fixedNow, 0)
		text := ansi.Strip(strings.Join(card[:], "\n"))
		if !strings.Contains(text, "✗") || !strings.Contains(text, "↻") {
			t.Errorf("at %d cells a mark is gone:\n%s", w, text)
		}
	}
	card := renderCard(l, &b.items[0], 60, false, fixedNow, 0)
	wide := ansi.Strip(strings.Join(card[:], "\n"))
	if !strings.Contains(wide, "rate limited") {
		t.Errorf("at 60 cells the failure's words are gone:\n%s", wide)
	}
	// The widest mark shortens first: the background keeps its count.
	card = renderCard(l, &b.items[0], 30, false, fixedNow, 0)
	if mid := ansi.Strip(strings.Join(card[:], "\n")); !strings.Contains(mid, "1 agent") {
		t.Errorf("at 30 cells the background's count is gone:\n%s", mid)
	}
}
