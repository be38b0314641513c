package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"lanes/internal/fsafe"
	"lanes/state"
	"lanes/state/store"

	"github.com/charmbracelet/x/ansi"
)

// errDamaged is a store error as the collector returns it, with the long
// detail bbolt gives that cuts off the advice on a narrow line.
var errDamaged = fmt.Errorf("%w: /tmp/lanes-trial-1234567890/state/lanes.db: assertion failed: Page expected to be: 3, but self identifies as 8927612345; run `lanes doctor --repair` (it keeps the damaged file aside and copies every readable record into a new store)", store.ErrDamaged)

const repairNote = "store damaged — run `lanes doctor --repair`"

func failed(m Model, err error, at time.Time) Model {
	return step(m, cycleMsg{err: err, now: at})
}

func plainView(m Model) []string { return strings.Split(ansi.Strip(m.View().Content), "\n") }

// TestStoreTroubleLasts: a damaged store is said on the title line, whole,
// at 80 columns, for as long as cycles fail, not only for the 4 s of a
// flash; the records stay but are no longer drawn as live; the next
// cycle that reads the store ends it.
func TestStoreTroubleLasts(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	m = failed(m, errDamaged, fixedNow)
	m = step(m, clearStatusMsg{seq: m.status.seq}) // the flash is over
	m = failed(m, errDamaged, fixedNow.Add(time.Minute))
	v := plainView(m)
	if !strings.Contains(v[0], repairNote) {
		t.Fatalf("title line %q lacks %q", v[0], repairNote)
	}
	checkFrame(t, m.View().Content, 80, 24)
	if m.active() {
		t.Error("dots still breathe while the records are stale")
	}
	if m = step(m, frameMsg{}); m.animating {
		t.Error("the animation runs on while the records are stale")
	}
	// Stale cards are drawn in the muted colour alone: no zone, badge or
	// dot colour says "live".
	body := strings.Split(m.View().Content, "\n")[1:23]
	for i, line := range body {
		if line != m.look.muted.s(ansi.Strip(line)) {
			t.Fatalf("body line %d is not all muted: %q", i+1, line)
		}
	}
	if len(m.board.items) == 0 {
		t.Fatal("the records were dropped")
	}
	m = cycled(m, fixture(), nil)
	if v := plainView(m); strings.Contains(v[0], "store damaged") || !strings.Contains(v[0], "●2") {
		t.Errorf("after a good cycle the title is %q, want the counts back", v[0])
	}
	if !m.active() {
		t.Error("dots do not breathe again after a good cycle")
	}
}

// TestStoreTroubleOnStart: a board whose first cycle finds the store
// damaged says so instead of drawing empty lanes.
func TestStoreTroubleOnStart(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 40}} {
		m := loaded(nil, ThemeDark, sz.w, sz.h)
		m = failed(m, errDamaged, fixedNow)
		m = step(m, clearStatusMsg{seq: m.status.seq})
		out := ansi.Strip(m.View().Content)
		checkFrame(t, m.View().Content, sz.w, sz.h)
		for _, bad := range []string{"no sessions", "none live"} {
			if strings.Contains(out, bad) {
				t.Errorf("%dx%d: a damaged store shows %q:\n%s", sz.w, sz.h, bad, out)
			}
		}
		if !strings.Contains(strings.Join(strings.Fields(out), " "), "cannot read its store") {
			t.Errorf("%dx%d: no word of the unreadable store in the lanes:\n%s", sz.w, sz.h, out)
		}
	}
}

// TestStoreTroubleKinds: each lasting store error has its own short note,
// and `?` shows the whole error.
func TestStoreTroubleKinds(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{errDamaged, repairNote},
		{fmt.Errorf("%w: the store was written by a newer lanes (schema 9, this build reads 3); upgrade lanes", state.ErrSchemaTooNew), "store from a newer lanes — upgrade lanes"},
		{fmt.Errorf("refusing the state dir: /x is writable by other users: %w, …", fsafe.ErrForeign), "state dir not private"},
		{errors.New("opening store /x/lanes.db: permission denied"), "store unreadable"},
	} {
		m := loaded(fixture(), ThemeDark, 80, 24)
		m = failed(m, c.err, fixedNow)
		if v := plainView(m); !strings.Contains(v[0], c.want) {
			t.Errorf("%v: title %q, want %q", c.err, v[0], c.want)
		}
		m = press(m, "?")
		if out := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " "); !strings.Contains(out, "upgrade lanes") && !strings.Contains(out, "doctor --repair") && !strings.Contains(out, "writable by other users") && !strings.Contains(out, "permission denied") {
			t.Errorf("%v: help does not show the whole error:\n%s", c.err, ansi.Strip(m.View().Content))
		}
	}
}

