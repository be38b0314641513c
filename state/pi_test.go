package state

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// piLine is one of the lines lanes' pi extension makes `lanes hook pi`
// write.
func piLine(t *testing.T, d time.Duration, event string, more ...func(*Line)) Event {
	t.Helper()
	return lineEvent(t, "pi", d, event, more...)
}

func stopped(reason, status string) func(*Line) {
	return func(l *Line) { l.Reason, l.Status = reason, status }
}

// pi's runs as its extension reports them: a run ends as its last
// assistant message says (stop, aborted by Esc, error), and only quit
// ends the process (its /new, /resume and reload end a session inside it).
func TestPiRuns(t *testing.T) {
	r := rec(ActivityIdle)
	r.Agent = AgentPi
	applyAll(t, r, piLine(t, time.Second, "agent_start"),
		piLine(t, 2*time.Second, "tool_start", func(l *Line) { l.ToolName, l.ToolUseID = "bash", "call_1" }))
	if r.Activity.State != ActivityActive || r.Activity.Tool != "bash" {
		t.Fatalf("a run's tool: %s %q, want active, bash", r.Activity.State, r.Activity.Tool)
	}
	applyAll(t, r, piLine(t, 3*time.Second, "tool_end", func(l *Line) { l.ToolName, l.ToolUseID = "bash", "call_1" }),
		piLine(t, 4*time.Second, "agent_end", stopped("stop", "")))
	if d := derived(r, 4*time.Second); d.Status != StatusIdle || len(d.Marks) != 0 {
		t.Fatalf("a run that stopped: %s %v, want idle", d.Status, d.Marks)
	}
	applyAll(t, r, piLine(t, 5*time.Second, "agent_start"), piLine(t, 6*time.Second, "agent_end", stopped("aborted", "")))
	if d := derived(r, 6*time.Second); !slices.Contains(d.Marks, MarkInterrupted) {
		t.Errorf("a run Esc ended: marks %v, want interrupted", d.Marks)
	}
	// An error it retries: the extension holds the run's end and says the
	// retry (pi's own next start).
	applyAll(t, r, piLine(t, 7*time.Second, "agent_start"), piLine(t, 9*time.Second, "agent_retry", stopped("attempt 1/3", "")))
	if d := derived(r, 9*time.Second); d.Status != StatusWorking || !slices.Contains(d.Marks, MarkRetrying) || r.Activity.Retry != "attempt 1/3" {
		t.Errorf("a retry: %s marks %v retry %q, want working, retrying attempt 1/3", d.Status, d.Marks, r.Activity.Retry)
	}
	applyAll(t, r, piLine(t, 10*time.Second, "agent_end", stopped("error", "429")))
	if d := derived(r, 10*time.Second); !slices.Contains(d.Marks, MarkFailed) || r.Activity.Failure != "rate limited" || d.Zone != ZoneNeedsYou {
		t.Errorf("a run the API failed: marks %v failure %q zone %s", d.Marks, r.Activity.Failure, d.Zone)
	}
	for _, reason := range []string{"new", "resume", "fork", "reload"} {
		if e := piLine(t, 9*time.Second, "session_shutdown", stopped(reason, "")); e.Kind == KindAgentExit {
			t.Errorf("session_shutdown %s: the agent's exit, want a signal (it goes on)", reason)
		}
	}
	applyAll(t, r, piLine(t, 10*time.Second, "session_shutdown", stopped("quit", "")))
	if r.Activity.State != ActivityExited {
		t.Errorf("session_shutdown quit: %s, want exited", r.Activity.State)
	}
	if e := piLine(t, 11*time.Second, "session_start", func(l *Line) { l.Source = "new" }); e.SessionSource != "clear" {
		t.Errorf("session_start new: source %q, want a clear (the process goes on)", e.SessionSource)
	}
}

// pi's editor, between two rules under its conversation, is its input: a
// lanes send typed into it while it holds text ran as one prompt with it
// ("draft texthello"), and one typed after "/" ran as a command's name
// ("/hello"); one typed before its first draw stayed in it (a new-user
// trial). Its prompt shows once its footer does; its input holds text when
// its editor shows any (testdata/real/pi/input).
func TestPiInputHolds(t *testing.T) {
	m, _ := MarkersOf(AgentPi)
	for step, holds := range map[string]bool{"idle": false, "busy": false, "holds": true, "slash": true} {
		s := Screen(realScreen(t, "pi", "input", step))
		if !m.Ready(s) || InputHolds(AgentPi, s) != holds {
			t.Errorf("%s: ready %v, input holds %v; want ready, holds %v", step, m.Ready(s), InputHolds(AgentPi, s), holds)
		}
	}
	if m.Ready(Screen(strings.Repeat("\n", 29))) {
		t.Error("a blank pane (pi not drawn yet) shows its prompt")
	}
	idle := realScreen(t, "pi", "input", "idle")
	// Its editor scrolled: "─── ↑ 2 more ───" says it holds more lines.
	scrolled := strings.Replace(idle, "────────────────────", "─── ↑ 2 more ───────", 1)
	if !InputHolds(AgentPi, Screen(scrolled)) {
		t.Error("an editor scrolled over more lines holds nothing")
	}
}
