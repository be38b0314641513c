package state

import (
	"slices"
	"testing"
	"time"
)

// geminiTurn is a Gemini CLI record whose turn started at 1 s and whose
// AfterAgent came at end.
func geminiTurn(t *testing.T, end time.Duration) *Record {
	t.Helper()
	r := rec(ActivityIdle)
	r.Agent, r.Runtime.PaneID = AgentGemini, "%1"
	applyAll(t, r, ev(KindTurnStart, after(time.Second)), ev(KindTurnEnd, after(end)))
	return r
}

// looks applies a capture of screen taken d in, as the witness's cycle
// does once it is due, and returns the card's status then.
func looks(t *testing.T, r *Record, screen string, d time.Duration) Status {
	t.Helper()
	due, ok := WitnessDue(r)
	if !ok || due.After(t0.Add(d)) {
		t.Fatalf("a look at %v: due %v (%v)", d, due.Sub(t0), ok)
	}
	SeeScreen(r, screen, t0.Add(d))
	return Derive(r, t0.Add(d)).Status
}

// A prompt typed into Gemini CLI while its answer streams waits under
// "Queued (press ↑ to edit):", no hook firing, and runs as a turn of its
// own right after: AfterAgent, then BeforeAgent 0.3 s later. The card read
// Idle in between while the work went on (testdata/campaign/gemini-48-1.json).
// The hook's end waits for a look: the queue shown, it stays working till
// the next turn's hooks.
func TestGeminiQueuedPromptHoldsTheTurnsEnd(t *testing.T) {
	r := geminiTurn(t, 8*time.Second)
	if d := Derive(r, t0.Add(8*time.Second)); d.Status != StatusWorking {
		t.Fatalf("AfterAgent, not looked at: %s, want working", d.Status)
	}
	queued := realScreen(t, "gemini", "queued", "busy")
	if s := looks(t, r, queued, 8100*time.Millisecond); s != StatusWorking {
		t.Fatalf("the queue on screen: %s, want working", s)
	}
	applyAll(t, r, ev(KindTurnStart, after(8300*time.Millisecond)), ev(KindTurnEnd, after(12*time.Second)))
	if s := looks(t, r, realScreen(t, "harness/gemini", "tool", "idle"), 12*time.Second+HeldEndQuiet); s != StatusIdle {
		t.Fatalf("the queued prompt's AfterAgent, its prompt idle on screen: %s, want idle", s)
	}
	// A queue line HeldEndMax after the end is no queue (a queued turn
	// starts 0.3 s after it): a model's answer quoting it.
	r = geminiTurn(t, 8*time.Second)
	if s := looks(t, r, queued, 8100*time.Millisecond); s != StatusWorking {
		t.Fatalf("the queue line at once: %s, want working", s)
	}
	if s := looks(t, r, queued, 8*time.Second+HeldEndMax); s != StatusIdle {
		t.Fatalf("the queue line %v after the end: %s, want idle", HeldEndMax, s)
	}
}

// A turn's end with nothing queued stands once the pane shows the spinner
// gone (or, still drawing it, after HeldEndMax); any hook meanwhile
// replaces the held end.
func TestGeminiHeldEndStands(t *testing.T) {
	busy := realScreen(t, "gemini", "interrupt", "busy")
	r := geminiTurn(t, 8*time.Second)
	if s := looks(t, r, busy, 8100*time.Millisecond); s != StatusWorking {
		t.Fatalf("the spinner still drawn: %s, want working", s)
	}
	if s := looks(t, r, busy, 8100*time.Millisecond+HeldEndLook); s != StatusWorking {
		t.Fatalf("the spinner drawn again: %s, want working", s)
	}
	if s := looks(t, r, busy, 8*time.Second+HeldEndMax); s != StatusIdle {
		t.Fatalf("the spinner drawn past HeldEndMax: %s, want idle", s)
	}
	r = geminiTurn(t, 8*time.Second)
	r.Activity.Outcome = OutcomeFailure
	idle := realScreen(t, "harness/gemini", "tool", "idle")
	if s := looks(t, r, idle, 8100*time.Millisecond); s != StatusWorking {
		t.Fatalf("the prompt idle on screen at once (a queue taken off, its turn not drawn yet): %s, want working", s)
	}
	if s := looks(t, r, idle, 8*time.Second+HeldEndQuiet); s != StatusIdle || r.Activity.Outcome != OutcomeFailure {
		t.Fatalf("the prompt idle on screen: %s outcome %q; want idle, the hook's outcome kept", s, r.Activity.Outcome)
	}
	r = geminiTurn(t, 8*time.Second)
	applyAll(t, r, ev(KindAgentExit, after(8050*time.Millisecond)))
	if _, due := WitnessDue(r); due || !r.Activity.HeldEnd.IsZero() || r.Activity.State != ActivityExited {
		t.Fatalf("a hook after the held end: %s, held %v, look due %v", r.Activity.State, r.Activity.HeldEnd, due)
	}
}

