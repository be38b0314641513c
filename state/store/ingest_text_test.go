package store

import (
	"encoding/json"
	"strings"
	"testing"

	"lanes/state"
	"lanes/state/statetest"
)

// TestIngestCleansPayloadText: control characters in a payload never reach
// the record or its history.
func TestIngestCleansPayloadText(t *testing.T) {
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	evil := "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u009b1m\x07"
	b, _ := json.Marshal(state.Line{V: 1, At: statetest.T0, Session: r.ID, Launch: "L1", Agent: "claude", Event: "SessionEnd",
		Reason: "other" + evil, ProviderSessionID: "sess" + evil})
	appendRaw(t, dir(col), r.ID, string(b)+"\n")
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	var hist []state.Transition
	col.Store.View(func(tx *Tx) error { hist, _ = tx.History(r.ID, 10); return nil })
	if got.EventsApplied != 1 || len(hist) == 0 {
		t.Fatalf("applied %d, history %v", got.EventsApplied, hist)
	}
	if d := hist[len(hist)-1].Detail; d != "SessionEnd:other" {
		t.Errorf("history detail %q, want SessionEnd:other", d)
	}
	if p := got.Activity.ProviderSessionID; p != "sess" {
		t.Errorf("provider session id %q, want sess", p)
	}
	if s, _ := json.Marshal(got); strings.ContainsAny(string(s), "\x1b\x07\u009b") {
		t.Errorf("control characters in the record: %s", s)
	}
}
