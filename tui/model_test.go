package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestEverySessionSitsInDerivesLane(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	seen := 0
	for _, ln := range m.board.lanes {
		for _, it := range append(slices.Clone(ln.cards), ln.extra...) {
			seen++
			if d := state.Derive(it.Rec, fixedNow); d.Zone != ln.zone {
				t.Errorf("%s is in %s, Derive says %s", it.Rec.Name, ln.zone, d.Zone)
			}
		}
	}
	if want := len(fixture()) - 1; seen != want { // ancient ended 3 days ago
		t.Errorf("board shows %d sessions, want %d", seen, want)
	}
	statuses := map[state.Status]bool{}
	for _, it := range m.board.items {
		statuses[it.D.Status] = true
	}
	for _, s := range state.Statuses {
		if !statuses[s] {
			t.Errorf("the fixture never shows status %s", s)
		}
	}
}

func TestDoneShowsLastDayUnlessAll(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	has := func(m Model, name string) bool {
		return slices.ContainsFunc(m.board.items, func(it item) bool { return it.Rec.Name == name })
	}
	if has(m, "ancient") {
		t.Error("a session terminated 3 days ago is on the board by default")
	}
	m = press(m, "a")
	if !has(m, "ancient") {
		t.Error("`a` did not bring back a session terminated 3 days ago")
	}
}

func TestIdleStackCollapsesWhenShort(t *testing.T) {
	var recs []*state.Record
	for _, n := range []string{"a1", "a2", "a3"} {
		recs = append(recs, rec(n+"000000", n, state.ActivityActive, time.Minute))
	}
	for _, n := range []string{"i1", "i2", "i3"} {
		recs = append(recs, rec(n+"000000", n, state.ActivityIdle, time.Minute))
	}
	m := loaded(recs, ThemeDark, 80, 24) // 21 rows: 3 cards leave 3, the stack needs 4
	if m.board.idleOpen() {
		t.Fatal("the idle stack is open though its entries do not fit")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "○ Idle · 3") || !strings.Contains(v, "▸") {
		t.Fatalf("collapsed stack not shown as Idle · 3 ▸:\n%s", v)
	}
	m = press(m, "i")
	if !m.board.idleOpen() {
		t.Fatal("`i` did not open the idle stack")
	}
	m = loaded(recs, ThemeDark, 160, 48)
	if !m.board.idleOpen() {
		t.Error("the idle stack is closed though it fits")
	}
}

func TestSelectionFollowsTheCardAcrossLanes(t *testing.T) {
	recs := fixture()
	m := loaded(recs, ThemeDark, 160, 48)
	m = press(m, "l")
	for i := 0; i < 20 && selectedName(m) != "web"; i++ {
		m = press(m, "j") // down Needs you to web
	}
	if got := selectedName(m); got != "web" {
		t.Fatalf("selected %q, want web", got)
	}
	next := slices.Clone(recs)
	for i, r := range next {
		if r.Name == "web" {
			c := *r
			c.Activity.State = state.ActivityActive
			next[i] = &c
		}
	}
	m = cycled(m, next, nil)
	if got := selectedName(m); got != "web" || m.board.lanes[m.board.lane].zone != state.ZoneWorking {
		t.Errorf("after web turned active: selected %q in %s, want web in working", got, m.board.lanes[m.board.lane].zone)
	}
}

// Space walks the cards that need you, in their lane's order, from any
// lane, back to the first after the last (lanes next on the board).
func TestSpaceWalksWhatNeedsYou(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	var want []string
	for _, r := range m.board.lanes[slices.IndexFunc(m.board.lanes, func(l lane) bool { return l.zone == state.ZoneNeedsYou })].rows {
		if r.it != nil {
			want = append(want, r.it.Rec.Name)
		}
	}
	if len(want) < 2 {
		t.Fatalf("the fixture's Needs you holds %v", want)
	}
	var got []string
	for range len(want) + 1 {
		m = press(m, "space")
		got = append(got, selectedName(m))
	}
	if !slices.Equal(got, append(slices.Clone(want), want[0])) {
		t.Errorf("space selected %v, want %v then %s again", got, want, want[0])
	}
	if m.board.lanes[m.board.lane].zone != state.ZoneNeedsYou {
		t.Errorf("space left the selection in %s", m.board.lanes[m.board.lane].zone)
	}
}

