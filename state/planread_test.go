package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 32, item 4: the plan approvals of the recorded real screens read
// whole — the plan as drawn, its options — and no other recorded screen
// of the agent reads as one.
func TestReadPlanOnRealScreens(t *testing.T) {
	for _, a := range []Agent{AgentClaude, AgentGemini} {
		screen := realScreen(t, "harness/"+string(a), "plan_approval", "dialog")
		p, ok := ReadPlan(a, screen)
		if !ok || p.First() != "Greeting" || !strings.Contains(p.Plan, "Say hello to the user.") || len(p.Options) < 3 {
			t.Errorf("%s: read %v %q (%d options), want the plan", a, ok, p.Plan, len(p.Options))
		}
		if p.Sum() == "" || p.Sum() == (PlanDialog{Plan: p.Plan + " "}).Sum() {
			t.Errorf("%s: the digest does not tell two plans apart", a)
		}
		lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
		for name, s := range map[string]string{
			"a line drawn under it":   screen + "\n  ❯ 1. Yes\n",
			"the plan says its title": strings.Replace(screen, "Say hello to the user.", "Ready to code?", 1),
			"the title cut off":       strings.Join(lines[titleAt(lines)+1:], "\n"),
		} {
			if a == AgentGemini && name == "the plan says its title" {
				s = strings.Replace(screen, "Say hello to the user.", "Ready to start implementation?", 1)
			}
			if _, ok := ReadPlan(a, s); ok {
				t.Errorf("%s: %s: read as a plan", a, name)
			}
		}
		others, _ := filepath.Glob(filepath.Join(realDir, "*", string(a), "*", "*.screen"))
		more, _ := filepath.Glob(filepath.Join(realDir, string(a), "*", "*.screen"))
		n := 0
		for _, f := range append(others, more...) {
			if strings.Contains(f, "plan_approval") && strings.HasSuffix(f, "dialog.screen") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ReadPlan(a, string(b)); ok {
				t.Errorf("%s reads as a plan approval", f)
			}
			n++
		}
		if n < 20 {
			t.Errorf("%s: %d other recorded screens, want its whole record", a, n)
		}
	}
}

// titleAt is the line a plan approval's title is drawn on.
func titleAt(lines []string) int {
	for i, l := range lines {
		if strings.Contains(l, "Ready to code?") || strings.Contains(l, "Ready to start implementation?") {
			return i
		}
	}
	return -1
}
