package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

func TestRestorableAndRevive(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ended := func(reason string) *state.Record {
		r := &state.Record{ID: "abcd1234", Name: "api", Agent: state.AgentClaude, Command: []string{"claude"}}
		state.Terminate(r, reason, "pane", at)
		return r
	}
	for _, reason := range []string{state.ReasonCleanExit, "killed by lanes kill", state.KilledWhileDown} {
		for _, named := range []bool{false, true} {
			r := ended(reason)
			if err := state.Revive(r, named); !errors.Is(err, state.ErrNotRestorable) || !r.Runtime.Terminated {
				t.Errorf("%q (named %v): Revive = %v, terminated %v; want ErrNotRestorable and still terminated", reason, named, err, r.Runtime.Terminated)
			}
		}
	}
	adopted := &state.Record{Name: "x", Adopted: true}
	if err := state.Restorable(adopted, true); !errors.Is(err, state.ErrNotRestorable) {
		t.Errorf("adopted: Restorable = %v", err)
	}
	// One the user killed comes back when they name it, never with --all
	// (killed while tmux was down is another reason: its agent may run on).
	killed := ended(state.ReasonKilled)
	if err := state.Restorable(killed, false); !errors.Is(err, state.ErrNotRestorable) || !strings.Contains(err.Error(), "`lanes restore "+killed.ID+"` brings it back") {
		t.Errorf("killed, not named: %v", err)
	}
	if err := state.Revive(killed, true); err != nil || !killed.Live() {
		t.Errorf("killed, named: Revive = %v, live %v", err, killed.Live())
	}
	r := ended(state.ReasonGone)
	r.Runtime.GoneSeenAt = at
	if err := state.Revive(r, false); err != nil {
		t.Fatal(err)
	}
	if !r.Live() || r.Runtime.TerminatedReason != "" || !r.Runtime.TerminatedAt.IsZero() || !r.Runtime.GoneSeenAt.IsZero() {
		t.Errorf("revived runtime = %+v; want live, no reason, no dates", r.Runtime)
	}
}

func TestResumeID(t *testing.T) {
	const uuid = "656a347d-113d-4d69-b757-86cf3e349c34"
	const other = "0b7e2c1a-1111-4aaa-8bbb-123456789abc"
	cases := []struct {
		name      string
		agent     state.Agent
		id, turns string // the session id now, and the one a turn last started under
		want      string
	}{
		{"claude after a turn", state.AgentClaude, uuid, uuid, uuid},
		{"claude, never a prompt", state.AgentClaude, uuid, "", ""},
		{"claude restarted, no prompt since: a new, empty conversation", state.AgentClaude, other, uuid, ""},
		{"claude, not a uuid (a picker search)", state.AgentClaude, "latest", "latest", ""},
		{"gemini, a list position", state.AgentGemini, "3", "3", ""},
		{"codex", state.AgentCodex, "01a22e86-8374-7662-9408-fc3e348f47f9", "01a22e86-8374-7662-9408-fc3e348f47f9", "01a22e86-8374-7662-9408-fc3e348f47f9"},
		{"opencode", state.AgentOpenCode, "ses_dd174b310ffeomNQZBHjkaMLWx", "ses_dd174b310ffeomNQZBHjkaMLWx", "ses_dd174b310ffeomNQZBHjkaMLWx"},
		{"opencode, a uuid", state.AgentOpenCode, uuid, uuid, ""},
		{"custom", state.AgentCustom, uuid, uuid, ""},
		{"no id", state.AgentClaude, "", "", ""},
	}
	for _, c := range cases {
		r := &state.Record{Agent: c.agent, Activity: state.ActivityFacts{ProviderSessionID: c.id, TurnSession: c.turns}}
		if got := state.ResumeID(r); got != c.want {
			t.Errorf("%s: ResumeID = %q, want %q", c.name, got, c.want)
		}
	}
	// A turn's start names the conversation it belongs to.
	r := &state.Record{Agent: state.AgentClaude, Activity: state.ActivityFacts{State: state.ActivityIdle, HooksReport: true}}
	state.Apply(r, state.Event{Kind: state.KindSessionStart, SessionSource: "startup", ProviderSessionID: uuid, At: statetest.T0})
	if state.ResumeID(r) != "" {
		t.Error("resumable before any prompt")
	}
	state.Apply(r, state.Event{Kind: state.KindTurnStart, ProviderSessionID: uuid, At: statetest.T0.Add(time.Second)})
	if state.ResumeID(r) != uuid {
		t.Errorf("after a prompt: %q", state.ResumeID(r))
	}
}

