package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"

	"github.com/charmbracelet/x/ansi"
)

// When gh stops answering after it worked, the board says so once at the
// bottom and for as long as it lasts on the title line; when it works
// again the note goes.
func TestPRsStoppedIsSaid(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	off := errors.New("PRs from GitHub are off: gh is not logged in (run gh auth login, or set GH_TOKEN)")
	m = step(m, cycleMsg{res: store.CycleResult{Records: fixture(), PRsStopped: off}, now: fixedNow})
	v := ansi.Strip(m.View().Content)
	if first := strings.SplitN(v, "\n", 2)[0]; !strings.Contains(first, "✗ PRs from GitHub off") {
		t.Errorf("title line %q lacks the note", first)
	}
	if !strings.Contains(v, "gh is not logged in") || !strings.Contains(v, "tries again every 5 minutes") {
		t.Errorf("the bottom line does not say why:\n%s", v)
	}
	m = step(m, cycleMsg{res: store.CycleResult{Records: fixture()}, now: fixedNow})
	if first := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]; strings.Contains(first, "PRs from GitHub off") {
		t.Errorf("title line %q keeps the note after gh answered again", first)
	}
}

// The keys page shows every key whole at 80×24 (a fourth column was cut
// there, hiding esc, t, ? and q).
func TestHelpKeysWholeAt80(t *testing.T) {
	m := press(loaded(fixture(), ThemeLight, 80, 24), "?")
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"q   quit", "esc clear filter", "t   theme", "P push, create PR"} {
		if !strings.Contains(v, want) {
			t.Errorf("the keys page at 80×24 lacks %q:\n%s", want, v)
		}
	}
}

// A session lanes did not start says so on its card.
func TestAdoptedTag(t *testing.T) {
	r := rec("i1000004", "shop", state.ActivityIdle, time.Minute)
	r.Adopted, r.Branch = true, "main"
	if got := metaIn(r, 40); got != "claude · adopted · main" {
		t.Errorf("meta %q", got)
	}
}

// An adopted session's idle row says so, and x and r on it refuse at once
// (no confirm promising what lanes will not do).
func TestAdoptedIdleRowAndRefusals(t *testing.T) {
	l := newLook(true, false)
	r := rec("i1000005", "shop", state.ActivityIdle, time.Minute)
	r.Adopted, r.Branch = true, "main"
	it := &item{Derived: state.DeriveAt(r, fixedNow)}
	if row := ansi.Strip(idleRow(l, it, 60, false, fixedNow, 0)); !strings.Contains(row, "adopted · main") {
		t.Errorf("idle row %q lacks the adopted tag", row)
	}
	m := loaded([]*state.Record{r}, ThemeDark, 120, 30)
	if selectedName(m) != "shop" {
		m = press(m, "j") // from the idle stack's head to its row
	}
	for _, k := range []string{"x", "r"} {
		got := press(m, k)
		if topIs[confirmDialog](&got) || !strings.Contains(ansi.Strip(got.View().Content), "lanes did not start shop") {
			t.Errorf("%s on an adopted card: mode %T, screen lacks the refusal", k, got.top())
		}
	}
}
