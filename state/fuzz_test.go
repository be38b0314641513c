package state

import (
	"slices"
	"testing"
	"time"
)

var fuzzKinds = []EventKind{KindTurnStart, KindTurnEnd, KindToolStart, KindToolEnd, KindWorking, KindAsk,
	KindBlock, KindIdlePrompt, KindSessionStart, KindAgentExit, KindSubagentStart, KindSubagentStop, KindSignal, KindPR}

// FuzzApplyDerive drives the state machine with arbitrary event sequences:
// it never panics, Derive always answers with a known status and zone, and
// the same record and time always give the same answer.
func FuzzApplyDerive(f *testing.F) {
	f.Add([]byte{0, 2, 5, 3, 1}, int64(30))
	f.Add([]byte{10, 4, 0, 11, 1, 12}, int64(7200))
	f.Add([]byte{9, 0, 6, 7, 13, 8}, int64(100))
	f.Fuzz(func(t *testing.T, seq []byte, secs int64) {
		r := rec(ActivityIdle)
		r.Activity.FirstSignalAt = time.Time{}
		for i, b := range seq {
			e := Event{Kind: fuzzKinds[int(b)%len(fuzzKinds)], At: t0.Add(time.Duration(i) * time.Second), Source: "hook:fuzz"}
			if b&0x10 != 0 {
				e.Launch = "L1"
			} else if b&0x20 != 0 {
				e.Launch = "stale"
			}
			if b&0x40 != 0 {
				e.ToolUseID = string(rune('a' + b%3))
				e.AgentID = e.ToolUseID
			}
			e.SessionSource = []string{"startup", "resume", "clear", "compact"}[b%4]
			if e.Kind == KindPR {
				e.PR = &PR{Number: int(b % 3), State: PRStates[b%4], Review: Reviews[(b>>2)%4], CI: CIs[(b>>4)%4], Mergeable: Mergeables[b%3]}
			}
			if b == 0xff {
				Terminate(r, "fuzz", "user", e.At)
			}
			Apply(r, e)
		}
		now := t0.Add(time.Duration(secs%1_000_000) * time.Second)
		d := Derive(r, now)
		if ParseStatus(string(d.Status)) != d.Status || d.Zone.Order() >= len(Zones) {
			t.Fatalf("Derive returned an unknown status/zone: %+v", d)
		}
		if d2 := Derive(r, now); d2.Status != d.Status || d2.Zone != d.Zone || !slices.Equal(d2.Marks, d.Marks) {
			t.Fatalf("Derive is not deterministic: %+v vs %+v", d, d2)
		}
		if ParseActivity(string(r.Activity.State)) == ActivityUnknown {
			t.Fatalf("the state machine stored an invalid activity %q", r.Activity.State)
		}
	})
}
