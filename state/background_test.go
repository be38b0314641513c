package state

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func auto(task string) func(*Event) {
	return func(e *Event) { e.Automatic, e.TaskDone = true, task }
}

func started(w string) func(*Event) { return func(e *Event) { e.BackgroundStart = w } }

func after(d time.Duration) func(*Event) { return at(t0.Add(d)) }

// derived is the status, zone and marks of r a moment after t0+d.
func derived(r *Record, d time.Duration) Derivation { return Derive(r, t0.Add(d+time.Second)) }

// Issue 32 item 2: after an API error the card said Needs you + Failed;
// the turn Claude Code starts by itself when a background job ends moved
// it to Idle and erased the mark, with nobody having looked. The failure
// now outlives the automatic turn (Working, still in Needs you, while it
// runs) until the human looks; a human's turn ends it as before.
func TestAutomaticTurnKeepsAnUnseenFailure(t *testing.T) {
	r := rec(ActivityIdle)
	applyAll(t, r,
		ev(KindTurnStart, after(1*time.Second)),
		ev(KindToolEnd, tool("t1"), started("shell:b1"), after(2*time.Second)),
		ev(KindTurnEnd, outc(OutcomeFailure), after(3*time.Second)),
		ev(KindTurnStart, auto("b1"), after(10*time.Second)))
	if d := derived(r, 10*time.Second); d.Status != StatusWorking || d.Zone != ZoneNeedsYou || !slices.Contains(d.Marks, MarkFailed) {
		t.Fatalf("automatic turn over a failure: %+v, want working, failed, in needs_you", d)
	}
	if len(r.Activity.Background) != 0 {
		t.Errorf("background after the job's notification: %v, want none", r.Activity.Background)
	}
	applyAll(t, r, ev(KindTurnEnd, after(12*time.Second)))
	if d := derived(r, 12*time.Second); d.Status != StatusIdle || d.Zone != ZoneNeedsYou || !slices.Contains(d.Marks, MarkFailed) {
		t.Fatalf("after the automatic turn: %+v, want idle + failed in needs_you", d)
	}
	Seen(r, t0.Add(20*time.Second))
	if d := derived(r, 20*time.Second); d.Zone != ZoneWorking || len(d.Marks) != 0 {
		t.Errorf("seen: %+v, want plain idle", d)
	}
}

// A failure the human has seen goes with the next turn, automatic or not;
// an interrupt nobody saw outlives an automatic turn as a failure does.
func TestAutomaticTurnAfterSeenAndInterrupt(t *testing.T) {
	r := rec(ActivityIdle)
	applyAll(t, r, ev(KindTurnStart, after(time.Second)), ev(KindTurnEnd, outc(OutcomeFailure), after(2*time.Second)))
	if !NeedsSeen(r) {
		t.Fatal("a failure nobody looked at: NeedsSeen false")
	}
	Seen(r, t0.Add(5*time.Second))
	if NeedsSeen(r) {
		t.Fatal("seen: NeedsSeen still true")
	}
	applyAll(t, r, ev(KindTurnStart, auto(""), after(10*time.Second)), ev(KindTurnEnd, after(11*time.Second)))
	if d := derived(r, 11*time.Second); len(d.Marks) != 0 || d.Zone != ZoneWorking {
		t.Errorf("automatic turn after a seen failure: %+v, want plain idle", d)
	}

	r = rec(ActivityIdle)
	applyAll(t, r, ev(KindTurnStart, after(time.Second)), ev(KindTurnEnd, outc(OutcomeCancellation), after(2*time.Second)),
		ev(KindTurnStart, auto(""), after(10*time.Second)))
	if d := derived(r, 10*time.Second); d.Status != StatusWorking || !slices.Contains(d.Marks, MarkInterrupted) {
		t.Errorf("automatic turn over an interrupt: %+v, want working + interrupted", d)
	}
	applyAll(t, r, ev(KindTurnEnd, after(11*time.Second)), ev(KindTurnStart, after(20*time.Second)), ev(KindTurnEnd, after(21*time.Second)))
	if d := derived(r, 21*time.Second); len(d.Marks) != 0 {
		t.Errorf("a human's turn after: %+v, want no mark", d)
	}
}

