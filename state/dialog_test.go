package state

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// A real agent's permission dialog is a dialog: Enter would answer it, so
// send refuses (unless forced) for as long as it shows. Claude Code and
// Codex open it with PermissionRequest, Gemini CLI with Notification
// ToolPermission, OpenCode with permission.asked.
func TestRealPermissionRequestIsADialog(t *testing.T) {
	for _, c := range []struct {
		agent Agent
		lines int // through the event that opened the dialog; 0: all
	}{{AgentClaude, 0}, {AgentCodex, 0}, {AgentGemini, 0}, {AgentOpenCode, 5}} {
		ag, ls := c.agent, realLines(t, string(c.agent), "permission-reject")
		if c.lines > 0 {
			ls = ls[:c.lines]
		}
		r := replay(t, realRecord(ag), ls)
		if !r.Activity.Dialog || r.Activity.State != ActivityBlocked {
			t.Errorf("%s after PermissionRequest: dialog %v, activity %s; want a dialog, blocked", ag, r.Activity.Dialog, r.Activity.State)
		}
		if err := CanSend(r, false); !errors.Is(err, ErrInDialog) {
			t.Errorf("%s: send into the dialog: %v, want ErrInDialog", ag, err)
		}
		if err := CanSend(r, true); err != nil {
			t.Errorf("%s: forced send: %v", ag, err)
		}
	}
}

// Codex 0.171 sent its turn-complete notify 50 ms after PermissionRequest,
// with the dialog still on screen (recorded): the notify must not end the
// turn while a dialog shows; its Stop hook does that.
func TestCodexNotifyDoesNotCloseTheDialog(t *testing.T) {
	ls := realLines(t, "codex", "permission-approve")
	r := replay(t, realRecord(AgentCodex), ls[:5]) // … PermissionRequest, notify
	if ls[4].Event != "notify" {
		t.Fatalf("fixture changed: line 5 is %q", ls[4].Event)
	}
	if !r.Activity.Dialog || r.Activity.State != ActivityBlocked {
		t.Fatalf("after the notify: dialog %v, activity %s; want the dialog still blocked", r.Activity.Dialog, r.Activity.State)
	}
	r = replay(t, r, ls[5:]) // Stop, notify
	if r.Activity.Dialog || r.Activity.State != ActivityIdle {
		t.Fatalf("after Stop: dialog %v, activity %s; want idle, no dialog", r.Activity.Dialog, r.Activity.State)
	}
}

// A generic script's waiting_input or blocked is a stdin prompt, not a
// dialog: send answers it.
func TestGenericWaitingInputTakesSend(t *testing.T) {
	for _, ev := range []Activity{ActivityWaitingInput, ActivityBlocked} {
		r := realRecord(AgentCustom)
		r.Runtime.Launch = "L1"
		e, _ := Translate(Line{Agent: "generic", Event: string(ev), At: t0, Launch: "L1"})
		Apply(r, e)
		if r.Activity.State != ev || r.Activity.Dialog {
			t.Fatalf("generic %s: activity %s dialog %v", ev, r.Activity.State, r.Activity.Dialog)
		}
		if err := CanSend(r, false); err != nil {
			t.Errorf("send to a generic %s: %v, want allowed", ev, err)
		}
	}
}

// The dialog fact lasts only while the activity is blocked or waiting: any
// way out of them clears it.
func TestDialogClearsWhenTheActivityLeaves(t *testing.T) {
	dialog := func() *Record {
		r := replay(t, realRecord(AgentClaude), realLines(t, "claude", "permission-reject"))
		if !r.Activity.Dialog {
			t.Fatal("no dialog to start from")
		}
		return r
	}
	at := t0.Add(time.Minute)
	for name, leave := range map[string]func(r *Record){
		"turn start":  func(r *Record) { Apply(r, Event{Kind: KindTurnStart, At: at}) },
		"turn end":    func(r *Record) { Apply(r, Event{Kind: KindTurnEnd, At: at}) },
		"tool answer": func(r *Record) { Apply(r, Event{Kind: KindToolEnd, ToolUseID: r.Activity.AskingTool, At: at}) },
		"exit":        func(r *Record) { Apply(r, Event{Kind: KindAgentExit, At: at}) },
		"start":       func(r *Record) { Apply(r, Event{Kind: KindSessionStart, SessionSource: "startup", At: at}) },
		"restart":     func(r *Record) { Restart(r, "L2", at) },
		"kill":        func(r *Record) { Terminate(r, "killed", "user", at) },
	} {
		r := dialog()
		leave(r)
		if r.Activity.Dialog {
			t.Errorf("%s: dialog still set (activity %s)", name, r.Activity.State)
		}
	}
}

