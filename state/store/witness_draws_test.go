package store

import (
	"slices"
	"testing"
	"time"

	"lanes/state"
)

// Claude Code 2.1.332 goes on drawing after Esc: the footer's hint goes
// 0.9 s later, and in its first seconds a notice goes 3.4 s later (the
// campaign, testdata/campaign/claude-interrupt-draws-on.json: the card
// read Working 5.3 s after the key). The witness looks in the first
// silence after the interrupted screen, not only once the pane has
// stopped drawing for good: the card is Idle + Interrupted before the
// notice goes, within the campaign's 5 s.
func TestWitnessSeesAnInterruptWhileThePaneStillDraws(t *testing.T) {
	w := newWitnessRig(t, state.AgentClaude, "interrupt", 1)
	w.show(state.AgentClaude, "interrupt", "busy", true)
	for range 5 {
		w.cycle(time.Second, true)
	}
	w.clk.advance(300 * time.Millisecond) // Esc, not on a second's edge
	esc := w.clk.t
	w.show(state.AgentClaude, "interrupt", "interrupted", true)
	draws := []time.Duration{900 * time.Millisecond, 3400 * time.Millisecond}
	var r *state.Record
	for w.clk.t.Sub(esc) < 5*time.Second {
		next := w.clk.t.Add(250 * time.Millisecond) // ls --json's sampler cycles this often
		drew := len(draws) > 0 && !esc.Add(draws[0]).After(next)
		if drew {
			draws = draws[1:]
		}
		r = w.cycle(250*time.Millisecond, drew)
		if r.Activity.State == state.ActivityIdle {
			if took := w.clk.t.Sub(esc); took > 3400*time.Millisecond || !slices.Contains(state.Derive(r, w.clk.t).Marks, state.MarkInterrupted) {
				t.Fatalf("idle %v after Esc, marks %v; want idle + interrupted before the notice goes (3.4 s)", took, state.Derive(r, w.clk.t).Marks)
			}
			return
		}
	}
	t.Fatalf("still %s 5 s after Esc while the pane drew at +0.9 s and +3.4 s", r.Activity.State)
}
