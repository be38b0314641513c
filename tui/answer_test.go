package tui

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lanes/state"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// answerFlow is a board with a card in a permission dialog (Needs you),
// a card working, and an OpenCode card in a dialog (no "always").
func answerFlow(t *testing.T) *flow {
	t.Helper()
	perm := rec("c1000002", "ask", state.ActivityBlocked, 20*time.Second)
	perm.Activity.Dialog, perm.Activity.DialogAt, perm.Activity.AskingTool = true, ago(20*time.Second), "toolu_01"
	perm.Activity.Tool, perm.Activity.ToolInput = "Bash", "date +%s; npm test"
	oc := rec("c1000003", "oc", state.ActivityBlocked, 10*time.Second)
	oc.Agent = state.AgentOpenCode
	oc.Activity.Dialog, oc.Activity.DialogAt, oc.Activity.Tool = true, ago(10*time.Second), "bash"
	sh := rec("c1000004", "sh", state.ActivityBlocked, 5*time.Second) // a script's dialog: no keys known
	sh.Agent = state.AgentCustom
	sh.Activity.Dialog, sh.Activity.DialogAt = true, ago(5*time.Second)
	recs := []*state.Record{rec("a1000001", "api", state.ActivityActive, 2*time.Minute), perm, oc, sh}
	acts := &fakeActions{}
	m := New(context.Background(), Options{
		Collector: &fakeCycler{recs: recs}, Actions: acts, Theme: ThemeDark,
		Now: func() time.Time { return fixedNow }, Dir: "/src",
	}, nil)
	f := &flow{t: t, last: &atomic.Pointer[string]{}, acts: acts}
	f.tm = teatest.NewTestModel(t, probe{m, f.last}, teatest.WithInitialTermSize(160, 48))
	t.Cleanup(func() { _ = f.tm.Quit() })
	f.waitText("ask")
	return f
}

// y on a card in a permission dialog answers it, passing the dialog the
// card showed; A asks first (it cannot be taken back); the help line
// offers the answers the agent takes; n and a keep their board meanings
// on every card, a dialog card included (a person who pressed n to start
// a session never denies a dialog), and N says why where nothing can be
// denied.
func TestFlowAnswerFromTheBoard(t *testing.T) {
	f := answerFlow(t)
	f.keys("a") // api, working: a is "all done"
	f.waitText("Done shows every terminated session")
	f.keys("l") // Needs you: ask (the older dialog, and first by name)
	f.waitText("y allow • N deny • A always")
	f.keys("n") // new, on a dialog card too
	f.waitText("New session")
	f.keys("esc")
	f.wait("the new dialog closed", func(v string) bool { return !strings.Contains(v, "New session") })
	f.keys("A")
	f.waitText("Always allow Bash: date +%s; npm test in ask?")
	f.keys("esc")
	f.wait("the confirmation closed", func(v string) bool { return !strings.Contains(v, "Always allow") })
	f.keys("y")
	f.waitText("approved Bash: date +%s; npm test in ask")
	f.keys("j") // oc: OpenCode offers no "always"
	f.wait("oc's answers", func(v string) bool {
		return strings.Contains(v, "y allow • N deny") && !strings.Contains(v, "A always")
	})
	f.keys("j") // sh: a custom command's dialog, no keys
	f.waitText("n new")
	f.keys("N")
	f.waitText("can't answer sh")
	f.final()
	want := []string{"answer ask yes toolu_01 " + ago(20*time.Second).Format(time.RFC3339)}
	if got := f.acts.called(); !slices.Equal(got, want) {
		t.Errorf("actions = %q, want %q", got, want)
	}
}
