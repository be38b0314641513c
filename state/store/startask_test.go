package store

import (
	"path/filepath"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// An agent whose hooks lanes could not inject (Gemini CLI with its state
// dir under /tmp) asks whether to trust the folder, and its card follows
// pane output until the hooks speak (testdata/real/gemini/trust-no-hooks:
// no hook fired while the question showed). The question the witness sees
// holds until the witness sees it gone: neither the pane's output nor its
// silence moves the card meanwhile (docs/design.md §4, §11), so it asks
// once, and its history says so once, in words said once. Gemini restarts
// in the same pane once trusted, under the question it asked: the prompt
// below it says it was answered.
func TestStartQuestionHoldsOverPaneOutput(t *testing.T) {
	for _, c := range []struct {
		agent      state.Agent
		asks, idle [3]string // recorded screens: agent dir, scenario, step
	}{
		{state.AgentGemini, [3]string{"gemini", "trust-no-hooks", "trust"}, [3]string{"gemini", "trust-no-hooks", "idle"}},
		{state.AgentClaude, [3]string{"harness/claude", "trust", "trust"}, [3]string{"harness/claude", "question", "ready"}},
		{state.AgentCodex, [3]string{"harness/codex", "trust", "trust"}, [3]string{"harness/codex", "question", "ready"}},
	} {
		t.Run(string(c.agent), func(t *testing.T) { startQuestionHolds(t, c.agent, c.asks, c.idle) })
	}
}

func startQuestionHolds(t *testing.T, ag state.Agent, asks, idle [3]string) {
	r := statetest.RealRecord(ag)
	r.Activity.HooksReport = false
	r.Pane.PID = 100
	clk := &clock{t: statetest.T0}
	f := &fakePanes{screens: map[string]string{"%1": statetest.RealScreen(t, asks[0], asks[1], asks[2])}}
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: statetest.T0}}
	col := &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Panes: f, Now: clk.now}
	put(t, col.Store, r)
	w := &witnessRig{t: t, col: col, panes: f, clk: clk, id: r.ID}

	// It draws its banner and the question in its first seconds.
	took, got := w.until(5*time.Second, true, func(r *state.Record) bool { return r.Activity.Dialog })
	if took < 0 {
		t.Fatalf("trust question: no dialog within 5 s (activity %s)", got.Activity.State)
	}
	if got.Activity.Question != state.TrustQuestion || state.Derive(got, clk.t).Status != state.StatusNeedsInput {
		t.Fatalf("trust question: status %s question %q", state.Derive(got, clk.t).Status, got.Activity.Question)
	}
	for i := range 120 { // a minute: still, then redrawing, then still
		busy := i >= 40 && i < 50
		if r := w.cycle(500*time.Millisecond, busy); !r.Activity.Dialog || r.Activity.State != state.ActivityWaitingInput {
			t.Fatalf("after %v (pane drawing %v) the question still shows, but the card left it: activity %s dialog %v",
				time.Duration(i+1)*500*time.Millisecond, busy, r.Activity.State, r.Activity.Dialog)
		}
	}
	var hist []state.Transition
	_ = col.Store.View(func(tx *Tx) error { hist, _ = tx.History(r.ID, 100); return nil })
	asked := 0
	for _, tr := range hist {
		if tr.To == state.ActivityWaitingInput {
			asked++
			if want := "asks before it starts" + state.DetailSep + "Trust this folder?"; tr.Detail != want {
				t.Errorf("history says %q, want %q", tr.Detail, want)
			}
		}
	}
	if asked != 1 {
		t.Errorf("the question was asked once, the history says %d times: %+v", asked, hist)
	}

	// Trusted: its prompt shows, the card is Idle, and output drives it again.
	f.screens["%1"] = statetest.RealScreen(t, idle[0], idle[1], idle[2])
	took, got = w.until(10*time.Second, false, func(r *state.Record) bool { return !r.Activity.Dialog })
	if d := state.Derive(got, clk.t); took < 0 || d.Status != state.StatusIdle {
		t.Fatalf("trusted: after %v status %s dialog %v", took, d.Status, got.Activity.Dialog)
	}
	if r := w.cycle(time.Second, true); r.Activity.State != state.ActivityActive {
		t.Fatalf("trusted and drawing: activity %s, want active (it follows pane output again)", r.Activity.State)
	}
	// Quiet at its prompt: idle by the pane, and not "interrupted" by the
	// witness's later looks for a question (its interrupt rule is for
	// agents whose hooks report).
	for range 40 {
		got = w.cycle(500*time.Millisecond, false)
	}
	if d := state.Derive(got, clk.t); d.Status != state.StatusIdle || len(d.Marks) > 0 {
		t.Fatalf("trusted, quiet at its prompt: status %s marks %v outcome %q", d.Status, d.Marks, got.Activity.Outcome)
	}
}
