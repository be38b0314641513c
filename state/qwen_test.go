package state

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// lineEvent is agent's spool line for event, as `lanes hook AGENT` writes
// it, at d after t0, read through Translate.
func lineEvent(t *testing.T, agent string, d time.Duration, event string, more ...func(*Line)) Event {
	t.Helper()
	l := Line{At: t0.Add(d), Launch: "L1", Agent: agent, Event: event}
	for _, m := range more {
		m(&l)
	}
	e, ok := Translate(l)
	if !ok {
		t.Fatalf("%s %s: not translated", agent, event)
	}
	return e
}

// qwenLine is one of Qwen Code 0.24.4's hook lines, of turn.
func qwenLine(t *testing.T, d time.Duration, event, turn string, more ...func(*Line)) Event {
	t.Helper()
	return lineEvent(t, "qwen", d, event, append([]func(*Line){func(l *Line) { l.TurnID = turn }}, more...)...)
}

func shellTool(l *Line) { l.ToolName, l.ToolUseID = "run_shell_command", "toolu_1" }

func prompted(sum string) func(*Line) { return func(l *Line) { l.PromptSum = sum } }

const qwenTurn = "3c1022b0-1930-4229-af88-37fd6c2c0f49########"

// Qwen Code fires UserPromptSubmit before each model call of a turn (an
// empty prompt after a tool's result), and starts a turn of its own when
// a background shell ends with no hook but its Stop, which names a turn
// no hook started (the recorded background_shell walk): that Stop ends an
// automatic turn, which keeps a failure the human has not seen.
func TestQwenTurnsNoHookStarted(t *testing.T) {
	r := rec(ActivityIdle)
	r.Agent = AgentQwen
	applyAll(t, r, qwenLine(t, time.Second, "UserPromptSubmit", qwenTurn+"0", prompted("abc")),
		qwenLine(t, 2*time.Second, "PreToolUse", qwenTurn+"0", shellTool),
		qwenLine(t, 3*time.Second, "PostToolUse", qwenTurn+"0", shellTool),
		qwenLine(t, 4*time.Second, "UserPromptSubmit", qwenTurn+"0", func(l *Line) { l.NoPrompt = true }))
	if r.Activity.State != ActivityActive || r.Activity.Automatic {
		t.Fatalf("a tool's result sent back: %s automatic %v, want active, the human's turn", r.Activity.State, r.Activity.Automatic)
	}
	applyAll(t, r, qwenLine(t, 5*time.Second, "Stop", qwenTurn+"0"))
	if d := derived(r, 5*time.Second); d.Status != StatusIdle || r.Activity.Automatic {
		t.Fatalf("the human's turn's Stop: %s automatic %v, want idle", d.Status, r.Activity.Automatic)
	}
	// The human's next turn fails (a 400: StopFailure); then the
	// background shell's own turn ends (testdata/real/harness/qwen/automatic_turn).
	applyAll(t, r, qwenLine(t, 6*time.Second, "UserPromptSubmit", qwenTurn+"1", prompted("def")),
		qwenLine(t, 7*time.Second, "StopFailure", qwenTurn+"1", func(l *Line) { l.Reason = "invalid_request" }),
		qwenLine(t, 20*time.Second, "Stop", qwenTurn+"2"))
	d := derived(r, 20*time.Second)
	if d.Status != StatusIdle || !r.Activity.Automatic || !slices.Contains(d.Marks, MarkFailed) || d.Zone != ZoneNeedsYou {
		t.Fatalf("a Stop of a turn no hook started: %s automatic %v marks %v zone %s; want idle, automatic, the failure kept in Needs you",
			d.Status, r.Activity.Automatic, d.Marks, d.Zone)
	}
	// Its Stop again (a subagent's turn ends with two): nothing new.
	applyAll(t, r, qwenLine(t, 21*time.Second, "Stop", qwenTurn+"2"))
	if d := derived(r, 21*time.Second); !slices.Contains(d.Marks, MarkFailed) {
		t.Errorf("the automatic turn's second Stop cleared the unseen failure: %v", d.Marks)
	}
	// A turn id past the bound is not kept: that Stop is any turn's end.
	long := make([]byte, turnIDMax+1)
	for i := range long {
		long[i] = 'x'
	}
	if e := qwenLine(t, 22*time.Second, "Stop", string(long)); e.TurnID != "" {
		t.Errorf("a turn id of %d bytes was kept", len(long))
	}
	// Its question asks through PermissionRequest; its PreToolUse, which
	// fires once answered, asks nothing, whatever the tool's name.
	ask := func(l *Line) { l.ToolName = qwenAskTool }
	if e := qwenLine(t, 23*time.Second, "PermissionRequest", "", ask); e.Kind != KindAsk || !e.Dialog {
		t.Errorf("its question's PermissionRequest: %s dialog %v, want a question", e.Kind, e.Dialog)
	}
	// Approved, the call runs: its PreToolUse ends the dialog, a
	// subagent's does not.
	r = rec(ActivityIdle)
	r.Agent = AgentQwen
	applyAll(t, r, qwenLine(t, 30*time.Second, "UserPromptSubmit", qwenTurn+"3", prompted("ghi")),
		qwenLine(t, 31*time.Second, "PermissionRequest", qwenTurn+"3", shellTool),
		qwenLine(t, 32*time.Second, "PreToolUse", qwenTurn+"3", shellTool, func(l *Line) { l.AgentID = "general-purpose-call_1" }))
	if r.Activity.State != ActivityBlocked || !r.Activity.Dialog {
		t.Fatalf("a subagent's call started under the dialog: %s dialog %v, want still blocked", r.Activity.State, r.Activity.Dialog)
	}
	applyAll(t, r, qwenLine(t, 33*time.Second, "PreToolUse", qwenTurn+"3", func(l *Line) { l.ToolName, l.ToolUseID = "read_file", "toolu_2" }))
	if r.Activity.State != ActivityBlocked || !r.Activity.Dialog {
		t.Fatalf("another call started under the dialog: %s dialog %v, want still blocked", r.Activity.State, r.Activity.Dialog)
	}
	applyAll(t, r, qwenLine(t, 34*time.Second, "PreToolUse", qwenTurn+"3", shellTool))
	if r.Activity.State != ActivityActive || r.Activity.Dialog {
		t.Errorf("the asked call started: %s dialog %v, want active, the dialog gone", r.Activity.State, r.Activity.Dialog)
	}
	// Refused (Esc, or No): no Stop, its idle_prompt ends the dialog.
	applyAll(t, r, qwenLine(t, 35*time.Second, "UserPromptSubmit", qwenTurn+"4", prompted("jkl")),
		qwenLine(t, 36*time.Second, "PermissionRequest", qwenTurn+"4", shellTool),
		qwenLine(t, 40*time.Second, "Notification", "", func(l *Line) { l.NotificationType = "idle_prompt" }))
	if r.Activity.State != ActivityIdle || r.Activity.Dialog {
		t.Errorf("its idle_prompt after a refused dialog: %s dialog %v, want idle", r.Activity.State, r.Activity.Dialog)
	}
	for _, m := range []func(*Line){ask, func(*Line) {}} {
		if e := qwenLine(t, 24*time.Second, "PreToolUse", "", m); e.Kind != KindToolStart || e.Dialog {
			t.Errorf("PreToolUse: %s dialog %v, want a tool's start", e.Kind, e.Dialog)
		}
	}
}

