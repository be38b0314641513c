package state

import (
	"testing"
	"time"
)

// Codex 0.171.0 in its Plan mode asks "Implement this plan?" on a plan its
// model wrote, after its turn's end, and no hook fires: the card said
// idle + in a menu. A look at the recorded screen makes it Needs you, the
// question its title, until the box goes.
func TestWitnessSeesCodexsPlanQuestion(t *testing.T) {
	r := rec(ActivityIdle)
	r.Agent = AgentCodex
	SeeScreen(r, realScreen(t, "harness/codex", "plan_approval", "halt"), t0.Add(3*time.Second))
	if a := r.Activity; a.State != ActivityWaitingInput || !a.Dialog || a.Question != "Implement this plan?" {
		t.Fatalf("the plan question: %s dialog=%v %q, want waiting_input, a dialog, %q", a.State, a.Dialog, a.Question, "Implement this plan?")
	}
	if d := Derive(r, t0.Add(4*time.Second)); d.Status != StatusNeedsInput {
		t.Errorf("card %s, want needs_input", d.Status)
	}
}
