package tui

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/internal/remote"
	"lanes/internal/shell"
	"lanes/state"
	"lanes/state/store"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// fakeRemote is another host as the board sees it: the Status values a
// test sends, and the `lanes …` it was asked to run there.
type fakeRemote struct {
	ch   chan remote.Status
	mu   sync.Mutex
	runs []string
}

func newFakeRemote() *fakeRemote { return &fakeRemote{ch: make(chan remote.Status, 8)} }

func (f *fakeRemote) Watch(context.Context, []remote.Host) <-chan remote.Status { return f.ch }

// Run notes "DEST: ARGS… <STDIN" (the arguments one word each, quoted).
func (f *fakeRemote) Run(_ context.Context, h remote.Host, stdin io.Reader, args ...string) ([]byte, error) {
	line := h.Dest + ":"
	for _, a := range args {
		line += " " + shell.Quote(a)
	}
	if stdin != nil {
		b, _ := io.ReadAll(stdin)
		line += " <" + string(b)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs = append(f.runs, line)
	return nil, nil
}

func (f *fakeRemote) Attach(h remote.Host, socket, session string) []string {
	return remote.SSH{Program: "true"}.Attach(h, socket, session)
}

func (f *fakeRemote) ran() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.runs)
}

var twoHosts = []remote.Host{{Name: "build", Dest: "me@build.box"}, {Name: "gpu", Dest: "gpu.lan"}}

// listed is recs as their host's `lanes ls --json` lists them.
func listed(recs ...*state.Record) []listing.Session {
	var out []listing.Session
	for _, r := range recs {
		out = append(out, listing.From(state.DeriveAt(r, fixedNow), true))
	}
	return out
}

// buildUp is build answering, with a working, a waiting and an ended
// session; gpuDown is gpu heard once, then lost two minutes ago.
func buildUp() remote.Status {
	w := rec("b2000001", "train", state.ActivityActive, 3*time.Minute)
	w.Branch = "exp-lr"
	return remote.Status{Host: "build", Up: true, Heard: true, Since: ago(time.Hour), Sessions: listed(
		w, rec("b2000002", "deploy", state.ActivityWaitingInput, 30*time.Second),
		terminated(rec("b2000003", "bench", state.ActivityIdle, time.Hour), "killed by user", 2*time.Hour))}
}

func gpuDown() remote.Status {
	return remote.Status{Host: "gpu", Up: false, Heard: true, Since: ago(2 * time.Minute),
		Err: "ssh: connect to host gpu.lan port 22: Connection refused", Sessions: listed(
			rec("c2000001", "cuda", state.ActivityActive, 10*time.Minute),
			rec("c2000002", "tune", state.ActivityIdle, 20*time.Minute))}
}

// withHosts is a loaded board of this host's recs that mirrors hosts,
// given statuses as they arrive.
func withHosts(recs []*state.Record, th string, w, h int, hosts []remote.Host, sts ...remote.Status) (Model, *fakeActions) {
	acts := &fakeActions{}
	m := New(context.Background(), Options{
		Collector: &fakeCycler{recs: recs}, Actions: acts, Theme: th, Dir: "/src",
		Now: func() time.Time { return fixedNow }, Hosts: hosts, Remote: newFakeRemote(),
	}, nil)
	m = step(m, tea.WindowSizeMsg{Width: w, Height: h})
	m = step(m, cycleMsg{res: store.CycleResult{Records: recs, At: fixedNow}, now: fixedNow})
	for _, st := range sts {
		m = step(m, hostMsg{st: st})
	}
	return m, acts
}

