package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// hungFixture is one session whose tmux server does not answer.
func hungFixture() []*state.Record {
	lost := rec("c1000008", "hungnew", state.ActivityActive, time.Hour)
	lost.Runtime.UnreachableSince = ago(20 * time.Second)
	return []*state.Record{lost}
}

// run applies msg and then the messages its commands return, one level
// deep (batches opened), keeping the model.
func run(t *testing.T, m Model, msg tea.Msg) (Model, []tea.Msg) {
	t.Helper()
	next, cmd := m.Update(msg)
	var out []tea.Msg
	var collect func(tea.Cmd)
	collect = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch x := c().(type) {
		case tea.BatchMsg:
			for _, c := range x {
				collect(c)
			}
		case nil:
		default:
			out = append(out, x)
		}
	}
	collect(cmd)
	return next.(Model), out
}

// Killing a session whose tmux server does not answer: the confirm says so
// and what y does, like `lanes kill` (trial 2, item 4).
func TestKillConfirmSaysTmuxIsNotAnswering(t *testing.T) {
	acts := &fakeActions{}
	m := New(context.Background(), Options{
		Collector: &fakeCycler{recs: hungFixture()}, Actions: acts,
		Theme: ThemeDark, Now: func() time.Time { return fixedNow }, Dir: "/src",
	}, nil)
	m = step(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = step(m, cycleMsg{res: store.CycleResult{Records: hungFixture(), At: fixedNow}, now: fixedNow})
	m = press(m, "x")
	view := ansi.Strip(m.View().Content)
	flat := strings.Join(strings.Fields(view), " ")
	for _, want := range []string{"tmux is not answering", "may still run if the server comes back", "y marks it terminated anyway"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("the kill confirm for an unreachable session does not say %q:\n%s", want, view)
		}
	}
	m, msgs := run(t, m, keyMsg("y"))
	if len(msgs) != 1 {
		t.Fatalf("y gave %d messages, want the confirmation", len(msgs))
	}
	_, msgs = run(t, m, msgs[0])
	var done actionMsg
	for _, msg := range msgs {
		if a, ok := msg.(actionMsg); ok {
			done = a
		}
	}
	if got := acts.called(); !slices.Equal(got, []string{"kill hungnew anyway"}) {
		t.Fatalf("actions = %q, want one kill of hungnew that goes ahead while tmux is down", got)
	}
	if done.err != nil || !strings.Contains(done.text, "marked hungnew terminated") || !strings.Contains(done.text, "not stopped") {
		t.Fatalf("after y the board says %q (err %v), want that it was marked terminated, its agent not stopped", done.text, done.err)
	}
}

// A kill asked while tmux answered does not go ahead should tmux stop
// answering before it runs: the user was not told.
func TestKillConfirmOfReachableSessionIsNoKillAnyway(t *testing.T) {
	acts := &fakeActions{}
	recs := []*state.Record{rec("a1000001", "api", state.ActivityActive, 2*time.Minute)}
	m := New(context.Background(), Options{
		Collector: &fakeCycler{recs: recs}, Actions: acts,
		Theme: ThemeDark, Now: func() time.Time { return fixedNow }, Dir: "/src",
	}, nil)
	m = step(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = step(m, cycleMsg{res: store.CycleResult{Records: recs, At: fixedNow}, now: fixedNow})
	m = press(m, "x")
	if view := ansi.Strip(m.View().Content); strings.Contains(view, "not answering") {
		t.Fatalf("the confirm of a reachable session speaks of tmux not answering:\n%s", view)
	}
	m, msgs := run(t, m, keyMsg("y"))
	_, _ = run(t, m, msgs[0])
	if got := acts.called(); !slices.Equal(got, []string{"kill api"}) {
		t.Fatalf("actions = %q, want one plain kill of api", got)
	}
}

// While tmux does not answer the title line says so, for as long as it
// lasts (not only for the flash at the bottom), whole at 80 columns; the
// first cycle tmux answers ends it (trial 2, item 7).
func TestTmuxNotAnsweringLasts(t *testing.T) {
	hung := errors.New("tmux list-panes: tmux timed out")
	m := loaded(fixture(), ThemeDark, 80, 24)
	at := func(d time.Duration) cycleMsg {
		return cycleMsg{res: store.CycleResult{Records: fixture(), TmuxErr: hung, Watching: true, At: fixedNow.Add(d)}, now: fixedNow.Add(d)}
	}
	m = step(m, at(0))
	m = step(m, clearStatusMsg{seq: m.status.seq}) // the flash is over
	m = step(m, at(12*time.Second))
	v := plainView(m)
	if !strings.Contains(v[0], tmuxNote) || !strings.Contains(v[0], "12s") {
		t.Fatalf("title line %q lacks %q and for how long", v[0], tmuxNote)
	}
	checkFrame(t, m.View().Content, 80, 24)
	// A hook-only cycle reads no tmux: it says nothing either way.
	m = step(m, cycleMsg{res: store.CycleResult{Records: fixture(), At: fixedNow}, now: fixedNow.Add(13 * time.Second), ingest: true})
	if v := plainView(m); !strings.Contains(v[0], tmuxNote) {
		t.Fatalf("a spool-only cycle ended the note: %q", v[0])
	}
	m = cycled(m, fixture(), nil)
	if v := plainView(m); strings.Contains(v[0], tmuxNote) || !strings.Contains(v[0], "●2") {
		t.Errorf("after tmux answered the title is %q, want the counts back", v[0])
	}
}

const tmuxNote = "tmux is not answering"

// With no tmux server running and live sessions on it (after a reboot),
// the title says what doctor says brings them back, whole at 80 columns.
func TestTmuxNotRunningSaysRestore(t *testing.T) {
	gone := fmt.Errorf("tmux list-panes: %w", tmux.ErrNoServer)
	m := loaded(fixture(), ThemeDark, 80, 24)
	m = step(m, cycleMsg{res: store.CycleResult{Records: fixture(), TmuxErr: gone, Watching: true, At: fixedNow}, now: fixedNow})
	m = step(m, clearStatusMsg{seq: m.status.seq})
	if v := plainView(m); !strings.Contains(v[0], "tmux is not running — R or `lanes restore --all` brings them back") {
		t.Errorf("title line %q does not say what brings the sessions back", v[0])
	}
	checkFrame(t, m.View().Content, 80, 24)
}
