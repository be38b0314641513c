package store

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// Approving a real dialog fires no hook; the witness sees the dialog gone
// while the tool's spinner draws, and the card says Working.
func TestWitnessApproveIsWorking(t *testing.T) {
	for _, c := range []struct {
		agent state.Agent
		lines int // through the dialog's event (PermissionRequest and Codex's notify, Gemini's Notification)
	}{{state.AgentClaude, 4}, {state.AgentCodex, 5}, {state.AgentGemini, 6}} {
		t.Run(string(c.agent), func(t *testing.T) {
			w := newWitnessRig(t, c.agent, "permission-approve", c.lines)
			w.show(c.agent, "permission-approve", "dialog", true)
			for range 8 { // the dialog stays: Needs input
				if r := w.cycle(time.Second, false); state.Derive(r, w.clk.t).Status != state.StatusNeedsInput || !r.Activity.Dialog {
					t.Fatalf("dialog showing: status %s dialog %v", state.Derive(r, w.clk.t).Status, r.Activity.Dialog)
				}
			}
			w.show(c.agent, "permission-approve", "running", true) // Enter: the tool runs
			took, r := w.until(8*time.Second, true, func(r *state.Record) bool { return r.Activity.State == state.ActivityActive })
			if took < 0 || took > 5*time.Second {
				t.Fatalf("approved: after %v activity %s (source %s), want active within 5 s", took, r.Activity.State, r.Activity.Source)
			}
			if d := state.Derive(r, w.clk.t); d.Status != state.StatusWorking || r.Activity.Dialog || r.Activity.Source != "witness" {
				t.Fatalf("approved: status %s dialog %v source %s", d.Status, r.Activity.Dialog, r.Activity.Source)
			}
			t.Logf("%s approve → working in %v", c.agent, took)
		})
	}
}

// Rejecting a real dialog with Esc fires no hook; the witness sees it gone
// and the pane still: Idle, and send is allowed; marked Interrupted, as the
// agent says (Claude Code's "Interrupted · What should Claude do
// instead?", Codex's "■ Conversation interrupted", Gemini's "Request
// cancelled.", whose drawing is not the tool running).
func TestWitnessEscIsIdle(t *testing.T) {
	for _, c := range []struct {
		agent state.Agent
		lines int // through the dialog's event
	}{{state.AgentClaude, 3}, {state.AgentCodex, 3}, {state.AgentGemini, 5}} {
		ag := c.agent
		// Esc redraws once, then nothing; or the pane draws on after it
		// (Gemini's did in a real run: its composer), which is not the
		// tool running.
		for _, drawsOn := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/draws-on=%t", ag, drawsOn), func(t *testing.T) {
				w := newWitnessRig(t, ag, "permission-reject", c.lines)
				w.show(ag, "permission-reject", "dialog", true)
				w.cycle(time.Second, false)
				w.show(ag, "permission-reject", "rejected", true)
				took, r := w.until(8*time.Second, drawsOn, func(r *state.Record) bool { return !r.Activity.Dialog })
				if took < 0 || took > 5*time.Second || r.Activity.State != state.ActivityIdle {
					t.Fatalf("rejected: after %v activity %s, want idle within 5 s", took, r.Activity.State)
				}
				if err := state.CanSend(r, false); err != nil || r.Activity.Dialog {
					t.Fatalf("rejected: send %v, dialog %v", err, r.Activity.Dialog)
				}
				if d := state.Derive(r, w.clk.t); d.Status != state.StatusIdle || !slices.Contains(d.Marks, state.MarkInterrupted) {
					t.Fatalf("rejected: status %s marks %v", d.Status, d.Marks)
				}
				t.Logf("%s Esc → idle in %v", ag, took)
			})
		}
	}
}

// An agent draws its dialog a moment after the hook that says it opened
// (the real Gemini CLI's ToolPermission came about a second before its
// dialog showed): captures in that moment show the screen before the
// dialog, and must not be read as the dialog answered.
func TestWitnessWaitsForTheDialogToBeDrawn(t *testing.T) {
	for _, c := range []struct {
		agent state.Agent
		lines int // through the dialog's event
	}{{state.AgentClaude, 3}, {state.AgentGemini, 5}} {
		t.Run(string(c.agent), func(t *testing.T) {
			w := newWitnessRig(t, c.agent, "permission-reject", c.lines)
			w.show(c.agent, "interrupt", "busy", true) // still the turn's screen, drawing
			for range 6 {
				if r := w.cycle(250*time.Millisecond, true); r.Activity.State != state.ActivityBlocked || !r.Activity.Dialog {
					t.Fatalf("%v after the dialog's event, before it is drawn: activity %s dialog %v", w.clk.t.Sub(r.Activity.Since), r.Activity.State, r.Activity.Dialog)
				}
			}
			w.show(c.agent, "permission-reject", "dialog", true)
			for range 8 {
				if r := w.cycle(500*time.Millisecond, false); r.Activity.State != state.ActivityBlocked {
					t.Fatalf("dialog showing: activity %s", r.Activity.State)
				}
			}
		})
	}
}

