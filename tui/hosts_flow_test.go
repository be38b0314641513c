package tui

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestFlowRemoteActions: on another host's card, send, kill, restart,
// mute, preview, history, diff (and R, reading it again), answer, rm and new (with that host's filter on)
// run `lanes …` there, the prompt on stdin, the answer naming the dialog
// the card showed; this host's session service is never asked.
func TestFlowRemoteActions(t *testing.T) {
	acts, rem := &fakeActions{}, newFakeRemote()
	m := New(context.Background(), Options{
		Collector: &fakeCycler{}, Actions: acts, Theme: ThemeDark, Dir: "/src",
		Now: func() time.Time { return fixedNow }, Hosts: twoHosts[:1], Remote: rem,
	}, nil)
	f := &flow{t: t, last: &atomic.Pointer[string]{}, acts: acts}
	f.tm = teatest.NewTestModel(t, probe{m, f.last}, teatest.WithInitialTermSize(140, 40))
	t.Cleanup(func() { _ = f.tm.Quit() })
	f.waitText("connecting to build…")
	st := buildUp()
	dlg := rec("b2000004", "ask", state.ActivityBlocked, 10*time.Second)
	dlg.Activity.Dialog, dlg.Activity.DialogAt = true, ago(10*time.Second)
	st.Sessions = append(st.Sessions, listed(dlg)...)
	rem.ch <- st
	f.waitText("┃ ● train")

	waitRun := func(want string) { t.Helper(); waitRuns(t, rem, want, 1) }
	f.keys("s")
	f.waitText("Send to train on build")
	f.tm.Type("go on; don't stop")
	f.keys("enter")
	waitRun("me@build.box: send b2000001 - <go on; don't stop")
	f.keys("x")
	f.waitText("Kill train on build?")
	f.keys("y")
	waitRun("me@build.box: kill b2000001")
	f.keys("r")
	f.waitText("Restart train on build?")
	f.keys("y")
	waitRun("me@build.box: restart b2000001")
	f.keys("m")
	waitRun("me@build.box: mute b2000001")
	f.keys("p") // its pane, from there, colours kept
	waitRun("me@build.box: peek b2000001 --color")
	f.keys("p")
	f.keys("H")
	waitRun("me@build.box: history b2000001 --json --last 30")
	f.keys("esc")
	f.keys("D", "R") // its diff, then read again: there both times
	waitRuns(t, rem, "me@build.box: diff b2000001", 2)
	f.keys("esc")

	f.keys("l") // Needs you: the dialog card first
	f.waitText("┃ ▲ ask")
	f.keys("y") // only the dialog the card showed: its time, whole
	waitRun("me@build.box: answer b2000004 yes --dialog " + listing.RFC3339Nano(dlg.Activity.DialogAt))
	f.keys("l", "l", "l", "l") // Done: bench
	f.waitText("┃ bench")
	f.keys("d")
	f.waitText("Remove bench on build?")
	f.keys("y")
	waitRun("me@build.box: rm b2000003")

	f.keys("n") // all hosts shown: a new session starts here
	f.waitText("New session")
	f.keys("esc")
	f.wait("the dialog closed", func(v string) bool { return !strings.Contains(v, "New session") })
	f.keys("@", "@") // this host, then build
	f.waitText("@ host build")
	f.keys("n")
	f.waitText("New session on build")
	f.tm.Type("eval")
	f.keys("enter")
	waitRun("me@build.box: new eval --agent claude --dir /src/bench")
	f.waitText("started eval on build")
	if got := acts.called(); len(got) > 0 {
		t.Errorf("remote actions reached this host's session service: %q", got)
	}
	f.final()
}

// waitRuns waits until rem ran want n times.
func waitRuns(t *testing.T, rem *fakeRemote, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if runs := rem.ran(); len(runs)-len(slices.DeleteFunc(runs, func(r string) bool { return r == want })) >= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("never ran %q %d times; ran %q", want, n, rem.ran())
}
