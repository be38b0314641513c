package store

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// witnessRig is one session of a real agent, replayed from its recorded
// hook lines, watched by a collector whose pane source shows recorded real
// screens.
type witnessRig struct {
	t     *testing.T
	col   *Collector
	panes *fakePanes
	clk   *clock
	id    string
}

func newWitnessRig(t *testing.T, agent state.Agent, scenario string, lines int) *witnessRig {
	t.Helper()
	ls := statetest.RealLines(t, string(agent), scenario)[:lines]
	r := statetest.Replay(t, statetest.RealRecord(agent), ls)
	r.Pane.PID = 100
	clk := &clock{t: ls[len(ls)-1].At.Add(100 * time.Millisecond)}
	f := &fakePanes{screens: map[string]string{}}
	col := &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Panes: f, Now: clk.now}
	put(t, col.Store, r)
	w := &witnessRig{t: t, col: col, panes: f, clk: clk, id: r.ID}
	return w
}

// show puts a recorded screen on the pane; output says the pane drew it now.
func (w *witnessRig) show(agent state.Agent, scenario, step string, output bool) {
	w.panes.screens["%1"] = statetest.RealScreen(w.t, string(agent), scenario, step)
	wa := w.clk.t.Truncate(time.Second)
	if !output && len(w.panes.obs) > 0 {
		wa = w.panes.obs[0].WindowActivity
	}
	w.panes.obs = []state.Observation{{LanesID: w.id, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: wa}}
}