// A background subagent's own tools and turn are not the session's: the
// card stays idle and keeps its last tool; its permission still asks.
func TestBackgroundAgentIsNotTheSession(t *testing.T) {
	r := rec(ActivityIdle)
	applyAll(t, r,
		ev(KindTurnStart, after(time.Second)),
		ev(KindToolStart, tool("t1"), func(e *Event) { e.ToolName, e.ToolInput = "Agent", "Look around" }, after(2*time.Second)),
		ev(KindSubagentStart, agentID("a1"), after(3*time.Second)),
		ev(KindToolEnd, tool("t1"), started("agent:a1"), after(4*time.Second)),
		ev(KindTurnEnd, after(5*time.Second)),
		ev(KindToolStart, tool("t2"), agentID("a1"), func(e *Event) { e.ToolName, e.ToolInput = "Bash", "ls" }, after(6*time.Second)),
		ev(KindToolEnd, tool("t2"), agentID("a1"), after(7*time.Second)))
	if a := r.Activity; a.State != ActivityIdle || a.Tool != "Agent" || len(a.Subagents) != 0 {
		t.Fatalf("after the background agent's tool: %s, tool %q, subagents %v; want idle, Agent, none", a.State, a.Tool, a.Subagents)
	}
	if d := derived(r, 7*time.Second); d.Status != StatusIdle || !slices.Contains(d.Marks, MarkBackground) {
		t.Errorf("card: %+v, want idle + background", d)
	}
	applyAll(t, r, ev(KindBlock, tool("t3"), agentID("a1"), after(8*time.Second)))
	if r.Activity.State != ActivityBlocked {
		t.Errorf("its permission request: %s, want blocked (the human must answer it)", r.Activity.State)
	}
}

// A turn end's list is the truth about what runs; an exit or a restart
// forgets it all. Ids that could carry anything are not kept.
func TestBackgroundListAndEnd(t *testing.T) {
	r := rec(ActivityIdle)
	list := []string{"shell:x1", "agent:y2"}
	applyAll(t, r, ev(KindToolEnd, started("shell:old"), after(time.Second)), ev(KindTurnEnd, func(e *Event) { e.Background = &list }, after(2*time.Second)))
	if !slices.Equal(r.Activity.Background, list) || BackgroundSays(r.Activity.Background, false) != "1 background job, 1 agent" ||
		BackgroundSays(r.Activity.Background, true) != "1 job, 1 agent" {
		t.Fatalf("background %v (%q), want the Stop's list", r.Activity.Background, BackgroundSays(r.Activity.Background, false))
	}
	applyAll(t, r, ev(KindAgentExit, after(3*time.Second)))
	if len(r.Activity.Background) != 0 || slices.Contains(derived(r, 3*time.Second).Marks, MarkBackground) {
		t.Errorf("after the agent's exit: %v", r.Activity.Background)
	}
	got := BackgroundList([]byte(`[{"id":"ok_1","type":"shell","status":"running"},{"id":"a\u001b]0;x","type":"shell","status":"running"},` +
		`{"id":"done","type":"subagent","status":"completed"},{"id":"s2","type":"subagent","status":"running"}]`))
	if got == nil || !slices.Equal(*got, []string{"shell:ok_1", "agent:s2"}) {
		t.Errorf("BackgroundList = %v", got)
	}
	// Qwen Code 0.24.4's Stop (testdata/real/harness/qwen/background_agent).
	got = BackgroundList([]byte(`[{"id":"general-purpose-call_1_0","status":"running","agent_type":"general-purpose","description":"Look around"}]`))
	if got == nil || !slices.Equal(*got, []string{"agent:general-purpose-call_1_0"}) {
		t.Errorf("BackgroundList of Qwen Code's = %v", got)
	}
	if BackgroundList([]byte(`null`)) == nil || BackgroundList(nil) != nil {
		t.Error("an absent list must be nil, an empty one not")
	}
	if auto, task := AutomaticPrompt([]byte(`"<task-notification>\n<task-id>bo5y0r5a1</task-id>\n<status>completed</status>"`)); !auto || task != "bo5y0r5a1" {
		t.Errorf("AutomaticPrompt = %v %q", auto, task)
	}
	if auto, _ := AutomaticPrompt([]byte(`"please read <task-notification>"`)); auto {
		t.Error("a prompt that only mentions the tag is a human's")
	}
}

