package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// o asks the command line to open the selected card's PR and shows what
// it said: here, with no browser, the URL to copy.
func TestFlowOpenPR(t *testing.T) {
	recs := fixture()
	for _, r := range recs {
		if r.Name == "ship" {
			r.PRs[0].URL = "https://github.com/o/r/pull/10"
		}
	}
	f := startFlowOn(t, 160, 48, recs)
	f.keys("/")
	f.tm.Type("ship")
	f.keys("enter")
	f.waitText("esc clears")
	f.keys("o")
	f.waitText("no browser: PR #10 https://github.com/o/r/pull/10")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"open-pr ship"}) {
		t.Errorf("actions = %q, want one open-pr of ship", got)
	}
}

// P shows the commands it runs before it runs them; n runs nothing, y
// runs CreatePR off the event loop and shows the new PR's URL.
func TestFlowCreatePR(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.waitText("┃ ● api")
	f.keys("P")
	f.waitText("Create a PR for api?")
	f.waitText("In /src/api it runs")
	f.waitText("git push -u origin fix-login")
	f.waitText("gh pr create --fill --head fix-login")
	f.keys("n")
	f.wait("the question gone", func(v string) bool { return !strings.Contains(v, "Create a PR for api?") })
	if got := f.acts.called(); len(got) != 0 {
		t.Fatalf("actions after n = %q, want none", got)
	}
	f.keys("P")
	f.waitText("Create a PR for api?")
	f.keys("y")
	f.waitText("PR created: https://github.com/o/r/pull/42")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"create-pr api fix-login"}) {
		t.Errorf("actions = %q, want one create-pr of api on fix-login", got)
	}
}

// P on a session that has an open PR, or has ended, says why and opens
// no dialog.
func TestFlowCreatePRRefused(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("/")
	f.tm.Type("flaky")
	f.keys("enter")
	f.waitText("esc clears")
	f.keys("P")
	f.waitText("flaky already has PR #10 (o opens it)")
	f.keys("esc", "/")
	f.tm.Type("old")
	f.keys("enter")
	f.waitText("esc clears")
	f.keys("P")
	f.waitText("old is terminated")
	m := f.final()
	if m.top() != nil {
		t.Errorf("mode %T after refusals, want the board", m.top())
	}
	if got := f.acts.called(); len(got) != 0 {
		t.Errorf("actions = %q, want none", got)
	}
}

// The help's keys page names o and P, and still fits 80×24 and, with the
// legend, 80×34.
func TestHelpHasPRKeys(t *testing.T) {
	for _, h := range []int{24, 34} {
		m := press(loaded(fixture(), ThemeDark, 80, h), "?")
		v := ansi.Strip(m.View().Content)
		checkFrame(t, m.View().Content, 80, h)
		for _, want := range []string{"o open PR", "P push, create PR"} {
			if !strings.Contains(v, want) {
				t.Errorf("80x%d: the help lacks %q:\n%s", h, want, v)
			}
		}
	}
}