// cycle advances the clock by d, with the pane drawing meanwhile if busy,
// and runs one collector cycle.
func (w *witnessRig) cycle(d time.Duration, busy bool) *state.Record {
	w.t.Helper()
	w.clk.advance(d)
	if busy {
		w.panes.obs[0].WindowActivity = w.clk.t.Truncate(time.Second)
	}
	res, err := w.col.Cycle(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	for _, r := range res.Records {
		if r.ID == w.id {
			return r
		}
	}
	w.t.Fatal("record gone")
	return nil
}

// until runs cycles every 500 ms for at most limit until cond holds, and
// returns how long it took.
func (w *witnessRig) until(limit time.Duration, busy bool, cond func(*state.Record) bool) (time.Duration, *state.Record) {
	w.t.Helper()
	var r *state.Record
	for took := time.Duration(0); took <= limit; {
		took += 500 * time.Millisecond
		if r = w.cycle(500*time.Millisecond, busy); cond(r) {
			return took, r
		}
	}
	return -1, r
}

// Interrupting a real turn fires no hook; once the pane is silent the
// witness sees the idle prompt and no busy indicator: Idle + Interrupted.
// (Gemini CLI does fire AfterAgent on Ctrl-C, which makes the card Idle with
// no mark at once; the witness is its backstop should that hook be lost.)
func TestWitnessInterruptIsIdleInterrupted(t *testing.T) {
	for _, ag := range []state.Agent{state.AgentClaude, state.AgentCodex, state.AgentGemini} {
		t.Run(string(ag), func(t *testing.T) {
			w := newWitnessRig(t, ag, "interrupt", 1)
			w.show(ag, "interrupt", "busy", true)
			for range 20 { // streaming: Working, and not looked at for a silence
				if r := w.cycle(time.Second, true); r.Activity.State != state.ActivityActive {
					t.Fatalf("busy: activity %s", r.Activity.State)
				}
			}
			// (An agent that may retry by itself, with no hook, is looked
			// at once no hook spoke for WitnessRetryQuiet: retry.go.)
			want := 0
			if m, _ := state.MarkersOf(ag); len(m.Retrying) > 0 {
				want = 1
			}
			if len(w.panes.captured) != want {
				t.Fatalf("a drawing pane was captured %d times in 20 s, want %d", len(w.panes.captured), want)
			}
			w.show(ag, "interrupt", "interrupted", true) // Ctrl-C
			took, r := w.until(10*time.Second, false, func(r *state.Record) bool { return r.Activity.State == state.ActivityIdle })
			d := state.Derive(r, w.clk.t)
			if took < 0 || took > state.WitnessSilence+2*time.Second || !slices.Contains(d.Marks, state.MarkInterrupted) {
				t.Fatalf("interrupted: after %v activity %s marks %v, want idle + interrupted within ~%v", took, r.Activity.State, d.Marks, state.WitnessSilence)
			}
			t.Logf("%s Ctrl-C → idle + interrupted in %v (%d captures)", ag, took, len(w.panes.captured))
		})
	}
}

// A busy pane that goes quiet (a long tool, a slow model) is captured once
// per silence, and stays Working while the busy indicator shows; with no
// hook for a while it is looked at every WitnessRetryEvery besides, for a
// retry (retry.go): in 30 s, the silence's look and one more.
func TestWitnessSilentButBusyStaysWorking(t *testing.T) {
	w := newWitnessRig(t, state.AgentClaude, "interrupt", 1)
	w.show(state.AgentClaude, "interrupt", "busy", true)
	for range 30 {
		if r := w.cycle(time.Second, false); r.Activity.State != state.ActivityActive {
			t.Fatalf("busy but silent: activity %s", r.Activity.State)
		}
	}
	if len(w.panes.captured) != 2 {
		t.Fatalf("30 s of one silence: %d captures, want 2", len(w.panes.captured))
	}
}

// A hook event that arrives while the witness captures wins: the capture
// is about a state the session has left.
func TestWitnessLaterHookWins(t *testing.T) {
	w := newWitnessRig(t, state.AgentClaude, "interrupt", 1)
	w.show(state.AgentClaude, "interrupt", "interrupted", true)
	w.cycle(time.Second, false)
	ls := statetest.RealLines(t, "claude", "permission-approve")
	pre := ls[2] // PreToolUse
	pre.Session, pre.Launch = w.id, statetest.RealLines(t, "claude", "interrupt")[0].Launch
	w.panes.onCapture = func() {
		pre.At = w.clk.t
		if err := AppendLine(w.col.Store.Dir, pre); err != nil {
			t.Fatal(err)
		}
	}
	_, r := w.until(10*time.Second, false, func(r *state.Record) bool { return len(w.panes.captured) > 0 })
	if r.Activity.State != state.ActivityActive || r.Activity.Outcome != state.OutcomeNone || r.Activity.Source != "hook:claude" {
		t.Fatalf("hook during the capture: activity %s outcome %q source %s, want the hook's active", r.Activity.State, r.Activity.Outcome, r.Activity.Source)
	}
}

// The witness's cost is bounded: at most 4 captures a cycle whatever the
// number of sessions in a dialog, oldest-due first; an idle one once, for a
// menu, when its output settled; none for a session in any other state.
func TestWitnessCapsCaptures(t *testing.T) {
	col, f, clk := newCollector(t)
	f.screens = map[string]string{}
	var recs []*state.Record
	var obs []state.Observation
	add := func(i int, a state.Activity, dialog bool, ag state.Agent) {
		r := statetest.Rec(a)
		r.ID, r.Name, r.Agent = fmt.Sprintf("s%07d", i), fmt.Sprintf("s%d", i), ag
		r.Runtime.PaneID, r.Runtime.SessionID, r.Pane.PID = fmt.Sprintf("%%%d", i), fmt.Sprintf("$%d", i), i+1
		r.Activity.Dialog = dialog
		r.Activity.Since = statetest.T0.Add(-time.Minute + time.Duration(i)*time.Millisecond) // oldest first: s0 … s19
		recs = append(recs, r)
		obs = append(obs, state.Observation{LanesID: r.ID, SessionID: r.Runtime.SessionID, PaneID: r.Runtime.PaneID, PID: i + 1, WindowActivity: statetest.T0})
		f.screens[r.Runtime.PaneID] = statetest.RealScreen(t, "claude", "permission-approve", "dialog")
	}
	for i := range 20 {
		add(i, state.ActivityBlocked, true, state.AgentClaude)
	}
	add(20, state.ActivityIdle, false, state.AgentClaude)
	add(21, state.ActivityWaitingInput, false, state.AgentClaude) // a stdin prompt
	add(22, state.ActivityExited, false, state.AgentClaude)
	add(23, state.ActivityBlocked, true, state.AgentShell) // no markers known
	put(t, col.Store, recs...)
	f.obs = obs
	seen := map[string]int{}
	for cyc := range 15 {
		before := len(f.captured)
		if _, err := col.Cycle(context.Background()); err != nil {
			t.Fatal(err)
		}
		n := len(f.captured) - before
		if n > state.WitnessMaxCaptures {
			t.Fatalf("cycle %d: %d captures, cap %d", cyc, n, state.WitnessMaxCaptures)
		}
		if cyc == 0 && !slices.Equal(f.captured, []string{"%0", "%1", "%2", "%3"}) {
			t.Fatalf("first cycle captured %v, want the 4 oldest dialogs", f.captured)
		}
		for _, p := range f.captured[before:] {
			seen[p]++
		}
		clk.advance(time.Second)
	}
	// The idle pane is looked at once, for a menu, when its output
	// settled (menus.go); the others never.
	if seen["%20"] != 1 {
		t.Errorf("idle pane captured %d times, want once (a menu look)", seen["%20"])
	}
	for i := 21; i < 24; i++ {
		if p := fmt.Sprintf("%%%d", i); seen[p] > 0 {
			t.Errorf("pane %s (not in a known dialog) captured %d times", p, seen[p])
		}
	}
	if len(seen) != 21 {
		t.Errorf("%d of 20 dialogs captured in 15 cycles", len(seen)-1)
	}
}

// Codex 0.171 fires no hook when a turn fails on an API error: it prints
// "■ We’re currently experiencing high demand…" above its prompt
// (testdata/real/codex/api-error). The witness reads the turn's end there
// as a failure, not an interrupt: Idle + Failed, in Needs you, and says
// why in a few words, from its line.
func TestWitnessCodexAPIErrorIsIdleFailed(t *testing.T) {
	w := newWitnessRig(t, state.AgentCodex, "api-error", 3) // SessionStart, UserPromptSubmit, notify
	w.show(state.AgentCodex, "api-error", "failed", true)
	took, r := w.until(10*time.Second, false, func(r *state.Record) bool { return r.Activity.State == state.ActivityIdle })
	d := state.Derive(r, w.clk.t)
	if took < 0 || !slices.Contains(d.Marks, state.MarkFailed) || d.Zone != state.ZoneNeedsYou || r.Activity.Failure != "server overloaded" {
		t.Fatalf("API error: after %v activity %s marks %v zone %s failure %q, want idle + failed in needs you, server overloaded",
			took, r.Activity.State, d.Marks, d.Zone, r.Activity.Failure)
	}
}

// An agent started in a folder it was never told to trust asks before it
// starts, and no hook fires while it asks (testdata/real/harness/*/trust):
// the witness looks at a launch nothing spoke for yet, and the card says
// Needs you with the question; once trusted, the prompt shows and the card
// is Idle, not interrupted.
func TestWitnessTrustQuestionAtStart(t *testing.T) {
	for _, ag := range []state.Agent{state.AgentClaude, state.AgentGemini, state.AgentCodex} {
		t.Run(string(ag), func(t *testing.T) {
			r := statetest.RealRecord(ag)
			r.Pane.PID = 100
			clk := &clock{t: statetest.T0}
			f := &fakePanes{screens: map[string]string{"%1": statetest.RealScreen(t, "harness/"+string(ag), "trust", "trust")}}
			f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: statetest.T0}}
			col := &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Panes: f, Now: clk.now}
			put(t, col.Store, r)
			w := &witnessRig{t: t, col: col, panes: f, clk: clk, id: r.ID}
			took, got := w.until(10*time.Second, false, func(r *state.Record) bool { return r.Activity.Dialog })
			if took < 0 || took > 3*time.Second {
				t.Fatalf("trust question: after %v dialog %v activity %s, want a dialog within 3 s", took, got.Activity.Dialog, got.Activity.State)
			}
			if d := state.Derive(got, clk.t); d.Status != state.StatusNeedsInput || got.Activity.Question != state.TrustQuestion {
				t.Fatalf("trust question: status %s question %q", d.Status, got.Activity.Question)
			}
			for range 10 { // it stays while it shows
				if r := w.cycle(time.Second, false); !r.Activity.Dialog {
					t.Fatalf("trust question still showing, but the dialog ended (activity %s)", r.Activity.State)
				}
			}
			if ag == state.AgentCodex { // then it asks to review the hooks it has not run
				f.screens["%1"] = statetest.RealScreen(t, "harness/codex", "trust", "hooks")
				took, got = w.until(10*time.Second, true, func(r *state.Record) bool {
					return r.Activity.Dialog && r.Activity.Question == state.HookReviewQuestion
				})
				if took < 0 || state.Derive(got, clk.t).Status != state.StatusNeedsInput {
					t.Fatalf("hook review: after %v question %q status %s", took, got.Activity.Question, state.Derive(got, clk.t).Status)
				}
			}
			f.screens["%1"] = statetest.RealScreen(t, "harness/"+string(ag), "question", "ready") // trusted: its prompt
			took, got = w.until(10*time.Second, true, func(r *state.Record) bool { return !r.Activity.Dialog })
			if d := state.Derive(got, clk.t); took < 0 || took > 5*time.Second || d.Status != state.StatusIdle || len(d.Marks) > 0 {
				t.Fatalf("trusted: after %v status %s marks %v dialog %v", took, d.Status, d.Marks, got.Activity.Dialog)
			}
		})
	}
}

