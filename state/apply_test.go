package state

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// ev builds an event of the current launch ("L1").
func ev(kind EventKind, opts ...func(*Event)) Event {
	e := Event{Kind: kind, Launch: "L1", At: t0.Add(time.Second), Source: "hook:claude"}
	for _, o := range opts {
		o(&e)
	}
	return e
}

func tool(id string) func(*Event)   { return func(e *Event) { e.ToolUseID = id } }
func src(s string) func(*Event)     { return func(e *Event) { e.SessionSource = s } }
func agentID(s string) func(*Event) { return func(e *Event) { e.AgentID = s } }
func launch(s string) func(*Event)  { return func(e *Event) { e.Launch = s } }
func outc(o Outcome) func(*Event)   { return func(e *Event) { e.Outcome = o } }
func at(t time.Time) func(*Event)   { return func(e *Event) { e.At = t } }
func applyAll(t *testing.T, r *Record, evs ...Event) {
	t.Helper()
	for _, e := range evs {
		Apply(r, e)
	}
}

func TestApplyTransitions(t *testing.T) {
	cases := []struct {
		name  string
		start Activity
		setup []Event
		evs   []Event
		want  Activity
	}{
		{"turn start from idle", ActivityIdle, nil, []Event{ev(KindTurnStart)}, ActivityActive},
		{"turn start clears waiting", ActivityWaitingInput, nil, []Event{ev(KindTurnStart)}, ActivityActive},
		{"turn start clears blocked", ActivityBlocked, nil, []Event{ev(KindTurnStart)}, ActivityActive},
		{"tool start sets active", ActivityIdle, nil, []Event{ev(KindToolStart, tool("t1"))}, ActivityActive},
		{"tool start keeps waiting", ActivityWaitingInput, nil, []Event{ev(KindToolStart, tool("t2"))}, ActivityWaitingInput},
		{"working keeps blocked", ActivityBlocked, nil, []Event{ev(KindWorking)}, ActivityBlocked},
		{"turn end → idle", ActivityActive, nil, []Event{ev(KindTurnEnd)}, ActivityIdle},
		{"turn end clears blocked", ActivityBlocked, nil, []Event{ev(KindTurnEnd)}, ActivityIdle},
		{"ask → waiting_input", ActivityActive, nil, []Event{ev(KindAsk, tool("ask1"))}, ActivityWaitingInput},
		{"block → blocked", ActivityActive, nil, []Event{ev(KindBlock)}, ActivityBlocked},
		{"idle prompt from active", ActivityActive, nil, []Event{ev(KindIdlePrompt)}, ActivityIdle},
		{"idle prompt never clears waiting", ActivityWaitingInput, nil, []Event{ev(KindIdlePrompt)}, ActivityWaitingInput},
		{"idle prompt never clears blocked", ActivityBlocked, nil, []Event{ev(KindIdlePrompt)}, ActivityBlocked},
		{"session start startup → idle", ActivityActive, nil, []Event{ev(KindSessionStart, src("startup"))}, ActivityIdle},
		{"session start resume → idle", ActivityExited, nil, []Event{ev(KindSessionStart, src("resume"))}, ActivityIdle},
		{"compact mid-turn keeps active", ActivityActive, nil, []Event{ev(KindSessionStart, src("compact"))}, ActivityActive},
		{"clear keeps active", ActivityActive, nil, []Event{ev(KindSessionStart, src("clear"))}, ActivityActive},
		{"agent exit", ActivityActive, nil, []Event{ev(KindAgentExit)}, ActivityExited},
		{"agent exit clears waiting", ActivityWaitingInput, nil, []Event{ev(KindAgentExit)}, ActivityExited},
		{"exited ignores tools", ActivityExited, nil, []Event{ev(KindToolStart, tool("t"))}, ActivityExited},
		{"exited ignores turn end", ActivityExited, nil, []Event{ev(KindTurnEnd)}, ActivityExited},
		{"exited left by turn start (relaunch)", ActivityExited, nil, []Event{ev(KindTurnStart)}, ActivityActive},
		{"exited not left by compact", ActivityExited, nil, []Event{ev(KindSessionStart, src("compact"))}, ActivityExited},
		{"signal changes nothing", ActivityIdle, nil, []Event{ev(KindSignal)}, ActivityIdle},
		{"subagent start in a turn → active", ActivityActive, nil, []Event{ev(KindSubagentStart, agentID("a1"))}, ActivityActive},
		{"subagent start after the turn: background, idle", ActivityIdle, nil, []Event{ev(KindSubagentStart, agentID("a1"))}, ActivityIdle},
		{"turn end waits for subagents", ActivityActive,
			[]Event{ev(KindSubagentStart, agentID("a1")), ev(KindSubagentStart, agentID("a2"))},
			[]Event{ev(KindTurnEnd)}, ActivityActive},
		{"last subagent stop ends the turn", ActivityActive,
			[]Event{ev(KindSubagentStart, agentID("a1")), ev(KindSubagentStart, agentID("a2")), ev(KindTurnEnd), ev(KindSubagentStop, agentID("a1"))},
			[]Event{ev(KindSubagentStop, agentID("a2"))}, ActivityIdle},
		{"subagent stop mid-turn keeps active", ActivityActive,
			[]Event{ev(KindSubagentStart, agentID("a1"))},
			[]Event{ev(KindSubagentStop, agentID("a1"))}, ActivityActive},
		{"waiting survives a parallel tool", ActivityActive,
			[]Event{ev(KindToolStart, tool("par")), ev(KindAsk, tool("ask"))},
			[]Event{ev(KindToolEnd, tool("par")), ev(KindToolStart, tool("p2")), ev(KindToolEnd, tool("p2"))}, ActivityWaitingInput},
		{"asking call's completion answers", ActivityActive,
			[]Event{ev(KindToolStart, tool("par")), ev(KindAsk, tool("ask"))},
			[]Event{ev(KindToolEnd, tool("ask"))}, ActivityActive},
		{"permission for the only call in flight", ActivityActive,
			[]Event{ev(KindToolStart, tool("bash1")), ev(KindBlock)},
			[]Event{ev(KindToolEnd, tool("bash1"))}, ActivityActive},
		{"permission with several in flight waits for all", ActivityActive,
			[]Event{ev(KindToolStart, tool("a")), ev(KindToolStart, tool("b")), ev(KindBlock)},
			[]Event{ev(KindToolEnd, tool("a"))}, ActivityBlocked},
		{"permission with several in flight: all done", ActivityActive,
			[]Event{ev(KindToolStart, tool("a")), ev(KindToolStart, tool("b")), ev(KindBlock)},
			[]Event{ev(KindToolEnd, tool("a")), ev(KindToolEnd, tool("b"))}, ActivityActive},
		{"permission with nothing in flight needs a turn boundary", ActivityActive,
			[]Event{ev(KindBlock)},
			[]Event{ev(KindToolEnd, tool("x")), ev(KindWorking)}, ActivityBlocked},
		{"anonymous calls in flight", ActivityActive,
			[]Event{ev(KindToolStart), ev(KindBlock)},
			[]Event{ev(KindToolEnd)}, ActivityActive},
		{"a later active signal never revives a pending wait", ActivityActive,
			[]Event{ev(KindAsk, tool("q")), ev(KindTurnStart)},
			[]Event{ev(KindToolStart, tool("t")), ev(KindToolEnd, tool("q")), ev(KindTurnEnd)}, ActivityIdle},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rec(c.start)
			applyAll(t, r, c.setup...)
			applyAll(t, r, c.evs...)
			if r.Activity.State != c.want {
				t.Errorf("activity = %s, want %s", r.Activity.State, c.want)
			}
		})
	}
}