// Gemini CLI writes its history again without a turn that ended
// interrupted: interrupted in its first turn and killed, it refused the
// id a restore resumed ("Invalid session identifier", exit 42; a campaign,
// slow/interrupt then tmuxkill). Only a turn that ended otherwise makes
// the conversation one to resume.
func TestGeminiResumesOnlyAKeptTurn(t *testing.T) {
	const id = "3f8cf036-07b4-4774-8b56-dd082ce9a712"
	sid := func(e *Event) { e.ProviderSessionID = id }
	r := rec(ActivityIdle)
	r.Agent, r.Runtime.PaneID = AgentGemini, "%1"
	turn := func(start time.Duration, screen string) {
		t.Helper()
		applyAll(t, r, ev(KindTurnStart, sid, after(start)), ev(KindTurnEnd, sid, after(start+2*time.Second)))
		looks(t, r, screen, start+2*time.Second+HeldEndQuiet)
	}
	applyAll(t, r, ev(KindSessionStart, src("startup"), sid, after(500*time.Millisecond)))
	interrupted := realScreen(t, "gemini", "interrupt", "interrupted")
	turn(time.Second, interrupted)
	if got := ResumeID(r); got != "" || !slices.Contains(Derive(r, t0.Add(4*time.Second)).Marks, MarkInterrupted) {
		t.Fatalf("its one turn interrupted: resume %q, marks %v; want none, interrupted", got, Derive(r, t0.Add(4*time.Second)).Marks)
	}
	// Its API failed (the real screen's "✕ [API Error"): Gemini lists no
	// conversation of failed and interrupted turns only (a 60-minute
	// campaign's restore got exit 42).
	turn(3*time.Second, realScreen(t, "harness/gemini", "api_error", "failed"))
	if got := ResumeID(r); got != "" || !slices.Contains(Derive(r, t0.Add(6*time.Second)).Marks, MarkFailed) {
		t.Fatalf("its turns failed or interrupted: resume %q, marks %v; want none, failed", got, Derive(r, t0.Add(6*time.Second)).Marks)
	}
	turn(5*time.Second, realScreen(t, "harness/gemini", "tool", "idle"))
	if got := ResumeID(r); got != id {
		t.Fatalf("a turn that ended: resume %q, want %q", got, id)
	}
	turn(9*time.Second, interrupted)
	if got := ResumeID(r); got != id {
		t.Fatalf("a later turn interrupted: resume %q, want the kept one %q", got, id)
	}
	// A turn that stopped at a choice (its usage limit's "Stop"), its hook
	// ending it from there: no history kept (a campaign's restore, exit 42).
	r = rec(ActivityIdle)
	r.Agent, r.Runtime.PaneID = AgentGemini, "%1"
	applyAll(t, r, ev(KindSessionStart, src("startup"), sid, after(500*time.Millisecond)),
		ev(KindTurnStart, sid, after(time.Second)), ev(KindAsk, sid, after(2*time.Second)), ev(KindTurnEnd, sid, after(3*time.Second)))
	if got := ResumeID(r); got != "" || r.Activity.State != ActivityIdle {
		t.Fatalf("a turn ended from a choice: resume %q (%s), want none", got, r.Activity.State)
	}
	// A first turn that ended, then its queued prompt's turn interrupted:
	// the first is kept.
	r = rec(ActivityIdle)
	r.Agent, r.Runtime.PaneID = AgentGemini, "%1"
	applyAll(t, r, ev(KindSessionStart, src("startup"), sid, after(500*time.Millisecond)),
		ev(KindTurnStart, sid, after(time.Second)), ev(KindTurnEnd, sid, after(3*time.Second)),
		ev(KindTurnStart, sid, after(3300*time.Millisecond)), ev(KindTurnEnd, sid, after(5*time.Second)))
	looks(t, r, interrupted, 5*time.Second+HeldEndQuiet)
	if got := ResumeID(r); got != id {
		t.Fatalf("a turn that ended, then its queued prompt's interrupted: resume %q, want %q", got, id)
	}
}

// A pane that cannot be read holds a hook's end no longer than
// HeldEndMax: then the hook's word stands.
func TestGeminiHeldEndUnread(t *testing.T) {
	r := geminiTurn(t, 8*time.Second)
	if _, ok := HeldEndUnread(r, t0.Add(9*time.Second)); ok {
		t.Fatal("a failed capture 1 s after the end ended it")
	}
	e, ok := HeldEndUnread(r, t0.Add(8*time.Second+HeldEndMax))
	if !ok {
		t.Fatalf("a failed capture %v after the end: still held", HeldEndMax)
	}
	Apply(r, e)
	if d := Derive(r, e.At); d.Status != StatusIdle || !r.Activity.HeldEnd.IsZero() {
		t.Errorf("after it: %s, held %v; want idle", d.Status, r.Activity.HeldEnd)
	}
}