// Issue 32, item 6: after the agent's own /resume picker switched to
// another conversation (SessionStart source resume, its id), a restore
// resumed the one before; after /clear it resumes nothing until the new
// conversation has a turn (and then that one).
func TestRestoreFollowsTheConversation(t *testing.T) {
	const a, b, c = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"
	sid := func(id string) func(*Event) { return func(e *Event) { e.ProviderSessionID = id } }
	r := rec(ActivityIdle)
	applyAll(t, r, ev(KindSessionStart, src("startup"), sid(a), after(time.Second)), ev(KindTurnStart, sid(a), after(2*time.Second)),
		ev(KindTurnEnd, after(3*time.Second)))
	if got := ResumeID(r); got != a {
		t.Fatalf("after a turn: ResumeID %q, want %q", got, a)
	}
	applyAll(t, r, ev(KindSignal, sid(a), after(4*time.Second)), ev(KindSessionStart, src("resume"), sid(b), after(5*time.Second)))
	if got := ResumeID(r); got != b {
		t.Errorf("after /resume to another conversation: ResumeID %q, want %q", got, b)
	}
	applyAll(t, r, ev(KindSessionStart, src("clear"), sid(c), after(6*time.Second)))
	if got := ResumeID(r); got != "" {
		t.Errorf("after /clear: ResumeID %q, want none (the new conversation has no turn)", got)
	}
	applyAll(t, r, ev(KindTurnStart, sid(c), after(7*time.Second)))
	if got := ResumeID(r); got != c {
		t.Errorf("after the cleared conversation's first turn: ResumeID %q, want %q", got, c)
	}
}

// Codex 0.171.0 leaves a command running past its turn (exec_command's
// yield_time_ms over) and no hook says so, at its start or its end; only
// "1 background terminal running" above its prompt does. The idle look
// keeps it as the record's background work, and drops it when the line
// goes.
func TestWitnessReadsCodexsBackgroundTerminals(t *testing.T) {
	screen := func(name string) string { return realScreen(t, "harness/codex", "background_shell", name) }
	r := rec(ActivityIdle)
	r.Agent = AgentCodex
	SeeScreen(r, screen("idle-background"), t0.Add(2*time.Second))
	if d := Derive(r, t0.Add(3*time.Second)); len(r.Activity.Background) != 1 || d.Status != StatusIdle || !slices.Contains(d.Marks, MarkBackground) {
		t.Fatalf("the line shown: background %q, card %+v; want one shell, idle + background", r.Activity.Background, d)
	}
	SeeScreen(r, screen("done"), t0.Add(25*time.Second))
	if d := Derive(r, t0.Add(26*time.Second)); len(r.Activity.Background) != 0 || slices.Contains(d.Marks, MarkBackground) {
		t.Errorf("the line gone: background %q, marks %q; want none", r.Activity.Background, d.Marks)
	}
	var a ActivityFacts
	codexMarkers.seeShells(&a, Screen("  12 background terminals running · /ps to view\n› "))
	if len(a.Background) != 12 {
		t.Errorf("12 terminals: %d kept", len(a.Background))
	}
}