// Qwen Code says its background shells on screen only ("· 1 shell" in its
// footer) and its background subagents in its Stop's list: an idle look
// counts the shells and keeps the subagents (the recorded
// background_agent walk lost its subagent to the first look).
func TestQwenScreenShellsKeepHookWork(t *testing.T) {
	r := rec(ActivityIdle)
	r.Agent = AgentQwen
	sub := backgroundEntry(BackgroundAgent, "general-purpose-call_1")
	r.Activity.Background = []string{sub}
	footer := "────\n>   Type your message or @path/to/file\n────\n  ➜ proj · fake-model\n  ⏸ Ask permissions (shift + tab to cycle)"
	qwenMarkers.seeShells(&r.Activity, Screen(footer+" · 1 shell\n"))
	if want := []string{sub, screenShell + "1"}; !slices.Equal(r.Activity.Background, want) {
		t.Errorf("one shell on screen: background %q, want %q", r.Activity.Background, want)
	}
	qwenMarkers.seeShells(&r.Activity, Screen(footer+"\n"))
	if want := []string{sub}; !slices.Equal(r.Activity.Background, want) {
		t.Errorf("none on screen: background %q, want %q", r.Activity.Background, want)
	}
}

// Its input's placeholder tells an empty input from one that holds text,
// on every recorded screen where it waits at its prompt: only Esc's puts
// the interrupted prompt back.
func TestQwenInputHolds(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(realDir, "harness", "qwen", "*", "*.screen"))
	n := 0
	for _, f := range files {
		step := strings.TrimSuffix(filepath.Base(f), ".screen")
		if step != "ready" && step != "idle" && step != "interrupted" && step != "rejected" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if holds := InputHolds(AgentQwen, Screen(b)); holds != (step == "interrupted") {
			t.Errorf("%s: input holds text %v", strings.TrimPrefix(f, realDir+"/"), holds)
		}
	}
	if n < 10 {
		t.Fatalf("%d recorded screens at its prompt, want its harness's", n)
	}
	// Only its input line counts: an answer quoting the placeholder above
	// a half-typed input (the hostile re-run sent into one so).
	rule := strings.Repeat("─", 20)
	for draft, holds := range map[string]bool{"> rm -rf ~/important half-typed": true, ">   Type your message or @path/to/file": false} {
		s := "  ◆︎ It shows:\n    >   Type your message or @path/to/file\n" + rule + "\n" + draft + "\n" + rule +
			"\n  ⏸ Ask permissions (shift + tab to cycle)\n"
		if InputHolds(AgentQwen, Screen(s)) != holds {
			t.Errorf("input %q under a quoted placeholder: holds %v, want %v", draft, !holds, holds)
		}
	}
	if InputHolds(AgentClaude, Screen("❯ some draft\n? for shortcuts")) {
		t.Error("an agent lanes knows no placeholder of: input said to hold text")
	}
}