func TestApplyFencing(t *testing.T) {
	r := rec(ActivityIdle)
	if _, drop := Apply(r, ev(KindTurnStart, launch("L0"))); drop != DropStaleLaunch {
		t.Fatalf("stale launch: drop = %q", drop)
	}
	if r.Activity.State != ActivityIdle {
		t.Fatalf("a stale-launch event changed activity to %s", r.Activity.State)
	}
	if _, drop := Apply(r, ev(KindTurnStart, launch(""))); drop != "" {
		t.Fatalf("a manual event (no launch) targets the current launch; dropped %q", drop)
	}

	term := terminated(rec(ActivityIdle))
	if _, drop := Apply(term, ev(KindTurnStart)); drop != DropTerminated {
		t.Fatalf("terminated: drop = %q", drop)
	}
	merged := PR{Number: 3, State: PRStateMerged, Review: ReviewApproved, CI: CIPassing, Mergeable: MergeableYes}
	if _, drop := Apply(term, Event{Kind: KindPR, Launch: "old", PR: &merged, At: t0}); drop != "" {
		t.Fatalf("a PR fact must apply to a terminated record whatever its launch; dropped %q", drop)
	}
	if d := Derive(term, t0); d.Status != StatusMerged || d.Zone != ZoneDone {
		t.Fatalf("PR merged after the kill: %s/%s, want merged/done", d.Status, d.Zone)
	}
}