// A launch that shows its prompt is looked at a few times, each further
// out, and never once the no-signal grace is over: an agent whose hooks
// stay silent costs no capture a cycle.
func TestWitnessLooksAtAFreshLaunchAFewTimes(t *testing.T) {
	r := statetest.RealRecord(state.AgentGemini)
	r.Pane.PID = 100
	clk := &clock{t: statetest.T0}
	f := &fakePanes{screens: map[string]string{"%1": statetest.RealScreen(t, "harness/gemini", "question", "ready")}}
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: statetest.T0}}
	col := &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Panes: f, Now: clk.now}
	put(t, col.Store, r)
	w := &witnessRig{t: t, col: col, panes: f, clk: clk, id: r.ID}
	for range 300 { // 5 minutes
		w.cycle(time.Second, false)
	}
	if n := len(f.captured); n == 0 || n > 7 {
		t.Fatalf("%d captures of a fresh launch in 5 minutes, want 1 to 7", n)
	}
}

// With a runner (the board), the captures run beside the cycles: a cycle
// returns while its captures are still being taken, no more than
// WitnessMaxCaptures are in flight across cycles, and a later cycle of any
// kind (here the hook-only kind the board runs on Ready) applies them.
func TestWitnessBesideTheCycle(t *testing.T) {
	col, f, _ := newCollector(t)
	col.Witness = NewWitnessRunner()
	f.screens = map[string]string{}
	release := make(chan struct{})
	var held atomic.Int32
	f.onCapture = func() { held.Add(1); <-release }
	var recs []*state.Record
	for i := range 10 {
		r := statetest.Rec(state.ActivityBlocked)
		r.ID, r.Name, r.Agent = fmt.Sprintf("s%07d", i), fmt.Sprintf("s%d", i), state.AgentClaude
		r.Runtime.PaneID, r.Runtime.SessionID, r.Pane.PID = fmt.Sprintf("%%%d", i), fmt.Sprintf("$%d", i), i+1
		r.Activity.Dialog = true
		r.Activity.Since = statetest.T0.Add(-time.Minute + time.Duration(i)*time.Millisecond)
		recs = append(recs, r)
		f.obs = append(f.obs, state.Observation{LanesID: r.ID, SessionID: r.Runtime.SessionID, PaneID: r.Runtime.PaneID, PID: i + 1, WindowActivity: statetest.T0})
		f.screens[r.Runtime.PaneID] = statetest.RealScreen(t, "claude", "permission-approve", "dialog")
	}
	put(t, col.Store, recs...)
	cycle(t, col) // returns with its captures held
	cycle(t, col) // starts none: four are in flight
	for held.Load() < state.WitnessMaxCaptures {
		runtime.Gosched()
	}
	if n := held.Load(); n != state.WitnessMaxCaptures {
		t.Fatalf("%d captures in flight after two cycles, want %d", n, state.WitnessMaxCaptures)
	}
	// One session restarts meanwhile: its capture was of the run before.
	restarted := get(t, col.Store, "s0000000")
	restarted.Runtime.Launch = "another"
	put(t, col.Store, restarted)
	close(release)
	col.Witness.Wait()
	select {
	case <-col.Witness.Ready():
	default:
		t.Fatal("Ready did not signal after the captures were taken")
	}
	ingest := &Collector{Store: col.Store, Now: col.Now, Witness: col.Witness}
	looked := 0
	for _, r := range cycle(t, ingest).Records {
		if !r.Activity.WitnessAt.IsZero() {
			looked++
		}
	}
	if looked != state.WitnessMaxCaptures-1 {
		t.Fatalf("%d records carry a capture after the hook-only cycle, want %d (the restarted one's is of its old run)", looked, state.WitnessMaxCaptures-1)
	}
}

