package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/theme"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// contentFixture has a card of every content kind: a working tool, a
// dialog's question, a tool asking permission, an idle message, a text too
// long for any card, wide runes, and a session that said nothing.
func contentFixture() []*state.Record {
	tool := rec("a3000001", "tests", state.ActivityActive, time.Minute)
	tool.Activity.Tool, tool.Activity.ToolInput = "Bash", "npm test"
	long := rec("a3000002", "long", state.ActivityActive, 2*time.Minute)
	long.Activity.Tool, long.Activity.ToolInput = "Edit", "/src/long/internal/very/deep/package/path/with/a/file_name_that_goes_on.go"
	wide := rec("a3000003", "wide", state.ActivityActive, 3*time.Minute)
	wide.Activity.Tool, wide.Activity.ToolInput = "Bash", "echo 日本語のテキスト 🚀🚀 done"
	ask := rec("c3000001", "ask", state.ActivityWaitingInput, 30*time.Second)
	ask.Activity.Dialog, ask.Activity.Question = true, "Which database should the migration target?"
	perm := rec("c3000002", "perm", state.ActivityBlocked, 10*time.Second)
	perm.Activity.Dialog, perm.Activity.Tool, perm.Activity.ToolInput = true, "Bash", "rm -rf build"
	said := rec("b3000001", "said", state.ActivityIdle, 4*time.Minute)
	said.Activity.LastMessage = "Done with the tests: all 212 pass."
	saidWide := rec("b3000002", "emoji", state.ActivityIdle, 8*time.Minute)
	saidWide.Activity.LastMessage = "完了しました 🎉 テストはすべて通りました"
	quiet := rec("a3000004", "quiet", state.ActivityActive, 5*time.Minute)
	review := withPR(rec("d3000001", "review", state.ActivityIdle, time.Hour), openPR(state.ReviewPending, state.CIPassing, state.MergeableUnknown))
	review.Activity.LastMessage = "Opened the PR; waiting for review."
	gone := terminated(rec("f3000001", "gone", state.ActivityIdle, time.Hour), "killed by user", 2*time.Hour)
	gone.Activity.LastMessage = "never shown: the session ended"
	return []*state.Record{tool, long, wide, ask, perm, said, saidWide, quiet, review, gone}
}

// TestGoldenContent renders what the cards say, dark and light, narrow and
// wide.
func TestGoldenContent(t *testing.T) {
	for _, th := range []string{ThemeDark, ThemeLight} {
		for _, sz := range []struct{ w, h int }{{80, 24}, {200, 50}} {
			t.Run(fmt.Sprintf("%s/%dx%d", th, sz.w, sz.h), func(t *testing.T) {
				out := loaded(contentFixture(), th, sz.w, sz.h).View().Content
				checkFrame(t, out, sz.w, sz.h)
				golden.RequireEqual(t, out)
			})
		}
	}
}

// contentWords are what contentFixture's cards say, as the board shows it.
var contentWords = []string{"▸ Bash: npm test", "? Which database", "? Allow Bash: rm -rf build",
	"“Done with the test", "▸ Edit: …", "that_goes_on.go", "▸ Bash: echo 日本", "“Opened the PR"}

func TestCardsSayWhatTheAgentDoes(t *testing.T) {
	v := ansi.Strip(loaded(contentFixture(), ThemeDark, 200, 50).View().Content)
	for _, want := range contentWords {
		if !strings.Contains(v, want) {
			t.Errorf("the board does not show %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "never shown") {
		t.Errorf("a terminated card says its last message:\n%s", v)
	}
}

// TestContentOff: with LANES_CONTENT=off (Options.NoContent) no card, idle
// row or sidebar says anything of what the agents do.
func TestContentOff(t *testing.T) {
	m := New(context.Background(), Options{Collector: &fakeCycler{}, Actions: &fakeActions{},
		Theme: ThemeDark, Now: func() time.Time { return fixedNow }, NoContent: true}, nil)
	m = step(m, tea.WindowSizeMsg{Width: 200, Height: 50})
	m = step(m, cycleMsg{res: store.CycleResult{Records: contentFixture(), At: fixedNow}, now: fixedNow})
	v := ansi.Strip(m.View().Content)
	for _, gone := range append(contentWords, "npm", "database", "rm -rf", "212", "完了") {
		if strings.Contains(v, gone) {
			t.Errorf("content off, the board still shows %q:\n%s", gone, v)
		}
	}
}

// TestContentNeverWidensACard: at every lane width drawn, a card with long and
// wide text keeps every line exactly as wide as the card.
func TestContentNeverWidensACard(t *testing.T) {
	l := newLook(true, false)
	b := newBoard()
	b.set(deriveAll(nil, contentFixture(), fixedNow), fixedNow, "", false, true)
	for _, it := range b.items {
		for w := minDrawW; w <= 90; w++ {
			c := renderCard(l, &it, w, false, fixedNow, 0)
			for i, line := range c {
				if got := ansi.StringWidth(line); got != w {
					t.Fatalf("%s at %d cells: line %d is %d wide: %q", it.Rec.Name, w, i, got, ansi.Strip(line))
				}
			}
			if got := ansi.StringWidth(idleRow(l, &it, w, false, fixedNow, 0)); got != w && w >= 20 {
				t.Fatalf("%s's idle row at %d cells is %d wide", it.Rec.Name, w, got)
			}
		}
	}
}

// TestHelpLegendFits: the legend, content cues included, shows whole on
// the second page at 80×24, and on the one page of a terminal tall enough
// for both.
func TestHelpLegendFits(t *testing.T) {
	for _, sz := range []struct {
		w, h  int
		pages []string
	}{{80, 24, []string{"?", "tab"}}, {80, 34, []string{"?"}}, {200, 50, []string{"?"}}} {
		m := press(loaded(fixture(), ThemeLight, sz.w, sz.h), sz.pages...)
		box := m.top().view(&m)
		if n := strings.Count(box, "\n") + 1; n > sz.h {
			t.Errorf("%dx%d: the help box is %d lines, taller than the terminal", sz.w, sz.h, n)
		}
		out := m.View().Content
		checkFrame(t, out, sz.w, sz.h)
		v := ansi.Strip(out)
		for _, want := range []string{"Statuses", "◆ Needs input", "Says", "▸ tool running", "≡ in a menu", "⟲ retrying", "∅ muted", "? question or permission", "“…” last message", "↑ commits ahead", "± files changed", "close", "┗━━"} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: the legend page lacks %q:\n%s", sz.w, sz.h, want, v)
			}
		}
	}
}

