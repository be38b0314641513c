package state

import "testing"

// Codex 0.171 sends its notify agent-turn-complete 0.1 s into a turn, while
// the model still streams (testdata/real/codex/turn-notify: SessionStart,
// UserPromptSubmit, then the notify, under `lanes new`). When its hooks
// report the turn's start, its Stop hook ends the turn: the notify must not
// put a working card at idle.
func TestCodexNotifyMidTurnLeavesTheTurnRunning(t *testing.T) {
	r := replay(t, realRecord(AgentCodex), realLines(t, "codex", "turn-notify"))
	if r.Activity.State != ActivityActive {
		t.Fatalf("after UserPromptSubmit and the mid-turn notify: activity %s, want active", r.Activity.State)
	}
	stop := Event{Kind: KindTurnEnd, At: r.Activity.LastEventAt, Launch: r.Runtime.Launch, Source: "hook:codex", Detail: "Stop"}
	if Apply(r, stop); r.Activity.State != ActivityIdle {
		t.Fatalf("after Stop: activity %s, want idle", r.Activity.State)
	}
}

// Codex runs lanes' injected hooks only once the user trusted them; until
// then its notify is the only word of a turn's end, and it ends the turn.
func TestCodexNotifyEndsTheTurnWhenNoHookStartedIt(t *testing.T) {
	var notify Line
	for _, l := range realLines(t, "codex", "turn-notify") {
		if l.Event == "notify" {
			notify = l
		}
	}
	r := realRecord(AgentCodex)
	r.Runtime.Launch = notify.Launch
	r.Activity.State, r.Activity.Source = ActivityActive, "pane" // pane output said so
	e, ok := Translate(notify)
	if !ok {
		t.Fatal("notify not translated")
	}
	if Apply(r, e); r.Activity.State != ActivityIdle {
		t.Fatalf("notify with no hook-started turn: activity %s, want idle", r.Activity.State)
	}
}