// OpenCode needs no witness: its plugin events report the human's answer
// and the interrupt (recorded with OpenCode 1.18.33). Approve is
// permission.replied "once" (Working while the tool runs), Esc is
// session.idle then permission.replied "reject" (Idle, send allowed), and
// Esc Esc mid-turn is session.error MessageAbortedError (Idle +
// Interrupted). (Ctrl-C would quit OpenCode: it is its exit key.)
func TestOpenCodeEventsSettleApproveEscInterrupt(t *testing.T) {
	ls := realLines(t, "opencode", "permission-approve")
	r := replay(t, realRecord(AgentOpenCode), ls[:7]) // … permission.asked, permission.replied
	if ls[6].Event != "permission.replied" {
		t.Fatalf("fixture changed: line 7 is %q", ls[6].Event)
	}
	if d := Derive(r, ls[6].At); d.Status != StatusWorking || r.Activity.Dialog {
		t.Errorf("approved: status %s dialog %v, want working", d.Status, r.Activity.Dialog)
	}
	r = replay(t, realRecord(AgentOpenCode), realLines(t, "opencode", "permission-reject"))
	if r.Activity.State != ActivityIdle || r.Activity.Dialog || CanSend(r, false) != nil {
		t.Errorf("rejected: activity %s dialog %v send %v, want idle and send allowed", r.Activity.State, r.Activity.Dialog, CanSend(r, false))
	}
	ls = realLines(t, "opencode", "interrupt")
	r = replay(t, realRecord(AgentOpenCode), ls)
	if d := Derive(r, ls[len(ls)-1].At); d.Status != StatusIdle || !slices.Contains(d.Marks, MarkInterrupted) {
		t.Errorf("interrupted: status %s marks %v, want idle + interrupted", d.Status, d.Marks)
	}
}

// Codex fires Interrupt, and nothing else, on Esc at its approval dialog and
// on Ctrl-C mid-turn (recorded through `lanes hook codex` under `lanes
// new`): each ends the turn Idle + Interrupted, and the Esc frees send.
func TestCodexInterruptHookEndsTheTurn(t *testing.T) {
	ls := realLines(t, "codex", "interrupt-hook") // … PermissionRequest, Interrupt, UserPromptSubmit, Interrupt
	if len(ls) != 8 || ls[5].Event != "Interrupt" || ls[7].Event != "Interrupt" {
		t.Fatalf("fixture changed: %d lines", len(ls))
	}
	r := replay(t, realRecord(AgentCodex), ls[:5])
	if !r.Activity.Dialog {
		t.Fatal("no dialog before the Esc")
	}
	for _, n := range []int{6, 8} { // after the Esc, after the Ctrl-C
		r = replay(t, r, ls[r.EventsApplied:n])
		d := Derive(r, ls[n-1].At)
		if d.Status != StatusIdle || !slices.Contains(d.Marks, MarkInterrupted) || r.Activity.Dialog || CanSend(r, false) != nil {
			t.Errorf("after line %d (%s): status %s marks %v dialog %v send %v; want idle + interrupted, send allowed",
				n, ls[n-1].Event, d.Status, d.Marks, r.Activity.Dialog, CanSend(r, false))
		}
	}
}

// The same tool and input asked again by a new call is a new dialog (a
// new DialogAt, no answer taken), and so is another input that shares the
// first one's summary (its digest differs); a second event of one dialog
// keeps its time (issue 30, item 1).
func TestDialogOfANewCall(t *testing.T) {
	line := func(at time.Duration, event, id, sum string) Line {
		return Line{V: LineVersion, At: t0.Add(at), Launch: "L1", Agent: "claude", Event: event,
			ToolName: "Bash", ToolUseID: id, ToolInput: "git status", CallSum: sum}
	}
	r := replay(t, realRecord(AgentClaude), []Line{
		line(time.Second, "UserPromptSubmit", "", ""),
		line(2*time.Second, "PreToolUse", "toolu_1", "s1"),
		line(3*time.Second, "PermissionRequest", "", "s1"),
	})
	first := r.Activity.DialogAt
	if !r.Activity.Dialog || !first.Equal(t0.Add(3*time.Second)) || r.Activity.DialogCall != "toolu_1" {
		t.Fatalf("first dialog: %+v", r.Activity)
	}
	r.Activity.AnsweredAt = t0.Add(4 * time.Second) // answered from lanes
	r = replay(t, r, []Line{line(5*time.Second, "PermissionRequest", "", "s1")})
	if !r.Activity.DialogAt.Equal(first) || r.Activity.AnsweredAt.IsZero() {
		t.Fatalf("the same dialog's event again: %+v", r.Activity)
	}
	r = replay(t, r, []Line{line(6*time.Second, "PreToolUse", "toolu_2", "s1"), line(7*time.Second, "PermissionRequest", "", "s1")})
	if !r.Activity.DialogAt.Equal(t0.Add(7*time.Second)) || !r.Activity.AnsweredAt.IsZero() || r.Activity.DialogCall != "toolu_2" {
		t.Fatalf("the same input asked by a new call: %+v", r.Activity)
	}
	r = replay(t, r, []Line{line(8*time.Second, "PermissionRequest", "", "s2")})
	if !r.Activity.DialogAt.Equal(t0.Add(8*time.Second)) || r.Activity.CallSum != "s2" {
		t.Fatalf("another input with the same summary: %+v", r.Activity)
	}
}

// OpenCode says which option its dialog took (permission.replied's
// reply, which lanes' plugin forwards; recorded with OpenCode 1.18.33):
// an answer from lanes reads it to say what really happened (§15).
func TestOpenCodeSaysWhichOptionItTook(t *testing.T) {
	for scenario, want := range map[string]string{"approve": ReplyYes, "reject": ReplyNo} {
		ls := realLines(t, "harness/opencode", scenario)
		r := replay(t, realRecord(AgentOpenCode), ls)
		var at time.Time
		for _, l := range ls {
			if l.Event == "permission.replied" {
				at = l.At
			}
		}
		if r.Activity.Replied != want || at.IsZero() || !r.Activity.RepliedAt.Equal(at) {
			t.Errorf("%s: replied %q at %v, want %q at the reply's %v", scenario, r.Activity.Replied, r.Activity.RepliedAt, want, at)
		}
	}
}
