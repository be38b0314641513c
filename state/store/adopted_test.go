package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// An adopting line makes the record wherever it is ingested (the board's
// spool-only cycle, on a hook's wake-up), and the next full cycle finds its
// pane by id: the session id it attaches by, its pid.
func TestAdoptedRecordThenItsPane(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	store := New(dir)
	clk := &clock{t: statetest.T0}
	id := state.AdoptedID("claude", "0b7e2c1a-1111-4aaa-8bbb-123456789abc")
	l := state.Line{V: state.LineVersion, At: statetest.T0, Session: id, Agent: "claude", Event: "SessionStart", Source: "startup",
		ProviderSessionID: "0b7e2c1a-1111-4aaa-8bbb-123456789abc", Adopt: &state.Adopt{Dir: "/src/shop", Socket: "lanes-x", Pane: "%4"}}
	if err := AppendLine(dir, l); err != nil {
		t.Fatal(err)
	}
	ingest := &Collector{Store: store, Socket: "lanes-x", Now: clk.now}
	if _, err := ingest.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	panes := &fakePanes{obs: []state.Observation{{SessionID: "$7", PaneID: "%4", PID: 321, WindowActivity: statetest.T0}}}
	full := &Collector{Store: store, Panes: panes, Socket: "lanes-x", Now: clk.now}
	clk.advance(time.Second)
	res, err := full.Cycle(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 1 {
		t.Fatalf("%d records", len(res.Records))
	}
	r := res.Records[0]
	if !r.Adopted || r.Name != "shop" || r.Runtime.SessionID != "$7" || r.Pane.PID != 321 || !r.Live() {
		t.Errorf("adopted record %+v", r.Runtime)
	}
}