func TestNoColor(t *testing.T) {
	m := New(context.Background(), Options{Collector: &fakeCycler{}, Actions: &fakeActions{}, Theme: ThemeDark,
		NoColor: true, Now: func() time.Time { return fixedNow }}, nil)
	m = step(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m = cycled(m, fixture(), nil)
	v := m.View().Content
	for _, sgr := range []string{"38;2;", "48;2;", "38;5;", "48;5;"} {
		if strings.Contains(v, sgr) {
			t.Fatalf("NO_COLOR view carries colour %q", sgr)
		}
	}
	for _, want := range []string{"┏", "■ exited (3)", "✗ CI failed", "↯ unreachable", "□ Terminated"} {
		if !strings.Contains(ansi.Strip(v), want) {
			t.Errorf("NO_COLOR view lacks %q", want)
		}
	}
}

// TestEverySizeFits draws every mode at every size from tiny to 250 wide:
// never more lines than the terminal, never a line wider than it.
func TestEverySizeFits(t *testing.T) {
	base := loaded(fixture(), ThemeDark, 80, 24)
	modes := map[string]func(Model) Model{
		"board":   func(m Model) Model { return m },
		"preview": func(m Model) Model { return press(m, "p") },
		"history": func(m Model) Model { return press(m, "H") },
		"new":     func(m Model) Model { return press(m, "n") },
		"help":    func(m Model) Model { return press(m, "?") },
		"kill":    func(m Model) Model { return press(m, "x") },
		"filter":  func(m Model) Model { return press(m, "/", "a") },
		"stale":   func(m Model) Model { return step(m, cycleMsg{err: errDamaged, now: fixedNow}) },
		"unread": func(Model) Model {
			return step(loaded(nil, ThemeDark, 80, 24), cycleMsg{err: errDamaged, now: fixedNow})
		},
		"stale help": func(m Model) Model { return press(step(m, cycleMsg{err: errDamaged, now: fixedNow}), "?") },
	}
	for name, setup := range modes {
		m := setup(base)
		for w := 1; w <= 250; w += 7 {
			for _, h := range []int{1, 3, 8, 24, 50} {
				m = step(m, tea.WindowSizeMsg{Width: w, Height: h})
				out := m.View().Content
				lines := strings.Split(out, "\n")
				if len(lines) > h {
					t.Errorf("%s at %dx%d: %d lines", name, w, h, len(lines))
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Errorf("%s at %dx%d: line %d is %d wide: %q", name, w, h, i, lw, ansi.Strip(l))
						break
					}
				}
			}
		}
	}
}

func TestPreviewKeepsColourAndCutsToWidth(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	m = press(m, "p")
	if m.capturing == "" {
		t.Fatal("opening the preview did not capture the selected pane")
	}
	long := "\x1b[31m" + strings.Repeat("x", 300) + "\x1b[0m"
	m = step(m, previewMsg{id: "a1000001", name: "api", out: []byte("first\n" + long + "\n\n\n")})
	v := m.View().Content
	if !strings.Contains(v, "\x1b[31m") {
		t.Error("the preview dropped the pane's colours")
	}
	checkFrame(t, v, 80, 24)
	if !strings.Contains(ansi.Strip(v), "preview · api") {
		t.Error("the preview does not name its session")
	}
	m = step(m, tickMsg{gen: m.tickGen})
	if m.capturing == "" {
		t.Error("a tick with the preview open did not refresh it")
	}
	m = press(m, "p")
	m.capturing = ""
	if m = step(m, tickMsg{gen: m.tickGen}); m.capturing != "" {
		t.Error("a tick with the preview closed captured")
	}
}

