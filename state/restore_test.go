package state

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRestorableAndRevive(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ended := func(reason string) *Record {
		r := &Record{ID: "abcd1234", Name: "api", Agent: AgentClaude, Command: []string{"claude"}}
		Terminate(r, reason, "pane", at)
		return r
	}
	for _, reason := range []string{ReasonCleanExit, "killed by lanes kill", KilledWhileDown} {
		for _, named := range []bool{false, true} {
			r := ended(reason)
			if err := Revive(r, named); !errors.Is(err, ErrNotRestorable) || !r.Runtime.Terminated {
				t.Errorf("%q (named %v): Revive = %v, terminated %v; want ErrNotRestorable and still terminated", reason, named, err, r.Runtime.Terminated)
			}
		}
	}
	adopted := &Record{Name: "x", Adopted: true}
	if err := Restorable(adopted, true); !errors.Is(err, ErrNotRestorable) {
		t.Errorf("adopted: Restorable = %v", err)
	}
	// One the user killed comes back when they name it, never with --all
	// (killed while tmux was down is another reason: its agent may run on).
	killed := ended(ReasonKilled)
	if err := Restorable(killed, false); !errors.Is(err, ErrNotRestorable) || !strings.Contains(err.Error(), "`lanes restore "+killed.ID+"` brings it back") {
		t.Errorf("killed, not named: %v", err)
	}
	if err := Revive(killed, true); err != nil || !killed.Live() {
		t.Errorf("killed, named: Revive = %v, live %v", err, killed.Live())
	}
	r := ended(ReasonGone)
	r.Runtime.GoneSeenAt = at
	if err := Revive(r, false); err != nil {
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
		agent     Agent
		id, turns string // the session id now, and the one a turn last started under
		want      string
	}{
		{"claude after a turn", AgentClaude, uuid, uuid, uuid},
		{"claude, never a prompt", AgentClaude, uuid, "", ""},
		{"claude restarted, no prompt since: a new, empty conversation", AgentClaude, other, uuid, ""},
		{"claude, not a uuid (a picker search)", AgentClaude, "latest", "latest", ""},
		{"gemini, a list position", AgentGemini, "3", "3", ""},
		{"codex", AgentCodex, "01a22e86-8374-7662-9408-fc3e348f47f9", "01a22e86-8374-7662-9408-fc3e348f47f9", "01a22e86-8374-7662-9408-fc3e348f47f9"},
		{"opencode", AgentOpenCode, "ses_dd174b310ffeomNQZBHjkaMLWx", "ses_dd174b310ffeomNQZBHjkaMLWx", "ses_dd174b310ffeomNQZBHjkaMLWx"},
		{"opencode, a uuid", AgentOpenCode, uuid, uuid, ""},
		{"custom", AgentCustom, uuid, uuid, ""},
		{"no id", AgentClaude, "", "", ""},
	}
	for _, c := range cases {
		r := &Record{Agent: c.agent, Activity: ActivityFacts{ProviderSessionID: c.id, TurnSession: c.turns}}
		if got := ResumeID(r); got != c.want {
			t.Errorf("%s: ResumeID = %q, want %q", c.name, got, c.want)
		}
	}
	// A turn's start names the conversation it belongs to.
	r := &Record{Agent: AgentClaude, Activity: ActivityFacts{State: ActivityIdle, HooksReport: true}}
	Apply(r, Event{Kind: KindSessionStart, SessionSource: "startup", ProviderSessionID: uuid, At: t0})
	if ResumeID(r) != "" {
		t.Error("resumable before any prompt")
	}
	Apply(r, Event{Kind: KindTurnStart, ProviderSessionID: uuid, At: t0.Add(time.Second)})
	if ResumeID(r) != uuid {
		t.Errorf("after a prompt: %q", ResumeID(r))
	}
}

// A kill's fact wins over a read that found the session gone after the
// kill (another process's, meanwhile); an end before the kill stands.
func TestKilledWinsOverGoneAfterTheKill(t *testing.T) {
	killed := t0.Add(time.Minute)
	for _, c := range []struct {
		name    string
		goneAt  time.Time
		reason  string
		want    string
		history bool
	}{
		{"gone after the kill", killed.Add(200 * time.Millisecond), ReasonGone, ReasonKilled, true},
		{"gone long before", killed.Add(-time.Hour), ReasonGone, ReasonGone, false},
		{"exited cleanly", killed.Add(200 * time.Millisecond), ReasonCleanExit, ReasonCleanExit, false},
		{"live", time.Time{}, "", ReasonKilled, true},
	} {
		r := rec(ActivityIdle)
		if c.reason != "" {
			r.Runtime.GoneSeenAt = c.goneAt
			Terminate(r, c.reason, "pane", c.goneAt.Add(time.Second))
		}
		tr := Killed(r, ReasonKilled, killed, killed.Add(3*time.Second))
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
		}, ReasonKilled},
		{"a stopped server kills it a minute on", func(col *Collector, f *fakePanes, clk *clock, _ string) {
			col.ServerGone = func(int) bool { return false } // only stopped
			f.err = errDown
			for range 6 {
				clk.advance(10 * time.Second)
				cycle(t, col)
			}
			f.err = nil
		}, ReasonKilled},
		{"the kill never reached tmux", func(col *Collector, f *fakePanes, clk *clock, id string) {
			f.obs = []Observation{alive(id)}
			clk.advance(KillGrace)
			cycle(t, col)
			f.obs = nil
			clk.advance(time.Hour)
		}, ReasonGone},
		{"its server exited with it", func(col *Collector, f *fakePanes, clk *clock, _ string) {
			col.ServerGone = func(int) bool { return true }
			f.err = errDown
		}, ReasonKilled},
	} {
		col, f, clk := newCollector(t)
		r := rec(ActivityIdle)
		r.Runtime.ServerPID = 900
		put(t, col.Store, r)
		f.obs = []Observation{on(r.ID, 900)}
		cycle(t, col)
		r = get(t, col.Store, r.ID)
		Killing(r, clk.now(), 0)
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
		if c.want == ReasonKilled && Restorable(got, false) == nil {
			t.Errorf("%s: restore --all would start it again", c.name)
		}
	}
	// The 28th: restore --all run before any read has found the killed
	// session gone (lanes kill stopped after tmux's kill) started it again.
	killing := rec(ActivityIdle)
	Killing(killing, t0, 0)
	if err := Restorable(killing, false); !errors.Is(err, ErrNotRestorable) {
		t.Errorf("restore --all of a session being killed: %v, want it refused", err)
	}
	if err := Restorable(killing, true); err != nil {
		t.Errorf("restore NAME of a session being killed: %v, want it allowed", err)
	}
	col, f, clk := newCollector(t)
	r := rec(ActivityIdle)
	put(t, col.Store, r)
	f.obs = nil
	clk.advance(time.Second)
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.TerminatedReason != ReasonGone {
		t.Errorf("no kill: %q, want %q", got.Runtime.TerminatedReason, ReasonGone)
	}
}
