package state

import (
	"os"
	"path/filepath"
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