// TestBusyStoreLastsPastTheQuietPeriod: a short busy spell says nothing;
// one past BusyQuiet says "store busy" until a cycle reads the store,
// however long the flash lasts.
func TestBusyStoreLastsPastTheQuietPeriod(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	m = failed(m, store.ErrBusy, fixedNow)
	if v := plainView(m); strings.Contains(v[0], "busy") {
		t.Fatalf("a short busy spell shows on the title: %q", v[0])
	}
	for i := 2; i < 12; i++ {
		m = failed(m, store.ErrBusy, fixedNow.Add(time.Duration(i)*time.Second))
		m = step(m, clearStatusMsg{seq: m.status.seq})
		if v := plainView(m); !strings.Contains(v[0], "store busy") {
			t.Fatalf("busy for %d s: title %q lacks store busy", i, v[0])
		}
	}
	if m = cycled(m, fixture(), nil); strings.Contains(plainView(m)[0], "busy") {
		t.Error("store busy stays after a good cycle")
	}
}

// TestActionsRefusedOnAStaleBoard: send, kill, restart and remove act on
// what the board shows; while it cannot read the store they refuse with
// the store's trouble instead of reaching tmux.
func TestActionsRefusedOnAStaleBoard(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	acts := m.o.Actions.(*fakeActions)
	if got := selectedName(m); got != "api" {
		t.Fatalf("selected %q, want api", got)
	}
	m = failed(m, errDamaged, fixedNow)
	for _, k := range []string{"s", "x", "r"} {
		m = press(m, k)
		if m.top() != nil || !strings.Contains(m.status.text, repairNote) {
			t.Errorf("%s on a damaged store: mode %T, status %q; want a refusal naming %q", k, m.top(), m.status.text, repairNote)
		}
	}
	// A dialog opened before the store went bad does not act either.
	m = cycled(m, fixture(), nil)
	m = press(m, "s", "h", "i")
	m = failed(m, errDamaged, fixedNow)
	m = step(m, submitSendMsg{rec: *m.board.selected().Rec, text: "hi"})
	if !strings.Contains(m.status.text, "send refused: "+repairNote) {
		t.Errorf("a send submitted on a damaged store: status %q, want the refusal", m.status.text)
	}
	m = cycled(m, fixture(), nil)
	m = press(m, "x")
	m = failed(m, errDamaged, fixedNow)
	m = step(m, confirmedMsg{act: m.top().(confirmDialog).act})
	if !strings.Contains(m.status.text, "kill refused: "+repairNote) {
		t.Errorf("a kill confirmed on a damaged store: status %q, want the refusal", m.status.text)
	}
	if len(acts.called()) > 0 {
		t.Errorf("actions ran on a damaged store: %q", acts.called())
	}
}

// TestUnreachableDotIsUnknown: a session whose tmux server does not answer
// is not known to be active: its dot, on the card and in the sidebar, is
// the static unknown one, and nothing breathes for it.
func TestUnreachableDotIsUnknown(t *testing.T) {
	lost := rec("c1000008", "lost", state.ActivityActive, time.Hour)
	lost.Runtime.UnreachableSince = ago(20 * time.Second)
	m := loaded([]*state.Record{lost}, ThemeDark, 160, 48)
	if m.active() {
		t.Error("an unreachable session's dot breathes")
	}
	unknown := m.look.dotFor(state.ActivityUnknown, 0)
	for _, line := range strings.Split(m.View().Content, "\n") {
		if strings.Contains(ansi.Strip(line), "lost") && !strings.Contains(line, unknown+" ") {
			t.Errorf("lost's line does not carry the unknown dot: %q", ansi.Strip(line))
		}
	}
	if out := ansi.Strip(m.View().Content); strings.Contains(out, "Active") {
		t.Errorf("an unreachable session is labelled Active:\n%s", out)
	}
}

// TestFlowDamagedStoreAndBack runs the board's own cycle loop: a store
// that goes bad under an open board shows the note on the title while the
// flash comes and goes, and the board is live again once it reads.
func TestFlowDamagedStoreAndBack(t *testing.T) {
	f := startFlow(t, 80, 24)
	cyc := f.cycler
	cyc.mu.Lock()
	cyc.err = errDamaged
	cyc.mu.Unlock()
	f.wait("the repair note", func(v string) bool {
		first, _, _ := strings.Cut(v, "\n")
		return strings.Contains(first, repairNote)
	})
	f.wait("the flash to end, the note staying", func(v string) bool {
		first, _, _ := strings.Cut(v, "\n")
		return strings.Contains(first, repairNote) && strings.Contains(v, "q quit")
	})
	cyc.mu.Lock()
	cyc.err = nil
	cyc.mu.Unlock()
	f.wait("the counts back", func(v string) bool {
		first, _, _ := strings.Cut(v, "\n")
		return strings.Contains(first, "●2") && !strings.Contains(first, "store")
	})
}