func TestAgentExitNeverTerminates(t *testing.T) {
	r := rec(ActivityActive)
	applyAll(t, r, ev(KindToolStart, tool("t1")), ev(KindAgentExit))
	if r.Runtime.Terminated {
		t.Fatal("an agent exit set is_terminated")
	}
	if r.Activity.State != ActivityExited || len(r.Activity.ToolsInFlight) != 0 {
		t.Fatalf("after exit: %s with calls %v; want exited and no stale calls", r.Activity.State, r.Activity.ToolsInFlight)
	}
	Apply(r, ev(KindToolStart, tool("late")))
	if len(r.Activity.ToolsInFlight) != 0 {
		t.Fatal("an exited agent accumulated tool-flight state")
	}
}

func TestTerminateAndRestart(t *testing.T) {
	r := rec(ActivityWaitingInput)
	if tr := Terminate(r, "killed by user", "user", t0.Add(time.Minute)); tr == nil || tr.To != ActivityExited {
		t.Fatalf("Terminate transition = %+v", tr)
	}
	if !r.Runtime.Terminated || r.Activity.State != ActivityExited || r.Runtime.TerminatedReason != "killed by user" {
		t.Fatalf("after Terminate: %+v %+v", r.Runtime, r.Activity)
	}

	r = rec(ActivityActive)
	applyAll(t, r, ev(KindToolStart, tool("t1")), ev(KindSubagentStart, agentID("a")), ev(KindTurnEnd, outc(OutcomeCancellation)))
	r.Pane = Pane{PID: 10, Dead: true, Confirmations: 2}
	Restart(r, "L2", t0.Add(time.Hour))
	a := r.Activity
	if r.Runtime.Launch != "L2" || a.State != ActivityIdle || a.Source != "user" || a.Outcome != "" ||
		!a.FirstSignalAt.IsZero() || len(a.ToolsInFlight)+len(a.Subagents) != 0 || r.Pane.Dead {
		t.Fatalf("after Restart: %+v %+v %+v", r.Runtime, a, r.Pane)
	}
	// Until the respawn is seen, the old agent may be the one running.
	if _, drop := Apply(r, ev(KindTurnStart)); drop != "" {
		t.Fatalf("old launch while the restart is in flight: drop = %q", drop)
	}
	Respawned(r)
	if _, drop := Apply(r, ev(KindTurnStart)); drop != DropStaleLaunch {
		t.Fatalf("old launch after the respawn: drop = %q", drop)
	}
}

