package agent

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/state"
)

func planScreen(t *testing.T, a state.Agent) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "harness", string(a), "plan_approval", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Issue 32, item 4: a plan approval is answered from lanes — on the
// recorded real screens, each answer's key picks its option — and only
// while the pane draws the very plan the card showed.
func TestPlanAnswers(t *testing.T) {
	want := map[state.Agent]map[Answer][]string{
		state.AgentClaude: {Yes: {"2"}, Always: {"1"}, No: {"Escape"}},
		state.AgentGemini: {Yes: {"2"}, Always: {"1"}, No: {"Escape"}},
	}
	for a, keys := range want {
		screen := planScreen(t, a)
		p, ok := state.ReadPlan(a, screen)
		if !ok {
			t.Fatalf("%s: the recorded plan does not read", a)
		}
		for ans, k := range keys {
			if got, err := CheckDialog(a, ans, p.Sum(), screen); err != nil || !slices.Equal(got, k) {
				t.Errorf("%s %s: %v %v, want %v", a, ans, got, err, k)
			}
		}
		other := strings.Replace(screen, "Say hello to the user.", "Say hello to the user!", 1)
		var oc *OtherCallError
		if _, err := CheckDialog(a, Yes, p.Sum(), other); !errors.As(err, &oc) || !strings.Contains(err.Error(), "plan: Greeting") {
			t.Errorf("%s: another plan drawn: %v, want it refused as another", a, err)
		}
		if _, err := CheckDialog(a, Yes, p.Sum(), screen+"\n  Do you want to proceed?\n"); !errors.Is(err, ErrNoDialogOnScreen) {
			t.Errorf("%s: something drawn under the plan: %v, want no dialog read", a, err)
		}
		gone := strings.Replace(screen, "Yes, manually", "No, manually", 1)
		if _, err := CheckDialog(a, Yes, p.Sum(), gone); !errors.Is(err, ErrNoDialogOnScreen) {
			t.Errorf("%s: yes not offered: %v, want it refused", a, err)
		}
	}
	// A release that renumbers its options: the key is the number drawn.
	screen := planScreen(t, state.AgentClaude)
	swapped := strings.NewReplacer("1. Yes, and use auto mode", "1. Yes, manually approve edits",
		"2. Yes, manually approve edits", "2. Yes, and use auto mode").Replace(screen)
	p, _ := state.ReadPlan(state.AgentClaude, swapped)
	if got, err := CheckDialog(state.AgentClaude, Yes, p.Sum(), swapped); err != nil || !slices.Equal(got, []string{"1"}) {
		t.Errorf("renumbered: %v %v, want 1", got, err)
	}
	// A permission dialog where the card showed a plan.
	perm, err := os.ReadFile(filepath.Join("..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CheckDialog(state.AgentClaude, Yes, p.Sum(), string(perm)); !errors.Is(err, ErrNoDialogOnScreen) {
		t.Errorf("a permission dialog for a plan: %v, want it refused", err)
	}
}

// Before the witness has read the plan, the card shows none: no answer.
func TestPlanNotReadIsNotAnswerable(t *testing.T) {
	r := &state.Record{ID: "p", Name: "p", Agent: state.AgentClaude}
	r.Activity.State, r.Activity.Dialog, r.Activity.Tool = state.ActivityBlocked, true, "ExitPlanMode"
	if err := Answerable(r); !errors.Is(err, ErrPlanNotRead) {
		t.Errorf("Answerable = %v, want ErrPlanNotRead", err)
	}
	r.Activity.CallSum = "plan-00"
	if err := Answerable(r); errors.Is(err, ErrPlanNotRead) {
		t.Errorf("read: %v", err)
	}
}

// A plan's own lines, however they look — a numbered list, an option's or
// the footer's words — are the plan: a step changed after the card showed
// the plan is another plan (the review of the first plan reader: Gemini's
// stopped at the plan's first "1." line).
func TestPlanStepsAreThePlan(t *testing.T) {
	for _, a := range []state.Agent{state.AgentClaude, state.AgentGemini} {
		for _, steps := range [][2]string{
			{"1. Create hello.txt", "2. Print hello"},
			{"1.  Yes, automatically accept edits", "2.  Yes, manually accept edits"},
			{"Enter to select", "2. Print hello"},
		} {
			screen := withSteps(t, planScreen(t, a), steps[0], steps[1])
			p, ok := state.ReadPlan(a, screen)
			if !ok || !strings.Contains(p.Plan, steps[1]) {
				t.Errorf("%s %q: read %v, plan %q: want its steps in it", a, steps, ok, p.Plan)
				continue
			}
			other := withSteps(t, planScreen(t, a), steps[0], "2. Delete the repo")
			if keys, err := CheckDialog(a, Yes, p.Sum(), other); err == nil {
				t.Errorf("%s %q: a changed step got %v", a, steps, keys)
			}
		}
	}
}

// withSteps draws two lines in place of the blank line above the recorded
// plan's last line and that line, each at the column and width the screen
// drew it.
func withSteps(t *testing.T, screen, one, two string) string {
	t.Helper()
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		at := strings.Index(l, "Say hello to the user.")
		if at < 0 || i == 0 {
			continue
		}
		col := len([]rune(l[:at]))
		put := func(l, s string) string {
			r := []rune(l)
			for len(r) < col+len([]rune(s)) {
				r = append(r, ' ')
			}
			return string(r[:col]) + s + string(r[col+len([]rune(s)):])
		}
		if strings.TrimSpace(strings.Trim(lines[i-1], "│")) != "" {
			t.Fatalf("the line above the plan's last is not blank: %q", lines[i-1])
		}
		lines[i-1], lines[i] = put(lines[i-1], one), put(strings.Replace(l, "Say hello to the user.", strings.Repeat(" ", 22), 1), two)
		return strings.Join(lines, "\n")
	}
	t.Fatal("no plan line to replace")
	return ""
}