// OpenCode 1.18.33 (OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS): the task
// tool's background subagent runs as a child session past its parent's
// turn; the card said Working for all of it. Replayed from the recorded
// run: the parent's idle names the child still busy (lanes' plugin), the
// card is idle + one background agent, the child's own events change
// nothing, and OpenCode's own prompt when the child ends (`<task
// id="ses_…" state="completed">`) is an automatic turn that clears it.
func TestOpenCodesBackgroundSubagent(t *testing.T) {
	ls := realLines(t, "harness/opencode", "background_agent")
	r := realRecord(AgentOpenCode)
	bg := -1
	for i, l := range ls {
		if l.Background != nil && len(*l.Background) == 1 {
			bg = i
			break
		}
	}
	if bg < 0 {
		t.Fatal("no line of the recorded run names background work")
	}
	replay(t, r, ls[:bg+1])
	if d := Derive(r, r.Activity.LastEventAt); d.Status != StatusIdle || BackgroundCount(r.Activity.Background, BackgroundAgent) != 1 || len(r.Activity.Subagents) != 0 {
		t.Fatalf("the parent's turn over, its child busy: %s, background %q, subagents %q; want idle, one agent, none holding the turn",
			d.Status, r.Activity.Background, r.Activity.Subagents)
	}
	auto := slices.IndexFunc(ls, func(l Line) bool { return l.Automatic })
	if auto < bg {
		t.Fatal("no automatic turn after the background work in the recorded run")
	}
	replay(t, r, ls[bg+1:auto+1])
	if a := r.Activity; a.State != ActivityActive || len(a.Background) != 0 || !a.Automatic {
		t.Errorf("its automatic turn: %s, background %q, automatic %v; want active, none, automatic", a.State, a.Background, a.Automatic)
	}
	if auto, task := AutomaticPrompt([]byte(`"<task id=\"ses_dc71c6028ffeSe4DMF3tYKjMiX\" state=\"completed\">\n<summary>Background task completed: Look around</summary>"`)); !auto || task != "ses_dc71c6028ffeSe4DMF3tYKjMiX" {
		t.Errorf("OpenCode's prompt: AutomaticPrompt = %v %q", auto, task)
	}
}

// Issue 32, item 2: Claude Code's scheduled wakeups and cron fires start
// turns by themselves; its UserPromptSubmit names who wrote the prompt
// (`source`), and only the composer's ("user") or -p's ("sdk") is a
// human's. Where it names none (2.1.332's task notifications), the
// prompt's own tag says.
func TestClaudePromptSourceSaysAutomatic(t *testing.T) {
	for source, auto := range map[string]bool{"": false, "user": false, "sdk": false,
		"loop_wakeup": true, "schedule_wakeup": true, "system": true, "poll_event": true} {
		e, ok := claudeEvent(Line{Event: "UserPromptSubmit", Source: source})
		if !ok || e.Kind != KindTurnStart || e.Automatic != auto {
			t.Errorf("source %q: %v kind %s automatic %v, want %v", source, ok, e.Kind, e.Automatic, auto)
		}
	}
	if e, _ := claudeEvent(Line{Event: "UserPromptSubmit", Automatic: true}); !e.Automatic {
		t.Error("a task notification's prompt, no source: not automatic")
	}
}

// The history says a turn nobody started is automatic: a new user read a
// plain "UserPromptSubmit" and took it for their own (issue 32).
func TestHistorySaysATurnIsAutomatic(t *testing.T) {
	r := rec(ActivityIdle)
	e := ev(KindTurnStart, auto("b1"), after(time.Second))
	e.Detail = "UserPromptSubmit"
	tr, _ := Apply(r, e)
	if tr == nil || !strings.Contains(tr.Detail, "automatic") {
		t.Fatalf("automatic turn's transition %+v, want its detail to say automatic", tr)
	}
	applyAll(t, r, ev(KindTurnEnd, after(2*time.Second)))
	e.Automatic, e.At = false, t0.Add(3*time.Second)
	if tr, _ := Apply(r, e); tr == nil || strings.Contains(tr.Detail, "automatic") {
		t.Fatalf("the human's turn's transition %+v, want no automatic", tr)
	}
}

