package listing

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"lanes/state"
)

// A session mirrored from its listing shows what the listing host derived
// and the facts a card draws, whatever this host would derive from them.
func TestMirrorKeepsTheListingHostsDerivation(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	code := 3
	r := &state.Record{ID: "k3v9x2ab", Name: "api", Agent: state.AgentClaude, Dir: "/src/api", Branch: "fix",
		Runtime: state.Runtime{Socket: "work", TmuxSession: "lanes-api", PaneID: "%4", Terminated: true, TerminatedReason: "exited"},
		Pane:    state.Pane{Dead: true, ExitStatus: &code},
		PRs:     []state.PR{{Number: 12, State: "open", Review: "approved", CI: "passing", Mergeable: "mergeable", Head: "fix"}},
	}
	r.Activity.State, r.Activity.Question = state.ActivityWaitingInput, "which file?"
	r.Git.Changed, r.Git.ReadAt = 2, now
	want := state.Derivation{Status: state.StatusNeedsInput, Zone: state.ZoneNeedsYou, Marks: []state.Mark{state.MarkUnreachable}, Since: now.Add(-time.Minute)}

	b, err := json.Marshal(From(state.Mirrored(r, want, "", false), true))
	if err != nil {
		t.Fatal(err)
	}
	var s Session
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	got := s.Mirror("build", false)
	if !reflect.DeepEqual(want, got.D) {
		t.Errorf("derivation sent %+v, mirrored %+v", want, got.D)
	}
	if got.Host != "build" || got.Rec.Runtime.Socket != "work" || got.Rec.Runtime.TmuxSession != "lanes-api" {
		t.Errorf("where it runs: host %q socket %q session %q", got.Host, got.Rec.Runtime.Socket, got.Rec.Runtime.TmuxSession)
	}
	if st, _, dead := got.Rec.Exit(); !dead || st == nil || *st != 3 {
		t.Errorf("exit not mirrored: %v", got.Rec.Pane)
	}
	if got.Rec.Activity.Question != "which file?" || len(got.Rec.PRs) != 1 || got.Rec.Git.Changed != 2 {
		t.Errorf("content, PRs or git facts not mirrored: %+v", got.Rec)
	}
	s.Host = "build" // listed again here, it names its host
	if again := From(got, true); !reflect.DeepEqual(again, s) {
		t.Errorf("a mirrored session lists differently:\n%+v\n%+v", s, again)
	}
}
