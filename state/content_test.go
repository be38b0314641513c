package state

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestToolSummary(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"command":"npm test","description":"Run the tests"}`, "npm test"},
		{`{"file_path":"cli/app.go","old_string":"a","new_string":"b"}`, "cli/app.go"},
		{`{"pattern":"TODO","path":"."}`, "TODO"},
		{`{"command":["bash","-lc","go test ./..."]}`, "go test ./..."},
		{`{"command":"line one\nline two\tthree"}`, "line one line two three"},
		{`{"command":"\u001b]52;c;aGk=\u0007rm x"}`, "rm x"},
		{`{"command":"make \u001b[1m clean"}`, "make clean"}, // no double space where control was
		{`{"prompt":"my secret plan"}`, ""},
		{`{"command":"` + strings.Repeat("é", 100) + `"}`, strings.Repeat("é", 79) + "…"},
		{`not json`, ""},
		{``, ""},
	} {
		if got := ToolSummary([]byte(c.in)); got != c.want {
			t.Errorf("ToolSummary(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The content facts follow the turn: a tool call's input and question
// while it runs or asks, the tool kept after it ends (the last tool), all
// dropped at the next turn, the last message with them.
func TestApplyContent(t *testing.T) {
	r := rec(ActivityIdle)
	ev, now := applier(t, r, "hook:claude")
	say := func(want Say, text string) {
		t.Helper()
		if s, got := Says(r); s != want || got != text {
			t.Fatalf("Says = %d %q, want %d %q (activity %+v)", s, got, want, text, r.Activity)
		}
	}
	ev(KindTurnStart, nil)
	say(SayNothing, "")
	ev(KindToolStart, func(e *Event) { e.ToolUseID, e.ToolName, e.ToolInput = "t1", "Bash", "npm test" })
	say(SayTool, "Bash: npm test")
	ev(KindBlock, func(e *Event) { e.ToolName, e.ToolInput, e.Dialog = "Bash", "npm test", true })
	say(SayPermission, "Bash: npm test")
	opened := r.Activity.DialogAt
	ev(KindBlock, func(e *Event) { e.Dialog = true }) // the permission notification of the same dialog
	if !r.Activity.DialogAt.Equal(opened) || opened.IsZero() {
		t.Fatalf("DialogAt %v, want the first event's %v", r.Activity.DialogAt, opened)
	}
	ev(KindToolEnd, func(e *Event) { e.ToolUseID, e.ToolName = "t1", "Bash" })
	if !r.Activity.DialogAt.IsZero() {
		t.Fatal("DialogAt kept after the dialog closed")
	}
	ev(KindToolStart, func(e *Event) { e.ToolUseID, e.ToolName, e.Question = "t2", "AskUserQuestion", "Red or blue?" })
	ev(KindAsk, func(e *Event) { e.ToolUseID, e.Dialog = "t2", true })
	say(SayAsk, "Red or blue?")
	ev(KindToolEnd, func(e *Event) { e.ToolUseID = "t2" })
	if r.Activity.Question != "" {
		t.Fatal("the question outlived its answer")
	}
	ev(KindTurnEnd, func(e *Event) { e.Message = "Blue it is." })
	say(SayMessage, "Blue it is.")
	ev(KindSubagentStart, func(e *Event) { e.AgentID = "sub" }) // no turn: the message stays
	ev(KindSubagentStop, func(e *Event) { e.AgentID = "sub" })
	if r.Activity.LastMessage != "Blue it is." {
		t.Fatal("the last message went without a new turn")
	}
	ev(KindTurnStart, nil)
	if a := r.Activity; a.Tool != "" || a.Question != "" || a.LastMessage != "" {
		t.Fatalf("a new turn: %+v, want no tool, question or older message", a)
	}
	ev(KindSessionStart, func(e *Event) { e.SessionSource = "clear" })
	if r.Activity.LastMessage != "" {
		t.Fatal("a cleared conversation still shows the last one's message")
	}
	r.Activity.LastMessage = "kept until the restart"
	Restart(r, "L2", now())
	if r.Activity.LastMessage != "" {
		t.Fatal("a restarted agent still has the last one's message")
	}
}

// Cards order by urgency: a dialog first, then Rank, then the oldest badge;
// a PR's badge is as old as its last change.
func TestByUrgency(t *testing.T) {
	now := t0.Add(time.Hour)
	mk := func(name string, a Activity, since time.Duration, f func(*Record)) *Record {
		r := rec(a)
		r.ID, r.Name = name+"0000000"[:8-len(name)], name
		r.Activity.Since = t0.Add(since)
		if f != nil {
			f(r)
		}
		return r
	}
	recs := []*Record{
		mk("ci", ActivityIdle, 0, func(r *Record) {
			r.PRs = []PR{{Number: 1, State: PRStateOpen, CI: CIFailing, StateChangedAt: t0.Add(50 * time.Minute)}}
		}),
		mk("ask", ActivityBlocked, 40*time.Minute, func(r *Record) { r.Activity.Dialog = true }),
		mk("failed", ActivityIdle, 10*time.Minute, func(r *Record) { r.Activity.Outcome = OutcomeFailure }),
		mk("exited", ActivityExited, 30*time.Minute, nil),
		mk("waits", ActivityWaitingInput, 20*time.Minute, nil), // a script's prompt, no dialog
	}
	slices.SortFunc(recs, func(x, y *Record) int { dx, dy := DeriveAt(x, now), DeriveAt(y, now); return dx.Compare(&dy) })
	var got []string
	for _, r := range recs {
		got = append(got, r.Name)
	}
	if want := []string{"ask", "waits", "exited", "ci", "failed"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if d := Derive(recs[3], now); !d.Since.Equal(t0.Add(50 * time.Minute)) {
		t.Errorf("CI failed badge since %v, want the PR's change", d.Since)
	}
}

// Two permission dialogs for calls without ids (Claude's and Codex's
// PermissionRequest carry none) are two dialogs: the second has its own
// DialogAt, so an answer meant for the first cannot approve it.
func TestSecondDialogHasItsOwnTime(t *testing.T) {
	r := rec(ActivityIdle)
	apply, now := applier(t, r, "hook:claude")
	apply(KindTurnStart, func(*Event) {})
	for _, id := range []string{"t1", "t2", "t3"} {
		apply(KindToolStart, func(e *Event) { e.ToolUseID, e.ToolName = id, "Bash" })
	}
	apply(KindBlock, func(e *Event) { e.ToolName, e.ToolInput, e.Dialog = "Bash", "ls", true })
	first := r.Activity.DialogAt
	apply(KindToolEnd, func(e *Event) { e.ToolUseID = "t1" })
	apply(KindBlock, func(e *Event) { e.ToolName, e.ToolInput, e.Dialog = "Bash", "rm -rf build", true })
	if a := r.Activity; a.DialogAt.Equal(first) || !a.Dialog || a.ToolInput != "rm -rf build" {
		t.Fatalf("second dialog: DialogAt %v (first %v), dialog %v, input %q", a.DialogAt, first, a.Dialog, a.ToolInput)
	}
	AnsweredFromLanes(r, now())
	apply(KindBlock, func(e *Event) { e.Dialog = true }) // its notification: the same dialog
	if r.Activity.AnsweredAt.IsZero() {
		t.Fatal("the same dialog's second event forgot it was answered")
	}
}

// Done sorts after everything live and, among itself, latest ended first:
// one total order whatever the mix.
func TestByUrgencyDoneLast(t *testing.T) {
	now := t0.Add(time.Hour)
	idle := rec(ActivityIdle)
	old, recent := rec(ActivityIdle), rec(ActivityIdle)
	old.ID, recent.ID = "old00000", "new00000"
	Terminate(old, "killed", "user", t0.Add(time.Minute))
	Terminate(recent, "killed", "user", t0.Add(2*time.Minute))
	recs := []*Record{old, idle, recent}
	slices.SortFunc(recs, func(x, y *Record) int { dx, dy := DeriveAt(x, now), DeriveAt(y, now); return dx.Compare(&dy) })
	if recs[0] != idle || recs[1] != recent || recs[2] != old {
		t.Fatalf("order %s %s %s, want live, then the latest ended", recs[0].ID, recs[1].ID, recs[2].ID)
	}
}

// The history says what a dialog asked, not only which event opened it.
func TestDialogTransitionSaysWhat(t *testing.T) {
	r := rec(ActivityActive)
	tr, _ := Apply(r, Event{Kind: KindBlock, At: t0.Add(time.Second), Launch: "L1", Source: "hook:claude",
		Detail: "PermissionRequest", ToolName: "Bash", ToolInput: "rm -rf build", Dialog: true})
	if tr == nil || tr.Detail != "PermissionRequest · Bash: rm -rf build" {
		t.Fatalf("transition %+v, want the tool in its detail", tr)
	}
}

// Gemini's ToolPermission names no tool, only the input its dialog asks
// about: after two BeforeTools, the dialog about the first call's input is
// that call's, not the last one's.
func TestDialogAboutAnotherInput(t *testing.T) {
	r := rec(ActivityIdle)
	r.Agent = AgentGemini
	apply, _ := applier(t, r, "hook:gemini")
	apply(KindTurnStart, func(*Event) {})
	apply(KindToolStart, func(e *Event) { e.ToolName, e.ToolInput = "run_shell_command", "ls" })
	apply(KindToolStart, func(e *Event) { e.ToolName, e.ToolInput = "run_shell_command", "rm -rf build" })
	apply(KindBlock, func(e *Event) { e.ToolInput, e.Dialog = "ls", true })
	if s, text := Says(r); s != SayPermission || text != "run_shell_command: ls" {
		t.Fatalf("Says = %d %q, want the dialog's own input", s, text)
	}
}

func TestMessageSummary(t *testing.T) {
	in := "## Summary\n\nAll **214** tests pass.\n- fixed `lanes ls`\n- kept __docs__"
	if got, want := MessageSummary(in), "Summary All 214 tests pass. fixed lanes ls kept docs"; got != want {
		t.Errorf("MessageSummary = %q, want %q", got, want)
	}
}

// applier applies events to r one second apart from t0, failing the test
// on a drop; now is the time of the last one.
func applier(t *testing.T, r *Record, source string) (apply func(EventKind, func(*Event)), now func() time.Time) {
	at := t0
	apply = func(k EventKind, f func(*Event)) {
		t.Helper()
		at = at.Add(time.Second)
		e := Event{Kind: k, At: at, Launch: "L1", Source: source}
		if f != nil {
			f(&e)
		}
		if _, drop := Apply(r, e); drop != "" {
			t.Fatalf("%s dropped: %s", k, drop)
		}
	}
	return apply, func() time.Time { return at }
}

// Summary reads a window of its text, not all of it: another host's
// 32 MiB answer costs what a short one does (the hostile re-run measured
// 287 MiB and 0.4 s for one).
func TestSummaryReadsAWindow(t *testing.T) {
	big := strings.Repeat("a ", 16<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := Summary(big, 80)
	runtime.ReadMemStats(&after)
	if utf8.RuneCountInString(got) != 80 || !strings.HasSuffix(got, "…") {
		t.Errorf("Summary of 32 MiB = %q", got)
	}
	if spent := after.TotalAlloc - before.TotalAlloc; spent > 1<<20 {
		t.Errorf("Summary of 32 MiB allocated %d bytes", spent)
	}
	if got := Summary(strings.Repeat(" ", 1<<20)+"x", 80); got != "…" {
		t.Errorf("a text cut in its white space: %q, want the ellipsis that says it was cut", got)
	}
	if got := Summary("a\nb", 80); got != "a b" {
		t.Errorf("a short text: %q", got)
	}
}
