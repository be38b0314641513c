package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 32, item 4: Claude Code's plan approval has neither "Do you want
// to proceed?" nor "Esc to cancel", so the witness took it for answered
// within 3 s: the card said Idle for as long as Claude waited. Looks at
// the recorded real screens keep it Needs you: with no plan written
// ("Exit plan mode?") and with the plan its model wrote ("Ready to
// code?", which 2.1.332 draws for every real plan).
func TestWitnessKeepsThePlanDialog(t *testing.T) {
	for _, dir := range []string{"claude/plan-unwritten", "harness/claude/plan_approval"} {
		b, err := os.ReadFile(filepath.Join(realDir, dir, "dialog.screen"))
		if err != nil {
			t.Fatal(err)
		}
		r := rec(ActivityActive)
		applyAll(t, r, ev(KindToolStart, tool("p1"), func(e *Event) { e.ToolName = "ExitPlanMode" }, after(time.Second)),
			ev(KindBlock, func(e *Event) { e.Dialog, e.ToolName = true, "ExitPlanMode" }, after(time.Second)))
		for _, d := range []time.Duration{4, 6, 9, 15} {
			SeeScreen(r, string(b), t0.Add(d*time.Second))
		}
		if r.Activity.State != ActivityBlocked || !r.Activity.Dialog {
			t.Errorf("%s: after 15 s of the plan dialog on screen: %s (dialog %v), want blocked", dir, r.Activity.State, r.Activity.Dialog)
		}
	}
}

// The witness's first look at a plan approval keeps the plan's digest and
// first line, which the card shows; a plan redrawn with no hook keeps
// them (the answer's check refuses it); a new dialog's hook reads afresh.
func TestWitnessReadsThePlanOnce(t *testing.T) {
	for _, c := range []struct {
		agent Agent
		tool  string
	}{{AgentClaude, "ExitPlanMode"}, {AgentGemini, "exit_plan_mode"}} {
		screen := realScreen(t, "harness/"+string(c.agent), "plan_approval", "dialog")
		other := strings.Replace(screen, "Say hello to the user.", "Say goodbye to the user", 1)
		r := rec(ActivityActive)
		r.Agent = c.agent
		block := func(at time.Duration) Event {
			return ev(KindBlock, func(e *Event) { e.Dialog, e.ToolName = true, c.tool }, after(at))
		}
		applyAll(t, r, ev(KindToolStart, tool("p1"), func(e *Event) { e.ToolName = c.tool }, after(time.Second)), block(time.Second))
		if r.Activity.CallSum != "" {
			t.Fatalf("%s: a digest before any look: %q", c.agent, r.Activity.CallSum)
		}
		SeeScreen(r, screen, t0.Add(5*time.Second))
		want, _ := ReadPlan(c.agent, screen)
		if r.Activity.CallSum != want.Sum() || r.Activity.ToolInput != "Greeting" {
			t.Fatalf("%s: after a look: %q %q, want the plan's digest and first line", c.agent, r.Activity.CallSum, r.Activity.ToolInput)
		}
		if say, text := Says(r); say != SayPermission || text != "plan: Greeting" {
			t.Errorf("%s: the card says %v %q, want plan: Greeting", c.agent, say, text)
		}
		SeeScreen(r, other, t0.Add(9*time.Second))
		if r.Activity.CallSum != want.Sum() {
			t.Errorf("%s: a plan redrawn with no hook replaced the one the card showed", c.agent)
		}
		applyAll(t, r, block(12*time.Second))
		SeeScreen(r, other, t0.Add(20*time.Second))
		if p, _ := ReadPlan(c.agent, other); r.Activity.CallSum != p.Sum() {
			t.Errorf("%s: the new dialog's plan was not read: %q", c.agent, r.Activity.CallSum)
		}
	}
}