// A kill's fact wins over a read that found the session gone after the
// kill (another process's, meanwhile); an end before the kill stands.
func TestKilledWinsOverGoneAfterTheKill(t *testing.T) {
	killed := statetest.T0.Add(time.Minute)
	for _, c := range []struct {
		name    string
		goneAt  time.Time
		reason  string
		want    string
		history bool
	}{
		{"gone after the kill", killed.Add(200 * time.Millisecond), state.ReasonGone, state.ReasonKilled, true},
		{"gone long before", killed.Add(-time.Hour), state.ReasonGone, state.ReasonGone, false},
		{"exited cleanly", killed.Add(200 * time.Millisecond), state.ReasonCleanExit, state.ReasonCleanExit, false},
		{"live", time.Time{}, "", state.ReasonKilled, true},
	} {
		r := statetest.Rec(state.ActivityIdle)
		if c.reason != "" {
			r.Runtime.GoneSeenAt = c.goneAt
			state.Terminate(r, c.reason, "pane", c.goneAt.Add(time.Second))
		}
		tr := state.Killed(r, state.ReasonKilled, killed, killed.Add(3*time.Second))
		if r.Runtime.TerminatedReason != c.want || (tr != nil) != c.history {
			t.Errorf("%s: reason %q, history %v; want %q, %v", c.name, r.Runtime.TerminatedReason, tr, c.want, c.history)
		}
	}
}

// The 26th and 27th hostile re-runs: `lanes kill` stopped (SIGTERM,
// SIGKILL) after tmux ended the session but before it recorded the kill,
// or given up on a stopped server that then carried the kill out, left the
// end to the collector as "tmux session gone" or, for the server's last
// session, "tmux server exited"; restore --all started the killed command
// again. The kill set out first (Killing): the session's end is the kill
// until an answered read finds the session there KillGrace after it.
func TestKillSetOutWinsOverGone(t *testing.T) {
	errDown := errors.New("no server running")
	for _, c := range []struct {
		name string
		walk func(col *Collector, f *fakePanes, clk *clock, id string)
		want string
	}{
		{"the killer stopped", func(col *Collector, f *fakePanes, clk *clock, _ string) {
			clk.advance(100 * time.Millisecond)
		}, state.ReasonKilled},
		{"a stopped server kills it a minute on", func(col *Collector, f *fakePanes, clk *clock, _ string) {
			col.ServerGone = func(int) bool { return false } // only stopped
			f.err = errDown
			for range 6 {
				clk.advance(10 * time.Second)
				cycle(t, col)
			}
			f.err = nil
		}, state.ReasonKilled},
		{"the kill never reached tmux", func(col *Collector, f *fakePanes, clk *clock, id string) {
			f.obs = []state.Observation{alive(id)}
			clk.advance(state.KillGrace)
			cycle(t, col)
			f.obs = nil
			clk.advance(time.Hour)
		}, state.ReasonGone},
		{"its server exited with it", func(col *Collector, f *fakePanes, clk *clock, _ string) {
			col.ServerGone = func(int) bool { return true }
			f.err = errDown
		}, state.ReasonKilled},
	} {
		col, f, clk := newCollector(t)
		r := statetest.Rec(state.ActivityIdle)
		r.Runtime.ServerPID = 900
		put(t, col.Store, r)
		f.obs = []state.Observation{on(r.ID, 900)}
		cycle(t, col)
		r = get(t, col.Store, r.ID)
		state.Killing(r, clk.now(), 0)
		put(t, col.Store, r)
		f.obs = nil
		c.walk(col, f, clk, r.ID)
		cycle(t, col)
		clk.advance(1100 * time.Millisecond)
		cycle(t, col)
		got := get(t, col.Store, r.ID)
		if !got.Runtime.Terminated || got.Runtime.TerminatedReason != c.want {
			t.Errorf("%s: %q (terminated %v), want %q", c.name, got.Runtime.TerminatedReason, got.Runtime.Terminated, c.want)
		}
		if c.want == state.ReasonKilled && state.Restorable(got, false) == nil {
			t.Errorf("%s: restore --all would start it again", c.name)
		}
	}
	// The 28th: restore --all run before any read has found the killed
	// session gone (lanes kill stopped after tmux's kill) started it again.
	killing := statetest.Rec(state.ActivityIdle)
	state.Killing(killing, statetest.T0, 0)
	if err := state.Restorable(killing, false); !errors.Is(err, state.ErrNotRestorable) {
		t.Errorf("restore --all of a session being killed: %v, want it refused", err)
	}
	if err := state.Restorable(killing, true); err != nil {
		t.Errorf("restore NAME of a session being killed: %v, want it allowed", err)
	}
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	f.obs = nil
	clk.advance(time.Second)
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.TerminatedReason != state.ReasonGone {
		t.Errorf("no kill: %q, want %q", got.Runtime.TerminatedReason, state.ReasonGone)
	}
}
