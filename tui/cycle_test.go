package tui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"

	"github.com/charmbracelet/x/ansi"
)

func cycled(m Model, recs []*state.Record, tmuxErr error) Model {
	return step(m, cycleMsg{res: store.CycleResult{Records: recs, TmuxErr: tmuxErr, Watching: watching(recs), At: fixedNow}, now: fixedNow})
}

// watching is CycleResult.Watching as the collector sets it, for records
// all on its server.
func watching(recs []*state.Record) bool {
	return slices.ContainsFunc(recs, (*state.Record).Live)
}

func TestOneCycleInFlight(t *testing.T) {
	m := New(context.Background(), Options{Collector: &fakeCycler{}, Ingest: &fakeCycler{}, Actions: &fakeActions{},
		Theme: ThemeDark, Now: func() time.Time { return fixedNow }}, make(chan struct{}))
	if !m.cycling {
		t.Fatal("Init's first cycle is not counted as in flight")
	}
	m = step(m, spoolMsg{}) // a hook wrote while the first cycle runs
	if !m.againSpool || m.againFull {
		t.Fatal("a spool signal during a cycle was not queued as a spool-only cycle")
	}
	gen := m.tickGen
	m = cycled(m, fixture(), nil)
	if !m.cycling || m.againSpool {
		t.Fatalf("after the first cycle: cycling %v againSpool %v, want the queued cycle running", m.cycling, m.againSpool)
	}
	if m.tickGen != gen {
		t.Fatal("a spool-only cycle made the pending tick stale")
	}
	m = step(m, tickMsg{gen: m.tickGen}) // the tick fires during the spool cycle
	if !m.againFull {
		t.Fatal("a tick during a spool cycle was not queued")
	}
	m = step(m, cycleMsg{res: store.CycleResult{Records: fixture()}, now: fixedNow, ingest: true})
	if !m.cycling || m.againFull {
		t.Fatal("the queued full cycle did not start after the spool cycle")
	}
	gen = m.tickGen
	m = cycled(m, fixture(), nil)
	if m.cycling {
		t.Fatal("no cycle should be in flight after the queued one")
	}
	if m = step(m, tickMsg{gen: gen - 1}); m.cycling {
		t.Error("a stale tick started a cycle")
	}
	if m = step(m, tickMsg{gen: m.tickGen}); !m.cycling {
		t.Error("the current tick did not start a cycle")
	}
}

func TestSpoolOnlyCycleSaysNothingAboutTmux(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	m = cycled(m, fixture(), errors.New("tmux: no server running"))
	seq := m.status.seq
	m = step(m, cycleMsg{res: store.CycleResult{Records: fixture()}, now: fixedNow, ingest: true})
	if m = cycled(m, fixture(), errors.New("tmux: no server running")); m.status.seq != seq {
		t.Error("a spool-only cycle in between made the same tmux error flash again")
	}
}

func TestAnimatesOnlyWhileActive(t *testing.T) {
	idle := []*state.Record{rec("b1000001", "docs", state.ActivityIdle, time.Hour)}
	m := loaded(idle, ThemeDark, 160, 48)
	if m.animating {
		t.Fatal("animating with no active session")
	}
	m = loaded(fixture(), ThemeDark, 160, 48)
	if !m.animating {
		t.Fatal("not animating with active sessions on screen")
	}
	f := m.frame
	if m = step(m, frameMsg{}); m.frame != f+1 {
		t.Error("a frame did not advance the breath")
	}
	m = cycled(m, idle, nil)
	if m = step(m, frameMsg{}); m.animating {
		t.Error("still animating after the last active session went idle")
	}
}

func TestErrorsShowOnceAndClear(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	m = cycled(m, fixture(), errors.New("tmux list-panes: no server running"))
	if !m.status.isErr || !strings.Contains(m.status.text, "tmux is not answering") {
		t.Fatalf("status = %+v, want the tmux error", m.status)
	}
	seq := m.status.seq
	if m = cycled(m, fixture(), errors.New("tmux list-panes: no server running")); m.status.seq != seq {
		t.Error("the same tmux error flashed again on the next cycle")
	}
	if m = step(m, clearStatusMsg{seq: seq - 1}); m.status.text == "" {
		t.Error("an older clear removed the current message")
	}
	if m = step(m, clearStatusMsg{seq: seq}); m.status.text != "" {
		t.Error("the message did not clear")
	}
	before := len(m.board.items)
	// A busy store for one cycle, then again once the first was over: the
	// records stay and nothing is said (under 8 hook writers a busy cycle
	// is a matter of course).
	for _, err := range []error{store.ErrBusy, nil, store.ErrBusy} {
		m = step(m, cycleMsg{res: store.CycleResult{Records: fixture()}, err: err, now: fixedNow})
		if m.status.text != "" || len(m.board.items) != before {
			t.Fatalf("a store busy for one cycle: status %q, %d items (want none and the %d items kept)", m.status.text, len(m.board.items), before)
		}
	}
	m = step(m, cycleMsg{err: store.ErrBusy, now: fixedNow.Add(BusyQuiet - time.Millisecond)})
	if m.status.text != "" {
		t.Fatalf("busy for less than BusyQuiet: status %q", m.status.text)
	}
	m = step(m, cycleMsg{err: store.ErrBusy, now: fixedNow.Add(BusyQuiet)})
	if !strings.Contains(m.status.text, "store busy") || len(m.board.items) != before {
		t.Errorf("store busy: status %q, %d items (want the error and the %d items kept)", m.status.text, len(m.board.items), before)
	}
	if v := m.View().Content; !strings.Contains(ansi.Strip(v), "✗ store: store busy") {
		t.Errorf("the status bar does not show the error:\n%s", ansi.Strip(v))
	}
}

func TestNoTmuxErrorWithoutLiveSessions(t *testing.T) {
	m := loaded(nil, ThemeDark, 80, 24)
	if m = cycled(m, nil, tmux.ErrNoServer); m.status.text != "" {
		t.Errorf("no sessions, no server: status %q, want none", m.status.text)
	}
}
