package tui

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lanes/state"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// probe runs the board under teatest and keeps its latest view, so a flow
// waits on what the board shows rather than on the renderer's diff stream.
type probe struct {
	Model
	last *atomic.Pointer[string]
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := p.Model.Update(msg)
	p.Model = next.(Model)
	s := ansi.Strip(p.Model.View().Content)
	p.last.Store(&s)
	return p, cmd
}

type flow struct {
	t      *testing.T
	tm     *teatest.TestModel
	last   *atomic.Pointer[string]
	acts   *fakeActions
	cycler *fakeCycler
}

func startFlow(t *testing.T, w, h int) *flow {
	t.Helper()
	return startFlowOn(t, w, h, fixture())
}

// startFlowOn runs the board on recs, which must hold ui-polish.
func startFlowOn(t *testing.T, w, h int, recs []*state.Record) *flow {
	t.Helper()
	acts := &fakeActions{}
	cyc := &fakeCycler{recs: recs}
	m := New(context.Background(), Options{
		Collector: cyc, Actions: acts, Theme: ThemeDark,
		Now: func() time.Time { return fixedNow }, Dir: "/src",
	}, nil)
	f := &flow{t: t, last: &atomic.Pointer[string]{}, acts: acts, cycler: cyc}
	f.tm = teatest.NewTestModel(t, probe{m, f.last}, teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() { _ = f.tm.Quit() })
	f.wait("the first cycle", func(v string) bool { return strings.Contains(v, "ui-polish") })
	return f
}

// wait polls the latest view until cond holds, failing after a deadline.
func (f *flow) wait(what string, cond func(view string) bool) {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if v := f.last.Load(); v != nil && cond(*v) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	v := f.last.Load()
	if v == nil {
		f.t.Fatalf("waiting for %s: nothing drawn", what)
	}
	f.t.Fatalf("waiting for %s; the board shows:\n%s", what, *v)
}

func (f *flow) waitText(s string) {
	f.t.Helper()
	f.wait(strings.TrimSpace(s), func(v string) bool { return strings.Contains(v, s) })
}

func (f *flow) keys(keys ...string) {
	for _, k := range keys {
		f.tm.Send(keyMsg(k))
	}
}

// final quits and returns the model as it ended.
func (f *flow) final() Model {
	f.t.Helper()
	f.keys("ctrl+c")
	return f.tm.FinalModel(f.t, teatest.WithFinalTimeout(5*time.Second)).(probe).Model
}

// selectedName is the name on the thick-framed card or the marked row.
func selectedName(m Model) string {
	if sel := m.board.selected(); sel != nil {
		return sel.Rec.Name
	}
	return ""
}

func TestFlowNavigation(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.waitText("┃ ● api")
	f.keys("j") // api → ui-polish
	f.waitText("┃ ● ui-polish")
	f.keys("l") // Needs you, the card at the same height: flaky
	f.waitText("┃ ○ flaky")
	f.keys("k", "right", "right") // refactor, then In review, then Ready to merge
	f.waitText("┃ ○ approve")
	f.keys("left", "h", "h", "j", "j", "j") // back to Working; past the cards into the idle stack
	f.wait("the idle stack selected", func(v string) bool { return strings.Contains(v, "▌ ○ lint") })
	f.keys("up") // idle header
	f.waitText("▌ ○ Idle · 2")
	f.keys("enter") // closes the stack
	f.wait("the idle stack closed", func(v string) bool {
		return strings.Contains(v, "○ Idle · 2") && strings.Contains(v, "▸") && !strings.Contains(v, "○ lint ‖")
	})
	if got := selectedName(f.final()); got != "" {
		t.Errorf("selection on the idle header, selected() = %q, want none", got)
	}
}

func TestFlowFilter(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("/")
	f.tm.Type("codex")
	// The lanes show what matches; the title still counts every session
	// (where one looks for "does anything need me").
	f.wait("the lanes filtered, the title's counts whole", func(v string) bool {
		return strings.Contains(v, "◆ Needs you 1") && strings.Contains(v, "┃ ■ oom") && strings.Contains(v, "◆ 10 needs you")
	})
	f.keys("enter") // keep the filter; keys act on the board again
	f.waitText("esc clears")
	f.keys("esc")
	f.waitText("◆ 10 needs you")
	m := f.final()
	if m.filter != "" || len(m.board.items) != len(fixture())-1 {
		t.Errorf("after esc: filter %q, %d items; want none and every recent session", m.filter, len(m.board.items))
	}
}

func TestFlowNewSessionValidation(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("n")
	f.waitText("New session")
	f.tm.Type("bad.name")
	f.waitText(`invalid character "."`)
	f.keys("enter")
	f.waitText(`invalid character "."`) // refused: the dialog stays
	f.keys("backspace", "backspace", "backspace", "backspace", "backspace")
	f.tm.Type("-x")
	f.wait("the error gone", func(v string) bool { return !strings.Contains(v, "invalid character") })
	f.keys("tab", "right") // agent: claude → codex
	f.waitText("‹ codex ›")
	f.keys("enter")
	f.waitText("started bad-x")
	m := f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"create bad-x codex /src"}) {
		t.Errorf("actions = %q, want one create of bad-x", got)
	}
	if m.top() != nil {
		t.Errorf("mode after create = %d, want the board", m.top())
	}
}

