package state

import (
	"slices"
	"testing"
	"time"
)

// queued is Claude Code's UserPromptSubmit for a prompt typed while its
// turn runs (claudeEvent sets Queues on every one).
func queued(e *Event) { e.Queues = true }

// Claude Code 2.1.332 fires UserPromptSubmit when a prompt is typed into a
// busy pane, and runs it as a turn of its own at the running turn's Stop,
// with no hook: the card read Idle for the queued prompt's whole turn (the
// campaign's slow/type, testdata/campaign/claude-queued-prompt.json).
func TestAQueuedPromptKeepsTheCardWorking(t *testing.T) {
	r := rec(ActivityIdle)
	applyAll(t, r, ev(KindTurnStart, queued, after(time.Second)), ev(KindTurnStart, queued, after(2*time.Second)),
		ev(KindTurnEnd, after(8*time.Second)))
	if d := derived(r, 8*time.Second); d.Status != StatusWorking {
		t.Fatalf("after the first turn's Stop with a prompt queued: %s, want working", d.Status)
	}
	applyAll(t, r, ev(KindTurnEnd, after(12*time.Second)))
	if d := derived(r, 12*time.Second); d.Status != StatusIdle || r.Activity.Queued != 0 {
		t.Errorf("after the queued prompt's Stop: %s, queued %d; want idle, none", d.Status, r.Activity.Queued)
	}
	// An agent that does not queue (its turn start while busy is no prompt
	// of its own): the Stop ends it.
	g := rec(ActivityIdle)
	g.Agent = AgentCodex
	applyAll(t, g, ev(KindTurnStart, after(time.Second)), ev(KindTurnStart, after(2*time.Second)), ev(KindTurnEnd, after(8*time.Second)))
	if d := derived(g, 8*time.Second); d.Status != StatusIdle {
		t.Errorf("a turn start while busy that queues nothing, then Stop: %s, want idle", d.Status)
	}
}

// What ends a turn with a prompt queued: an interrupt (Claude Code puts
// the queued prompt back in its input: idle + interrupted, nothing
// queued), or the prompt going into the running turn (one Stop for both:
// the witness finds the idle prompt and no busy indicator, and the card
// goes idle with no mark rather than staying Working).
func TestQueuedPromptsEndWithTheTurnTheyWentInto(t *testing.T) {
	for _, c := range []struct {
		name, step string
		mark       bool
	}{{"interrupted", "interrupted", true}, {"taken into the turn", "ready", false}} {
		r := rec(ActivityIdle)
		applyAll(t, r, ev(KindTurnStart, queued, after(time.Second)), ev(KindTurnStart, queued, after(2*time.Second)))
		if c.step == "ready" {
			applyAll(t, r, ev(KindTurnEnd, after(8*time.Second))) // the one Stop: still working
		}
		r.Pane.WindowActivity = t0.Add(8 * time.Second)
		SeeScreen(r, realScreen(t, "harness/claude", "interrupt", c.step), t0.Add(11*time.Second))
		d := Derive(r, t0.Add(11*time.Second))
		if d.Status != StatusIdle || r.Activity.Queued != 0 || slices.Contains(d.Marks, MarkInterrupted) != c.mark {
			t.Errorf("%s: %s marks %v queued %d; want idle, interrupted %v, none queued", c.name, d.Status, d.Marks, r.Activity.Queued, c.mark)
		}
	}
}

// A queued prompt waits out the subagents its turn waits for, and a failed
// turn's mark outlives a queued prompt that ran no turn of its own
// (review of this change).
func TestQueuedPromptsAfterSubagentsAndFailures(t *testing.T) {
	r := rec(ActivityIdle)
	applyAll(t, r, ev(KindTurnStart, queued, after(time.Second)), ev(KindSubagentStart, agentID("sub1"), after(2*time.Second)),
		ev(KindTurnStart, queued, after(3*time.Second)), ev(KindTurnEnd, after(5*time.Second)),
		ev(KindSubagentStop, agentID("sub1"), after(6*time.Second)))
	if d := derived(r, 6*time.Second); d.Status != StatusWorking || !r.Activity.QueuedTurn {
		t.Fatalf("the subagent done, a prompt queued: %s queued turn %v, want working, the queued turn", d.Status, r.Activity.QueuedTurn)
	}
	applyAll(t, r, ev(KindTurnEnd, after(9*time.Second)))
	if d := derived(r, 9*time.Second); d.Status != StatusIdle {
		t.Errorf("after the queued turn's Stop: %s, want idle", d.Status)
	}
	f := rec(ActivityIdle)
	applyAll(t, f, ev(KindTurnStart, queued, after(time.Second)), ev(KindTurnStart, queued, after(2*time.Second)),
		ev(KindTurnEnd, outc(OutcomeFailure), after(8*time.Second)))
	f.Pane.WindowActivity = t0.Add(8 * time.Second)
	SeeScreen(f, realScreen(t, "harness/claude", "interrupt", "ready"), t0.Add(11*time.Second))
	if d := Derive(f, t0.Add(11*time.Second)); d.Status != StatusIdle || !slices.Contains(d.Marks, MarkFailed) {
		t.Errorf("a failed turn, then no queued turn: %s marks %v, want idle + failed", d.Status, d.Marks)
	}
	// Whatever ends the session's agent forgets what it had queued.
	applyAll(t, f, ev(KindTurnStart, after(12*time.Second)), ev(KindTurnStart, queued, after(13*time.Second)))
	Terminate(f, "gone", "user", t0.Add(14*time.Second))
	if f.Activity.Queued != 0 || f.Activity.QueuedTurn {
		t.Errorf("terminated with %d queued, queued turn %v", f.Activity.Queued, f.Activity.QueuedTurn)
	}
}