// shown is each session on the board as host/name, with its marks.
func shown(m Model) []string {
	var out []string
	for _, it := range m.board.items {
		s := it.Host + "/" + it.Rec.Name
		for _, mk := range it.D.Marks {
			s += " " + string(mk)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestRemoteCardsCarryTheirHost(t *testing.T) {
	m, _ := withHosts(emptyLaneFixture(), ThemeDark, 140, 40, twoHosts, buildUp())
	want := []string{"/api", "/docs", "/old", "/ship", "/web", "build/bench", "build/deploy", "build/train"}
	if got := shown(m); !slices.Equal(got, want) {
		t.Errorf("board shows %v, want %v", got, want)
	}
	v := ansi.Strip(m.View().Content)
	for _, s := range []string{"● train", "@build", "connecting to gpu…"} {
		if !strings.Contains(v, s) {
			t.Errorf("board lacks %q:\n%s", s, v)
		}
	}
	for _, it := range m.board.items {
		card := renderCard(m.look, &it, 26, false, fixedNow, 0)
		if tagged := strings.Contains(ansi.Strip(card[1]), "@build"); tagged != (it.Host == "build") {
			t.Errorf("%s of host %q: card line %q", it.Rec.Name, it.Host, ansi.Strip(card[1]))
		}
	}
	// What the host derived is what shows: the waiting session is in
	// Needs you there, so here.
	for _, it := range m.board.items {
		if it.Rec.Name == "deploy" && it.D.Zone != state.ZoneNeedsYou {
			t.Errorf("deploy is in %s, want the host's own Needs you", it.D.Zone)
		}
	}
}

func TestHostDownKeepsItsCardsUnreachable(t *testing.T) {
	st := gpuDown()
	st.Up, st.Err = true, ""
	m, _ := withHosts(nil, ThemeDark, 140, 40, twoHosts[1:], st)
	if got, want := shown(m), []string{"gpu/cuda", "gpu/tune"}; !slices.Equal(got, want) {
		t.Fatalf("gpu up: board shows %v, want %v", got, want)
	}
	m = step(m, hostMsg{st: gpuDown()})
	if got, want := shown(m), []string{"gpu/cuda unreachable", "gpu/tune unreachable"}; !slices.Equal(got, want) {
		t.Errorf("gpu down: board shows %v, want %v", got, want)
	}
	for _, it := range m.board.items {
		if !it.Rec.Live() || it.D.Zone == state.ZoneDone {
			t.Errorf("%s ended with its host's link: %s", it.Rec.Name, it.D.Zone)
		}
	}
	title := ansi.Strip(m.titleLine())
	if !strings.Contains(title, "gpu unreachable since 16:58 — ssh: connect to host gpu.lan port 22: Connection refused") {
		t.Errorf("title does not say which host is down, since when and why: %q", title)
	}
	for _, k := range []string{"x", "enter", "s"} {
		m = press(m, k)
		if !strings.Contains(m.status.text, "gpu unreachable since 16:58") || m.top() != nil || width(m.status.text) > 78 {
			t.Errorf("%s on a down host: %q (mode %T), want a refusal naming the host that fits 80 columns", k, m.status.text, m.top())
		}
	}
}

func TestHostNeverHeardShowsConnecting(t *testing.T) {
	m, _ := withHosts(emptyLaneFixture(), ThemeDark, 140, 40, twoHosts)
	if got := len(m.board.items); got != 5 {
		t.Errorf("%d cards before any host answered, want this host's 5", got)
	}
	if title := ansi.Strip(m.titleLine()); !strings.Contains(title, "connecting to build, gpu…") || strings.Contains(title, "✗") {
		t.Errorf("title %q does not say the board is connecting", title)
	}
	// Its first try failed: gpu is failing, with its reason, as one that
	// went down is; build is still connecting.
	m = step(m, hostMsg{st: remote.Status{Host: "gpu", Since: fixedNow, Err: "ssh: Could not resolve hostname gpu.lan",
		Next: fixedNow.Add(8 * time.Second)}})
	title := ansi.Strip(m.titleLine())
	if want := "✗ gpu (retrying in 8s): ssh: Could not resolve hostname gpu.lan · connecting to build…"; !strings.Contains(title, want) {
		t.Errorf("title %q, want it to say %q", title, want)
	}
}

// Every failing host is named with its own reason; when they do not fit,
// the count and the first, and @ on a host shows that host's in full.
func TestEveryFailingHostSaysWhy(t *testing.T) {
	build := remote.Status{Host: "build", Since: fixedNow, Next: fixedNow.Add(2 * time.Second),
		Err: "lanes is not on build's PATH for ssh commands (bash: line 1: lanes: command not found): install it there"}
	gpu := gpuDown()
	gpu.Since = fixedNow.Add(-26 * time.Hour) // yesterday: the date too
	m, _ := withHosts(emptyLaneFixture(), ThemeDark, 300, 40, twoHosts, build, gpu)
	title := ansi.Strip(m.titleLine())
	for _, want := range []string{
		"✗ build (retrying in 2s): lanes is not on build's PATH for ssh commands",
		" · gpu unreachable since Nov 28 15:00 — ssh: connect to host gpu.lan port 22: Connection refused",
	} {
		if !strings.Contains(title, want) {
			t.Errorf("title %q does not say %q", title, want)
		}
	}
	m = step(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if title := ansi.Strip(m.titleLine()); !strings.Contains(title, "✗ 2 hosts down (@ shows each): build (retrying") {
		t.Errorf("80 columns: %q, want the count and the first", title)
	}
	m = step(press(m, "@", "@", "@"), tea.WindowSizeMsg{Width: 140, Height: 40}) // this host, build, gpu
	if title := ansi.Strip(m.titleLine()); !strings.Contains(title, "✗ gpu unreachable since Nov 28 15:00 — ssh: connect to host gpu.lan port 22: Connection refused") {
		t.Errorf("@ host gpu: %q, want gpu's own reason", title)
	}
}

func TestHostFilterCycles(t *testing.T) {
	m, _ := withHosts(emptyLaneFixture(), ThemeDark, 140, 40, twoHosts, buildUp(), gpuDown())
	hostsOf := func(m Model) string {
		seen := map[string]bool{}
		for _, it := range m.board.items {
			seen[cmp(it.Host, "this")] = true
		}
		var out []string
		for h := range seen {
			out = append(out, h)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	for i, want := range []struct{ hosts, label string }{
		{"build,gpu,this", ""}, {"this", "@ this host"}, {"build", "@ host build"}, {"gpu", "@ host gpu"}, {"build,gpu,this", ""},
	} {
		if i > 0 {
			m = press(m, "@")
		}
		title := ansi.Strip(m.titleLine())
		if got := hostsOf(m); got != want.hosts || want.label != "" && !strings.Contains(title, want.label) {
			t.Errorf("after %d @: hosts %s, title %q; want %s, %q", i, got, title, want.hosts, want.label)
		}
		if want.label == "" && strings.Contains(title, "@ ") {
			t.Errorf("after %d @: title %q names a host filter", i, title)
		}
	}
	m = press(m, "?")
	if help := ansi.Strip(m.View().Content); !strings.Contains(help, "@ host filter") {
		t.Errorf("help does not say the host key:\n%s", help)
	}
	// At 80×24 the host key leaves every key beside its words.
	m = step(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if help := ansi.Strip(m.View().Content); !strings.Contains(help, "esc clear filter") || !strings.Contains(help, "@ host filter") {
		t.Errorf("help at 80×24 with hosts wraps a key from its words:\n%s", help)
	}
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func TestNoHostsNoHostKey(t *testing.T) {
	m := loaded(emptyLaneFixture(), ThemeDark, 140, 40)
	if m.hostCh != nil || m.hosts != nil {
		t.Fatal("a board without hosts watches some")
	}
	if help := ansi.Strip(press(m, "?").View().Content); strings.Contains(help, "hosts:") {
		t.Errorf("help names a host filter with no hosts")
	}
	if m = press(m, "@"); !strings.Contains(m.status.text, "no other hosts") {
		t.Errorf("@ without hosts: %q", m.status.text)
	}
}

// TestGoldenHosts renders a board of this host and two others, one up
// and one down, for dark × light at 140×40 and 80×24.
func TestGoldenHosts(t *testing.T) {
	for _, th := range []string{ThemeDark, ThemeLight} {
		for _, sz := range []struct{ w, h int }{{140, 40}, {80, 24}} {
			t.Run(fmt.Sprintf("%s/%dx%d", th, sz.w, sz.h), func(t *testing.T) {
				m, _ := withHosts(emptyLaneFixture(), th, sz.w, sz.h, twoHosts, buildUp(), gpuDown())
				out := m.View().Content
				checkFrame(t, out, sz.w, sz.h)
				golden.RequireEqual(t, out)
			})
		}
	}
}

// Lines of the hosts file the board skipped are said once as it starts.
func TestBoardSaysItsWarningOnce(t *testing.T) {
	m := New(context.Background(), Options{Collector: &fakeCycler{}, Actions: &fakeActions{}, Theme: ThemeDark,
		Now: func() time.Time { return fixedNow }, Warning: "skipped bad line 3 of hosts: see lanes doctor"}, nil)
	m = step(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if !strings.Contains(ansi.Strip(m.View().Content), "✗ skipped bad line 3 of hosts: see lanes doctor") {
		t.Errorf("the warning is not on the board:\n%s", ansi.Strip(m.View().Content))
	}
}

// In the idle stack a card of a host that is down keeps its host tag
// beside its mark: the mark's label goes first when room is short.
func TestIdleRowKeepsTheHostOfADownCard(t *testing.T) {
	m, _ := withHosts(nil, ThemeDark, 140, 40, twoHosts[1:], gpuDown())
	var it *item
	for i := range m.board.items {
		if m.board.items[i].Rec.Name == "tune" {
			it = &m.board.items[i]
		}
	}
	if it == nil {
		t.Fatal("no tune card")
	}
	for w := 26; w <= 60; w++ {
		row := ansi.Strip(idleRow(m.look, it, w, false, fixedNow, 0))
		if !strings.Contains(row, "@gpu") || !strings.Contains(row, "↯") {
			t.Errorf("%d cells: %q, want the host tag and the mark", w, row)
		}
	}
}

// A session started on another host from the board is selected when the
// host's stream brings its card, though this host's cycles run meanwhile.
func TestNewRemoteSessionIsSelected(t *testing.T) {
	m, _ := withHosts(emptyLaneFixture(), ThemeDark, 140, 40, twoHosts, buildUp())
	m = step(m, createdMsg{name: "eval", host: "build"})
	m = step(m, cycleMsg{res: store.CycleResult{Records: emptyLaneFixture(), At: fixedNow}, now: fixedNow})
	if sel := m.board.selected(); sel != nil && sel.Rec.Name == "eval" {
		t.Fatal("eval selected before its host said it exists")
	}
	st := buildUp()
	st.Sessions = append(st.Sessions, listed(rec("b2000009", "eval", state.ActivityActive, time.Second))...)
	m = step(m, hostMsg{st: st})
	if sel := m.board.selected(); sel == nil || sel.Host != "build" || sel.Rec.Name != "eval" {
		t.Errorf("selected %+v, want build's eval", sel)
	}
	if m.pending.name != "" {
		t.Errorf("still waiting for %q", m.pending.name)
	}
}

// A host that lists more sessions than the board mirrors says so on the
// title line (issue 30, item 8).
func TestHostOverTheBoundSaysSo(t *testing.T) {
	m, _ := withHosts(emptyLaneFixture(), ThemeDark, 160, 40, twoHosts)
	m = step(m, hostMsg{st: remote.Status{Host: "gpu", Since: fixedNow, Up: true, Heard: true, Over: 28000}})
	if title := ansi.Strip(m.titleLine()); !strings.Contains(title, "gpu lists 28000 sessions more than the 2000 shown") {
		t.Errorf("title %q does not say gpu's sessions past the bound", title)
	}
}

// On a narrow board the top line cuts a down host's reason; the card's
// preview says it whole.
func TestDownHostsPreviewSaysWhy(t *testing.T) {
	m, _ := withHosts(nil, ThemeDark, 45, 20, twoHosts[1:], gpuDown())
	m, msgs := run(t, m, keyMsg("p"))
	for _, msg := range msgs {
		m = step(m, msg)
	}
	screen := ansi.Strip(m.render())
	joined := strings.Join(strings.Fields(screen), " ")
	if !strings.Contains(joined, "gpu unreachable since 16:58") || !strings.Contains(joined, "Connection refused; try when it answers") {
		t.Errorf("the preview of a down host's card does not say why in full:\n%s", screen)
	}
}