// TestFlowNewCustomSession: a custom agent's arguments are its command,
// split as a shell would split them, and it needs one.
func TestFlowNewCustomSession(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("n")
	f.waitText("New session")
	f.tm.Type("build")
	f.keys("tab", "left") // agent: claude → custom, the last choice
	f.waitText("‹ custom ›")
	f.keys("enter")
	f.waitText("a custom agent needs the command to run")
	f.tm.Type(`sh -c 'echo "hi there"; sleep 9`)
	f.keys("enter")
	f.waitText("unclosed ' quote")
	f.tm.Type(`'`)
	f.keys("enter")
	f.waitText("started build")
	want := []string{`create build custom /src |sh |-c |echo "hi there"; sleep 9`}
	if got := f.acts.called(); !slices.Equal(got, want) {
		t.Errorf("actions = %q, want %q", got, want)
	}
}

// TestFlowNewWorktreeSession: the dialog's worktree line, switched with
// ←/→, names the branch the session gets and asks for a worktree.
func TestFlowNewWorktreeSession(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("n")
	f.waitText("New session")
	f.waitText("worktree ‹ no ›")
	f.tm.Type("ui")
	f.keys("tab", "tab", "tab", "right") // name → agent → dir → worktree: yes
	f.waitText("worktree ‹ yes: lanes/ui ›")
	f.keys("enter")
	f.waitText("started ui")
	if got, want := f.acts.called(), []string{"create ui claude /src worktree"}; !slices.Equal(got, want) {
		t.Errorf("actions = %q, want %q", got, want)
	}
}

func TestFlowNewSessionFailureStaysInDialog(t *testing.T) {
	f := startFlow(t, 80, 24)
	f.keys("n")
	f.waitText("New session")
	f.keys("enter")
	f.waitText("a name is required")
	f.tm.Type("taken")
	f.keys("enter")
	f.waitText(`live session named "taken"`)
	f.keys("esc")
	f.wait("the dialog closed", func(v string) bool { return !strings.Contains(v, "New session") })
}

func TestFlowKillConfirmation(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("x")
	f.waitText("Kill api?")
	f.keys("n")
	f.wait("the question gone", func(v string) bool { return !strings.Contains(v, "Kill api?") })
	if got := f.acts.called(); len(got) != 0 {
		t.Fatalf("actions after n = %q, want none", got)
	}
	f.keys("x")
	f.waitText("Kill api?")
	f.keys("y")
	f.waitText("killed api")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"kill api"}) {
		t.Errorf("actions = %q, want one kill of api", got)
	}
}

func TestFlowRefusedSendOnExitedAgent(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("l", "j", "j", "j", "j", "j") // Needs you, by urgency: refactor, flaky, quiet, oom, web, then crash, exited (3)
	f.waitText("┃ ■ crash")
	f.keys("s")
	f.waitText("can't send to crash: agent exited — its pane is dead (exit 3); restart it with `lanes restart crash`")
	m := f.final()
	if m.top() != nil {
		t.Errorf("a refused send opened a dialog (mode %T)", m.top())
	}
	if got := f.acts.called(); len(got) != 0 {
		t.Errorf("actions = %q, want none", got)
	}
}

func TestFlowSendToLiveAgent(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("s")
	f.waitText("Send to api")
	f.tm.Type("run the tests")
	f.keys("enter")
	f.waitText("sent to api")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"send api run the tests"}) {
		t.Errorf("actions = %q", got)
	}
}

func TestFlowRestartAndRemove(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.keys("d") // api is live: remove refuses
	f.waitText("api is live; kill it (x) before removing it")
	f.keys("r")
	f.waitText("Restart api?")
	f.keys("y")
	f.waitText("restarted api")
	f.keys("l", "l", "l", "l") // Done: shipped
	f.waitText("┃ shipped")
	f.keys("r")
	f.waitText("shipped is terminated; restart needs a live session")
	f.keys("d") // its PR merged: the one step of cleaning up
	f.waitText("Clean up shipped?")
	f.keys("y")
	f.waitText("removed shipped (its PR merged)")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"restart api", "clean up shipped"}) {
		t.Errorf("actions = %q", got)
	}
}

// d on a card whose PR merged while its agent runs cleans it up in one
// step: it says the agent ends and the worktree goes when clean.
func TestFlowCleanUpMerged(t *testing.T) {
	recs := fixture()
	for _, r := range recs {
		if r.Name == "landed" {
			r.Git.Worktree = "/src/app.lanes/landed"
		}
	}
	f := startFlowOn(t, 160, 48, recs)
	f.keys("/")
	f.tm.Type("landed")
	f.keys("enter", "d")
	f.waitText("Clean up landed?")
	f.waitText("its agent and tmux session end")
	f.waitText("/src/app.lanes/landed goes too")
	f.keys("y")
	f.waitText("removed landed (its PR merged)")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"clean up landed"}) {
		t.Errorf("actions = %q", got)
	}
}

// TestFlowHelpPages: where keys and legend do not fit together (80×24),
// tab turns between them; on a tall terminal they share one page.
func TestFlowHelpPages(t *testing.T) {
	f := startFlow(t, 80, 24)
	f.keys("?")
	f.waitText("tab: page 1 of 2")
	if v := *f.last.Load(); strings.Contains(v, "Needs input") {
		t.Errorf("the keys page shows the legend too:\n%s", v)
	}
	f.keys("tab")
	f.waitText("Needs input")
	f.waitText("tab: page 2 of 2")
	f.keys("tab")
	f.waitText("tab: page 1 of 2")
	f.keys("x") // any other key closes, and does nothing else
	f.wait("help closed", func(v string) bool { return !strings.Contains(v, "other keys close") })
	if got := f.acts.called(); len(got) != 0 {
		t.Errorf("closing help ran %q", got)
	}

	tall := startFlow(t, 160, 48)
	tall.keys("?")
	tall.waitText("any key closes")
	if v := *tall.last.Load(); !strings.Contains(v, "Needs input") || !strings.Contains(v, "lane left") {
		t.Errorf("a tall terminal should show keys and legend together:\n%s", v)
	}
}