func runCmd(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

// TestHistoryOverlay: H opens the history over the whole width, even at
// 80×24, each transition whole on its line (event and source uncut),
// newest first; j/k scroll a history longer than the screen; esc closes.
func TestHistoryOverlay(t *testing.T) {
	trs := []state.Transition{
		{At: ago(10 * time.Minute), From: state.ActivityIdle, To: state.ActivityActive, Source: "hook:claude", Detail: "UserPromptSubmit"},
		{At: ago(2 * time.Minute), From: state.ActivityActive, To: state.ActivityWaitingInput, Source: "hook:claude", Detail: "PermissionRequest: Bash"},
	}
	for i := range 40 {
		trs = append([]state.Transition{{At: ago(time.Duration(50+i) * time.Hour), From: state.ActivityIdle, To: state.ActivityActive,
			Source: "tmux", Detail: fmt.Sprintf("old-%02d", i)}}, trs...)
	}
	m := loaded(fixture(), ThemeDark, 80, 24)
	m.o.Actions = &fakeActions{hist: trs}
	next, cmd := m.Update(keyMsg("H"))
	m = step(next.(Model), runCmd(cmd))
	out := m.View().Content
	checkFrame(t, out, 80, 24)
	v := ansi.Strip(out)
	for _, want := range []string{"History · api", "2m  ◆ Waiting", "PermissionRequest: Bash", "10m  ● Active", "UserPromptSubmit", "hook:claude", "old-00"} {
		if !strings.Contains(v, want) {
			t.Errorf("the history overlay lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "old-39") {
		t.Errorf("the oldest transition shows before scrolling:\n%s", v)
	}
	for range 45 {
		m = press(m, "j")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "old-39") || strings.Contains(v, "UserPromptSubmit") || !strings.Contains(v, "↑24") {
		t.Errorf("j did not scroll to the oldest transition:\n%s", v)
	}
	m = press(m, "k")
	if m = press(m, "esc"); m.top() != nil {
		t.Errorf("esc left mode %T, want the board", m.top())
	}
	if m = press(m, "H", "q"); m.top() != nil {
		t.Errorf("q in the history left mode %T, want the board (and not quit)", m.top())
	}
}

// TestHistoryIgnoresALateOlderAnswer: the history of an earlier request,
// arriving after the answer to a newer one, does not replace it.
func TestHistoryIgnoresALateOlderAnswer(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	m.o.Actions = &fakeActions{}
	m = press(m, "H")
	id, at := m.hist.id, m.hist.at
	newer := []state.Transition{{At: at, From: state.ActivityIdle, To: state.ActivityWaitingInput, Source: "hook:claude"}}
	older := []state.Transition{{At: at.Add(-time.Hour), From: state.ActivityActive, To: state.ActivityIdle, Source: "hook:claude"}}
	m = step(m, historyMsg{id: id, at: at, trs: newer})
	m = step(m, historyMsg{id: id, at: at.Add(-time.Hour), trs: older})
	if len(m.hist.trs) != 1 || m.hist.trs[0].To != state.ActivityWaitingInput || !m.hist.at.Equal(at) {
		t.Errorf("a late older answer replaced the history: %+v (asked as of %v)", m.hist.trs, m.hist.at)
	}
}

func TestThemeToggle(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	dark := m.View().Content
	if m = press(m, "t"); m.isDark || m.View().Content == dark {
		t.Error("`t` did not switch to the light theme")
	}
	if m = step(m, tea.BackgroundColorMsg{}); m.isDark {
		t.Error("the terminal's answer overrode a theme chosen with `t`")
	}
	auto := New(context.Background(), Options{Collector: &fakeCycler{}, Actions: &fakeActions{}}, nil)
	if !auto.isDark {
		t.Error("auto does not start dark")
	}
	if auto = step(auto, tea.BackgroundColorMsg{Color: lightBG{}}); auto.isDark {
		t.Error("auto ignored a light background")
	}
}

type lightBG struct{}

func (lightBG) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

// TestNewDialogAgent: the dialog starts on the agent the caller found
// installed, then on the last one used.
func TestNewDialogAgent(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	m.o.Agent = state.AgentShell
	m = press(m, "n")
	if got := state.Agents[m.top().(newDialog).agent]; got != state.AgentShell {
		t.Fatalf("the dialog starts on %s, want shell", got)
	}
	m = step(m, submitNewMsg{name: "x", agent: state.AgentCodex, dir: "/tmp"})
	m = step(m, closeDialogMsg{})
	m = press(m, "n")
	if got := state.Agents[m.top().(newDialog).agent]; got != state.AgentCodex {
		t.Fatalf("the next dialog starts on %s, want the last one used (codex)", got)
	}
}

// TestNewSessionIsSelected: a session started from the board is selected
// when its record first arrives.
func TestNewSessionIsSelected(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	m = step(m, createdMsg{name: "fresh"})
	recs := append(fixture(), rec("f1000001", "fresh", state.ActivityActive, time.Second))
	m = step(m, cycleMsg{res: store.CycleResult{Records: recs, At: fixedNow}, now: fixedNow})
	if got := selectedName(m); got != "fresh" {
		t.Errorf("selected %q after the new session arrived, want fresh", got)
	}
	if m.pending.name != "" {
		t.Errorf("still waiting for %q", m.pending.name)
	}
}

// g and G go to a lane's first and last session, PgDn and PgUp a screen
// of them at a time, never past either end.
func TestJumpKeys(t *testing.T) {
	m := loaded(many(120), ThemeDark, 160, 40)
	lane := m.board.lane
	rows := m.board.lanes[lane].rows
	var selectable []int
	for i, r := range rows {
		if r.selectable() {
			selectable = append(selectable, i)
		}
	}
	if len(selectable) < 10 {
		t.Fatalf("lane %d has %d selectable rows; the test wants a long lane", lane, len(selectable))
	}
	first, last := selectable[0], selectable[len(selectable)-1]
	at := func(what string, want int) {
		t.Helper()
		if m.board.lane != lane || m.board.row != want {
			t.Fatalf("after %s: lane %d row %d, want lane %d row %d", what, m.board.lane, m.board.row, lane, want)
		}
		if got := m.board.selKey; got != rows[want].key() {
			t.Fatalf("after %s: selected %q, want %q", what, got, rows[want].key())
		}
	}
	m = press(m, "G")
	at("G", last)
	m = press(m, "g")
	at("g", first)
	page := m.board.page()
	if page < 2 || page >= len(selectable) {
		t.Fatalf("a page is %d of %d rows", page, len(selectable))
	}
	m = press(m, "pgdown")
	at("pgdown", selectable[page])
	m = press(m, "pgup")
	at("pgup", first)
	m = press(m, "pgup")
	at("pgup at the top", first)
	for range len(selectable) {
		m = press(m, "pgdown")
	}
	at("pgdown to the end", last)
}

// An empty board says how to start a session where one looks first; a
// filter that matches nothing does not.
func TestEmptyBoardSaysHowToStart(t *testing.T) {
	v := ansi.Strip(loaded(nil, ThemeDark, 80, 24).View().Content)
	if !strings.Contains(v, "no sessions: press n") {
		t.Errorf("an empty board:\n%s", v)
	}
	m := loaded(fixture(), ThemeDark, 80, 24)
	m.filter = "nothing-matches-this"
	m.rebuild()
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "press n") || !strings.Contains(v, "no sessions") {
		t.Errorf("a filter matching nothing:\n%s", v)
	}
}
