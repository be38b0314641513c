package store

import (
	"os"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// spoolFixture appends the spool lines `lanes hook` wrote for a real agent
// run (testdata/real/AGENT/SCENARIO/spool.jsonl) to r's spool, as r's own
// lines dated a second apart from at.
func spoolFixture(t *testing.T, dir string, r *state.Record, agentName, scenario string, at time.Time) {
	t.Helper()
	b, err := os.ReadFile("../../testdata/real/" + agentName + "/" + scenario + "/spool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i, raw := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		l, drop, err := state.ParseLine([]byte(raw))
		if err != nil {
			t.Fatalf("fixture line %d: %s %v", i+1, drop, err)
		}
		l.Session, l.Launch, l.At = r.ID, r.Runtime.Launch, at.Add(time.Duration(i)*time.Second)
		enc, err := state.EncodeLine(l)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(enc, '\n'))
	}
	appendRaw(t, dir, r.ID, out.String())
}

// A real Claude Code /exit: SessionEnd (reason prompt_input_exit) makes the
// activity exited, then the pane dies with status 0 after 15 s. That is a
// clean exit whatever the activity already says (docs/design.md §5): the
// session closes instead of sitting in Needs you as "exited (0)".
func TestCleanExitAfterSessionEnd(t *testing.T) {
	col, f, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	spoolFixture(t, col.Store.Dir, r, "claude", "exit", statetest.T0.Add(time.Second))
	f.obs = []state.Observation{alive(r.ID)}
	clk.t = statetest.T0.Add(14 * time.Second)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Activity.State != state.ActivityExited || got.Runtime.Terminated {
		t.Fatalf("after the real SessionEnd: %s terminated=%v, want exited, live", got.Activity.State, got.Runtime.Terminated)
	}
	died := statetest.T0.Add(15 * time.Second)
	f.obs = []state.Observation{dead(r.ID, intp(0), "", died)}
	clk.t = died.Add(500 * time.Millisecond)
	cycle(t, col)
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if !got.Runtime.Terminated || got.Runtime.TerminatedReason != "agent exited cleanly (status 0)" || len(f.killed) != 1 {
		t.Fatalf("exit 0 after SessionEnd: terminated=%v reason %q killed %v; Derive %+v",
			got.Runtime.Terminated, got.Runtime.TerminatedReason, f.killed, state.Derive(got, clk.t))
	}
}
