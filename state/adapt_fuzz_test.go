package state

import (
	"strings"
	"testing"
)

var knownKinds = map[EventKind]bool{
	KindTurnStart: true, KindTurnEnd: true, KindToolStart: true, KindToolEnd: true,
	KindWorking: true, KindAsk: true, KindBlock: true, KindIdlePrompt: true,
	KindSessionStart: true, KindAgentExit: true, KindSubagentStart: true,
	KindSubagentStop: true, KindSignal: true, KindPR: true,
}

func FuzzTranslate(f *testing.F) {
	seeds := []struct {
		agent, event, ntype, source, reason string
		interrupt                           bool
	}{
		{"claude", "Notification", "permission_prompt", "", "", false},
		{"claude", "SessionEnd", "", "", "clear", false},
		{"claude", "Stop", "", "", "", true},
		{"claude", "PreToolUse", "", "", "", false},
		{"codex", "notify", "", "", "", false},
		{"codex", "", "", "", "", false},
		{"gemini", "Notification", "ToolPermission", "", "", false},
		{"gemini", "SessionStart", "", "resume", "", false},
		{"opencode", "session.status", "", "", "", false},
		{"opencode", "session.error", "", "", "MessageAbortedError", false},
		{"generic", "waiting_input", "", "", "", false},
		{"lanes", "pr", "", "", "", false},
		{"", "", "", "", "", false},
	}
	for _, s := range seeds {
		f.Add(s.agent, s.event, s.ntype, s.source, s.reason, s.interrupt)
	}
	f.Fuzz(func(t *testing.T, agent, event, ntype, source, reason string, interrupt bool) {
		l := Line{V: LineVersion, At: adaptAt, Session: "k3v9x2ab", Launch: adaptLaunch,
			Agent: agent, Event: event, NotificationType: ntype, Source: source, Reason: reason,
			IsInterrupt: interrupt, Type: ntype, Status: source, ToolName: reason}
		e, ok := Translate(l)
		if !ok {
			if e != (Event{}) {
				t.Fatalf("unknown event must be the zero Event, got %+v", e)
			}
			return
		}
		if !knownKinds[e.Kind] {
			t.Fatalf("unknown kind %q for %+v", e.Kind, l)
		}
		if e.Kind == KindPR {
			t.Fatalf("PR without facts accepted: %+v", l)
		}
		if !strings.HasPrefix(e.Source, "hook:") || e.At != adaptAt || e.Launch != adaptLaunch {
			t.Fatalf("provenance lost: %+v", e)
		}
		if e.Outcome != OutcomeNone && e.Outcome != OutcomeFailure && e.Outcome != OutcomeCancellation {
			t.Fatalf("unknown outcome %q", e.Outcome)
		}
	})
}

// FuzzParseLine: any bytes either parse into a line with a valid session or
// are refused with a drop reason; never a panic, never both.
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"v":1,"at":"2026-11-29T12:00:00Z","session":"abcd1234","launch":"L1","agent":"claude","event":"Stop"}`))
	f.Add([]byte(`{"v":1,"session":"../../etc","agent":"generic","event":"active"}`))
	f.Add([]byte("{\"v\":1,\"session\":\"abcd1234\",\"event\":\"\xff\"}"))
	f.Add([]byte(`{"v":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, reason, err := ParseLine(b)
		if (err == nil) != (reason == "") {
			t.Fatalf("reason %q with err %v", reason, err)
		}
		if err == nil && !ValidID(l.Session) {
			t.Fatalf("accepted a line for session %q", l.Session)
		}
		if err == nil {
			Translate(l) // must not panic either
		}
	})
}