// A question stays a dialog while it shows, though its screen is not the
// permission dialog's: Codex's request_user_input shows its busy words
// ("esc to interrupt") under "enter to submit answer", Gemini's ask_user
// "Enter to select" (testdata/real/harness/*/question). Read as answered,
// the card would go Working and send's Enter would pick an answer.
func TestWitnessKeepsAQuestionShowing(t *testing.T) {
	for _, c := range []struct {
		agent state.Agent
		lines int
	}{{state.AgentCodex, 3}, {state.AgentGemini, 5}} {
		t.Run(string(c.agent), func(t *testing.T) {
			w := newWitnessRig(t, c.agent, "permission-reject", c.lines)
			w.panes.screens["%1"] = statetest.RealScreen(t, "harness/"+string(c.agent), "question", "question")
			w.panes.obs = []state.Observation{{LanesID: w.id, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: w.clk.t.Truncate(time.Second)}}
			for range 20 {
				if r := w.cycle(500*time.Millisecond, false); r.Activity.State != state.ActivityBlocked || !r.Activity.Dialog {
					t.Fatalf("%v into the question: activity %s dialog %v", w.clk.t.Sub(r.Activity.Since), r.Activity.State, r.Activity.Dialog)
				}
			}
		})
	}
}

// After lanes sent an answer, the witness looks again half a second later
// rather than at its 3 s pace, and never inside the draw grace, when a look
// proves nothing.
func TestAnsweredFromLanesLooksSoon(t *testing.T) {
	sent := statetest.T0.Add(time.Minute)
	for _, c := range []struct {
		name      string
		lastEvent time.Time
		want      time.Time
	}{
		{"dialog long open", statetest.T0, sent.Add(state.WitnessAnswerLook)},
		{"dialog just opened", sent.Add(-time.Second), sent.Add(-time.Second + state.WitnessDrawGrace)},
	} {
		r := statetest.Rec(state.ActivityBlocked)
		r.Runtime.PaneID = "%1"
		r.Activity.Dialog, r.Activity.LastEventAt = true, c.lastEvent
		r.Activity.WitnessAt = sent.Add(-time.Second) // looked a second ago: next due in 2 s
		state.AnsweredFromLanes(r, sent)
		if due, ok := state.WitnessDue(r); !ok || !due.Equal(c.want) {
			t.Errorf("%s: next look %v (%v), want %v", c.name, due, ok, c.want)
		}
	}
}

// A dialog answered from lanes: the key itself makes the agent redraw
// (Gemini prints "Request cancelled."), so only the busy indicator says
// the tool runs; a refusal goes idle, not working.
func TestWitnessAnsweredFromLanesGoesByBusy(t *testing.T) {
	for _, c := range []struct {
		screen string
		want   state.Activity
	}{
		{"ℹ Request cancelled.\n>   Type your message or @path/to/file", state.ActivityIdle},
		{"⠹ Thinking... (esc to cancel, 1s)\n>   Type your message or @path/to/file", state.ActivityActive},
	} {
		r := statetest.Rec(state.ActivityBlocked)
		r.Agent, r.Runtime.PaneID = state.AgentGemini, "%1"
		r.Activity.Dialog, r.Activity.DialogAt, r.Activity.LastEventAt = true, statetest.T0, statetest.T0
		sent := statetest.T0.Add(10 * time.Second)
		state.AnsweredFromLanes(r, sent)
		state.SeeScreen(r, c.screen, sent.Add(200*time.Millisecond))            // gone
		r.Pane.WindowActivity = sent.Add(2 * time.Second).Truncate(time.Second) // the redraw the key caused
		state.SeeScreen(r, c.screen, sent.Add(1500*time.Millisecond))           // confirmed
		if r.Activity.State != c.want || r.Activity.Dialog {
			t.Errorf("%q: activity %s dialog %v, want %s", c.screen, r.Activity.State, r.Activity.Dialog, c.want)
		}
	}
}

// Lanes' own look right after its answer, inside the draw grace, proves
// nothing and must not push the witness's next look back by 3 s.
func TestSeeScreenInsideTheGraceKeepsTheNextLook(t *testing.T) {
	r := statetest.Rec(state.ActivityBlocked)
	r.Agent, r.Runtime.PaneID = state.AgentClaude, "%1"
	r.Activity.Dialog, r.Activity.DialogAt, r.Activity.LastEventAt = true, statetest.T0, statetest.T0
	sent := statetest.T0.Add(500 * time.Millisecond)
	state.AnsweredFromLanes(r, sent)
	want, _ := state.WitnessDue(r)
	state.SeeScreen(r, "✻ Running… (esc to interrupt)", sent.Add(200*time.Millisecond))
	if got, _ := state.WitnessDue(r); !got.Equal(want) {
		t.Errorf("next look %v after lanes' look in the grace, want %v", got, want)
	}
}