// An idle row shows a short last message whole where it fits, though less
// room than a long one needs; a muted session keeps its ∅ there and in the
// sidebar.
func TestIdleRowShortMessageAndMute(t *testing.T) {
	l := newLook(true, false)
	r := rec("i1000001", "real2", state.ActivityIdle, time.Minute)
	r.Activity.LastMessage, r.Muted = "ok2", true
	it := &item{Derived: state.DeriveAt(r, fixedNow)}
	it.say, it.says = state.Says(r)
	row := ansi.Strip(idleRow(l, it, 22, false, fixedNow, 0))
	if !strings.Contains(row, "“ok2”") || !strings.Contains(row, theme.Muted.Glyph) || width(row) != 22 {
		t.Errorf("idle row %q (%d cells), want the message whole and the mute in 22 cells", row, width(row))
	}
	var s sidebar
	s.setRecords(deriveAll(nil, []*state.Record{r}, fixedNow))
	if side := ansi.Strip(strings.Join(s.render(l, 4, "", fixedNow, 0), "\n")); !strings.Contains(side, "real2 "+theme.Muted.Glyph) {
		t.Errorf("sidebar:\n%s\nwant the mute beside the name", side)
	}
}

// An idle row names the branch and how it stands against its base: the
// counts stay whole and the branch is cut first; with no room for both,
// neither shows, and the row keeps its width.
func TestIdleRowBranchAndCounts(t *testing.T) {
	l := newLook(true, false)
	r := rec("i1000002", "wt", state.ActivityIdle, time.Minute)
	r.Branch = "feature/from-agent"
	r.Git = state.GitFacts{Ahead: 1, Behind: 0, Changed: 2, ReadAt: fixedNow}
	it := &item{Derived: state.DeriveAt(r, fixedNow)}
	for _, tc := range []struct {
		w    int
		want string
	}{{60, "wt  feature/from-agent ↑1 ±2"}, {26, "wt  feature… ↑1 ±2"}, {16, "wt"}} {
		row := ansi.Strip(idleRow(l, it, tc.w, false, fixedNow, 0))
		if !strings.Contains(row, tc.want) || width(row) != tc.w {
			t.Errorf("at %d cells the idle row is %q (%d cells), want %q in it", tc.w, row, width(row), tc.want)
		}
		if tc.w == 16 && strings.Contains(row, "↑") {
			t.Errorf("at 16 cells the idle row %q shows counts without room for them", row)
		}
	}
}

// A card's third line keeps the counts and PR numbers whole: the branch is
// cut first, then left out.
func TestMetaKeepsThePRNumber(t *testing.T) {
	r := rec("i1000003", "fix", state.ActivityIdle, time.Minute)
	r.Agent, r.Branch = state.AgentCustom, "fix/login-page-redirect"
	r.Git = state.GitFacts{Ahead: 2, ReadAt: fixedNow}
	r.PRs = []state.PR{{Number: 41, State: state.PRStateOpen}}
	for room := 14; room <= 40; room++ {
		got := metaIn(r, room)
		if !strings.HasSuffix(got, "↑2 #41") || width(got) > room {
			t.Errorf("in %d cells: %q (%d cells), want it to end ↑2 #41 and fit", room, got, width(got))
		}
	}
}