func TestOutcome(t *testing.T) {
	r := rec(ActivityActive)
	Apply(r, ev(KindTurnEnd, outc(OutcomeCancellation)))
	if d := Derive(r, t0); !slices.Equal(d.Marks, []Mark{MarkInterrupted}) {
		t.Fatalf("interrupted turn: marks %v", d.Marks)
	}
	Apply(r, ev(KindTurnStart))
	if r.Activity.Outcome != OutcomeNone {
		t.Fatal("a turn start must clear the last outcome")
	}
	Apply(r, ev(KindTurnEnd, outc(OutcomeFailure)))
	if r.Activity.State != ActivityIdle || r.Activity.Outcome != OutcomeFailure {
		t.Fatalf("StopFailure: %s %s, want idle failure", r.Activity.State, r.Activity.Outcome)
	}
}

func TestTurnStartAfterWaitWithPR(t *testing.T) {
	r := rec(ActivityWaitingInput, prPending)
	Apply(r, ev(KindTurnStart))
	if d := Derive(r, t0.Add(2*time.Second)); d.Status != StatusWorking || d.Zone != ZoneWorking {
		t.Fatalf("turn start after waiting with an open PR: %s/%s", d.Status, d.Zone)
	}
}

func TestFirstSignalAndSince(t *testing.T) {
	r := rec(ActivityIdle)
	r.Activity.FirstSignalAt = time.Time{}
	Apply(r, ev(KindSignal, at(t0.Add(5*time.Second))))
	if !r.Activity.FirstSignalAt.Equal(t0.Add(5 * time.Second)) {
		t.Fatalf("first signal = %v", r.Activity.FirstSignalAt)
	}
	// A clock jump backwards: the spool order wins and since never goes back.
	Apply(r, ev(KindTurnStart, at(t0.Add(10*time.Second))))
	Apply(r, ev(KindTurnEnd, at(t0.Add(-time.Hour))))
	if r.Activity.State != ActivityIdle || r.Activity.Since.Before(t0.Add(10*time.Second)) {
		t.Fatalf("after a backwards clock: %s since %v", r.Activity.State, r.Activity.Since)
	}
}

func TestPRUpsert(t *testing.T) {
	r := rec(ActivityIdle)
	p := prPending
	Apply(r, Event{Kind: KindPR, PR: &p, At: t0})
	p.Review = ReviewApproved
	p.Mergeable = MergeableYes
	Apply(r, Event{Kind: KindPR, PR: &p, At: t0.Add(time.Minute)})
	if len(r.PRs) != 1 || Derive(r, t0).Status != StatusMergeable {
		t.Fatalf("PR upsert: %+v", r.PRs)
	}
}

func TestCanSend(t *testing.T) {
	cases := []struct {
		name  string
		rec   func() *Record
		force bool
		want  error
	}{
		{"live and idle", func() *Record { return rec(ActivityIdle) }, false, nil},
		{"terminated", func() *Record { r := rec(ActivityIdle); Terminate(r, "killed by user", "user", t0); return r }, false, ErrTerminated},
		{"exited", func() *Record { return rec(ActivityExited) }, false, ErrAgentExited},
		{"dead pane", func() *Record { r := rec(ActivityActive); r.Pane.Dead = true; return r }, false, ErrAgentExited},
		{"in a dialog", func() *Record { r := rec(ActivityWaitingInput); r.Activity.Dialog = true; return r }, false, ErrInDialog},
		{"in a dialog, forced", func() *Record { r := rec(ActivityBlocked); r.Activity.Dialog = true; return r }, true, nil},
		{"at a stdin prompt", func() *Record { return rec(ActivityWaitingInput) }, false, nil},
		{"unreachable", func() *Record { r := rec(ActivityIdle); r.Runtime.UnreachableSince = t0; return r }, true, ErrUnreachable},
	}
	for _, c := range cases {
		if got := CanSend(c.rec(), c.force); !errors.Is(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("%s: CanSend = %v, want %v", c.name, got, c.want)
		}
	}
}