// Gemini CLI 0.61.0 fires AfterAgent when Esc ends a turn, as at any
// turn's end: the card went Idle with nothing saying it was interrupted.
// Its screen says it: "ℹ Request cancelled." below the answer's last
// "✦ ". A turn that ended otherwise, even under an older cancel, stays
// plain idle.
func TestWitnessGeminiEscAfterAgentIsInterrupted(t *testing.T) {
	ls := statetest.RealLines(t, "gemini", "interrupt")
	w := newWitnessRig(t, state.AgentGemini, "interrupt", len(ls))
	w.show(state.AgentGemini, "interrupt", "interrupted", true)
	took, r := w.until(5*time.Second, false, func(r *state.Record) bool { return r.Activity.Outcome == state.OutcomeCancellation })
	if d := state.Derive(r, w.clk.t); took < 0 || d.Status != state.StatusIdle || !slices.Contains(d.Marks, state.MarkInterrupted) {
		t.Fatalf("Esc, then AfterAgent: after %v status %s marks %v, want idle + interrupted", took, d.Status, d.Marks)
	}
	w = newWitnessRig(t, state.AgentGemini, "interrupt", len(ls))
	w.panes.screens["%1"] = statetest.RealScreen(t, "gemini", "interrupt", "busy") // an answer under an older cancel
	w.panes.obs = []state.Observation{{LanesID: w.id, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: w.clk.t.Truncate(time.Second)}}
	if _, r := w.until(5*time.Second, false, func(*state.Record) bool { return false }); r.Activity.Outcome != state.OutcomeNone {
		t.Errorf("a turn that ended under an older cancel: outcome %q, want none", r.Activity.Outcome)
	}
}