// OpenCode 1.18.33 can report its background task's child session 20 ms
// after the parent's idle, whose background list was still empty: the
// card read Working for the subagent's whole run (harness
// background_agent, 1 run in 3). A subagent starting once the turn is over
// is background work.
func TestASubagentStartingAfterTheTurnIsBackground(t *testing.T) {
	r := rec(ActivityIdle)
	none := []string{}
	end := ev(KindTurnEnd, after(2*time.Second))
	end.Background = &none
	start := ev(KindSubagentStart, after(2100*time.Millisecond))
	start.AgentID = "ses_child"
	applyAll(t, r, ev(KindTurnStart, after(time.Second)), end, start)
	if d := derived(r, 3*time.Second); d.Status != StatusIdle || !slices.Contains(d.Marks, MarkBackground) {
		t.Fatalf("a subagent started after the turn: %+v, want idle + background", d)
	}
	applyAll(t, r, ev(KindTurnStart, auto("ses_child"), after(20*time.Second)), ev(KindTurnEnd, after(21*time.Second)))
	if d := derived(r, 21*time.Second); d.Status != StatusIdle || len(d.Marks) != 0 {
		t.Errorf("after its automatic turn: %+v, want plain idle", d)
	}
	// Inside a turn a subagent is the turn's own (foreground) work.
	fg := ev(KindSubagentStart, after(31*time.Second))
	fg.AgentID = "ses_fg"
	applyAll(t, r, ev(KindTurnStart, after(30*time.Second)), fg)
	if d := derived(r, 31*time.Second); d.Status != StatusWorking || slices.Contains(d.Marks, MarkBackground) {
		t.Errorf("a subagent inside a turn: %+v, want working, no background", d)
	}
	// Long after the turn ended, a start from idle is a turn lanes did not
	// hear begin (a dropped line, a session adopted mid-turn): the
	// subagent is that turn's. An id no task_done could name is never
	// kept as background either.
	for _, c := range []struct {
		id    string
		after time.Duration
	}{{"ses_late", time.Minute}, {"a/b", 100 * time.Millisecond}} {
		r := rec(ActivityIdle)
		applyAll(t, r, ev(KindTurnStart, after(time.Second)), ev(KindTurnEnd, after(2*time.Second)))
		late := ev(KindSubagentStart, after(2*time.Second+c.after))
		late.AgentID = c.id
		applyAll(t, r, late)
		if d := derived(r, 2*time.Second+c.after); d.Status != StatusWorking || len(r.Activity.Background) != 0 {
			t.Errorf("subagent %q %s after the turn: %+v, background %v; want the turn's (working), none", c.id, c.after, d, r.Activity.Background)
		}
	}
}

// What another process writes is bounded: a background list of any length
// or shape keeps at most BackgroundMax well-formed entries, one entry
// lanes cannot read drops only itself, a flood of late subagents never
// becomes the session's turn, and the subagents a turn waits for are
// bounded (issue 32's hostile re-run).
func TestBackgroundWorkIsBoundedWhateverTheLinesSay(t *testing.T) {
	r := rec(ActivityIdle)
	var flood []string
	for i := range 5000 {
		flood = append(flood, BackgroundShell+":"+strconv.Itoa(i))
	}
	flood = append([]string{"shell:\x1b[2J", "evil:1", "shell:", "agent:ok", "agent:ok"}, flood...)
	end := ev(KindTurnEnd, after(2*time.Second))
	end.Background = &flood
	applyAll(t, r, ev(KindTurnStart, after(time.Second)), end)
	if got := r.Activity.Background; len(got) != BackgroundMax || got[0] != "agent:ok" || slices.Contains(got[1:], "agent:ok") {
		t.Errorf("kept %d entries starting %q, want %d well-formed ones, each once", len(got), got[:min(2, len(got))], BackgroundMax)
	}
	for i := range 40 {
		late := ev(KindSubagentStart, after(2*time.Second+time.Duration(i)*time.Millisecond))
		late.AgentID = "late" + strconv.Itoa(i)
		applyAll(t, r, late)
	}
	if d := derived(r, 3*time.Second); d.Status != StatusIdle {
		t.Errorf("after 40 late subagents: %+v, want idle (background work is not the turn)", d)
	}
	list := BackgroundList(json.RawMessage(`[{"id":"ok1","type":"shell","status":"running"},{"id":7,"type":"shell","status":"running"}]`))
	if list == nil || !slices.Equal(*list, []string{"shell:ok1"}) {
		t.Errorf("a list with one bad entry: %v, want [shell:ok1]", list)
	}
	r = rec(ActivityIdle)
	applyAll(t, r, ev(KindTurnStart, after(time.Second)))
	for i := range 100 {
		sub := ev(KindSubagentStart, after(time.Second+time.Duration(i)*time.Millisecond))
		sub.AgentID = strings.Repeat("x", 100) + strconv.Itoa(i)
		applyAll(t, r, sub)
	}
	if n := len(r.Activity.Subagents); n > BackgroundMax {
		t.Errorf("%d subagents kept, want at most %d", n, BackgroundMax)
	}
}
