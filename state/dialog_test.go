package state

import (
	"errors"
	"testing"
	"time"
)

// A real agent's permission dialog is a dialog: Enter would answer it, so
// send refuses (unless forced) for as long as it shows.
func TestRealPermissionRequestIsADialog(t *testing.T) {
	for _, ag := range []Agent{AgentClaude, AgentCodex} {
		r := replay(t, realRecord(ag), realLines(t, string(ag), "permission-reject"))
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