// Gemini CLI 0.61.0 fires AfterAgent when the API fails a turn, as at any
// turn's end, and prints "✕ [API Error: …]": the card says Failed, not
// plain Idle (recorded: testdata/real/harness/gemini/api_error).
func TestWitnessGeminiAPIErrorIsFailed(t *testing.T) {
	ls := statetest.RealLines(t, "harness/gemini", "api_error")
	end := slices.IndexFunc(ls, func(l state.Line) bool { return l.Event == "AfterAgent" })
	if end < 0 {
		t.Fatal("fixture changed: no AfterAgent")
	}
	r := statetest.Replay(t, statetest.RealRecord(state.AgentGemini), ls[:end+1])
	r.Pane.PID = 100
	clk := &clock{t: ls[end].At.Add(100 * time.Millisecond)}
	f := &fakePanes{screens: map[string]string{"%1": statetest.RealScreen(t, "harness/gemini", "api_error", "failed")}}
	f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: clk.t.Truncate(time.Second)}}
	col := &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Panes: f, Now: clk.now}
	put(t, col.Store, r)
	w := &witnessRig{t: t, col: col, panes: f, clk: clk, id: r.ID}
	took, got := w.until(5*time.Second, false, func(r *state.Record) bool { return r.Activity.Outcome == state.OutcomeFailure })
	if d := state.Derive(got, clk.t); took < 0 || !slices.Contains(d.Marks, state.MarkFailed) || got.Activity.Failure != "API error" {
		t.Fatalf("API error, then AfterAgent: after %v marks %v failure %q, want failed, API error", took, d.Marks, got.Activity.Failure)
	}
}
