package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
)

// realPayload is one line of a recorded fixture's payloads.jsonl: the hook
// event name and the exact JSON the real agent gave its hook.
type realPayload struct {
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
}

// readRealPayloads reads testdata/real/DIR/payloads.jsonl.
func readRealPayloads(t *testing.T, dir string) []realPayload {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "real", dir, "payloads.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []realPayload
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p realPayload
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("%s payloads: %v", dir, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("%s payloads: %d lines, %v", dir, len(out), err)
	}
	return out
}

// replayReal runs each recorded payload through `lanes hook AGENT` (stdin,
// as the agent gave it), then the spool lines it wrote through ParseLine,
// Translate and Apply onto a live record of that agent: the path a real
// event takes from the agent's hook to the record. Events are dated a
// second apart from at.
func replayReal(t *testing.T, agentName, scenario string, at time.Time) *state.Record {
	t.Helper()
	return replayRealSteps(t, agentName, agentName+"/"+scenario, at, nil)
}

// replayRealSteps is replayReal of testdata/real/DIR with a look after
// each event: step (when not nil) gets the spool line just applied and the
// record after it.
func replayRealSteps(t *testing.T, agentName, dir string, at time.Time, step func(state.Line, *state.Record)) *state.Record {
	t.Helper()
	e := hookEnv(t)
	for _, p := range readRealPayloads(t, dir) {
		e.stdin = string(p.Payload)
		if _, errs, code := e.run("hook", agentName); code != 0 || errs != "" {
			t.Fatalf("lanes hook %s (%s): exit %d %q", agentName, p.Event, code, errs)
		}
	}
	r := &state.Record{ID: "abcd1234", Name: filepath.Base(dir), Agent: state.Agent(agentName),
		Runtime: state.Runtime{Launch: "L1", SessionID: "$1", PaneID: "%1", PaneStartedAt: at}}
	r.Activity.HooksReport = true
	raw, err := os.ReadFile(store.SpoolPath(e.state, r.ID))
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		l, drop, err := state.ParseLine([]byte(b))
		if err != nil {
			t.Fatalf("spool line %d: %s %v", i+1, drop, err)
		}
		ev, ok := state.Translate(l)
		if !ok {
			t.Fatalf("spool line %d: event %q not known", i+1, l.Event)
		}
		ev.At = at.Add(time.Duration(i+1) * time.Second)
		if _, drop := state.Apply(r, ev); drop != "" {
			t.Fatalf("spool line %d (%s) dropped: %s", i+1, l.Event, drop)
		}
		if !r.Activity.HeldEnd.IsZero() {
			// The witness's look at a held end (state/heldend.go): the
			// agent's recorded prompt, nothing queued, nothing busy.
			idle, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "harness", agentName, "tool", "idle.screen"))
			if err != nil {
				t.Fatal(err)
			}
			state.SeeScreen(r, string(idle), ev.At.Add(state.HeldEndQuiet))
		}
		if step != nil {
			step(l, r)
		}
	}
	return r
}

// A real Claude Code StopFailure (the API answered 400): the turn is over
// and the prompt is free, so the card says idle + failed in Needs you, and
// send is allowed.
func TestRealClaudeAPIErrorEndsTheTurn(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r := replayReal(t, "claude", "api-error", at)
	if r.Activity.State != state.ActivityIdle || r.Activity.Outcome != state.OutcomeFailure {
		t.Errorf("activity %s outcome %q, want idle failure", r.Activity.State, r.Activity.Outcome)
	}
	d := state.Derive(r, at.Add(time.Minute))
	if d.Status != state.StatusIdle || d.Zone != state.ZoneNeedsYou || len(d.Marks) != 1 || d.Marks[0] != state.MarkFailed {
		t.Errorf("Derive: %+v, want idle + failed in needs_you", d)
	}
	if err := state.CanSend(r, false); err != nil {
		t.Errorf("CanSend after a failed turn: %v, want nil (the prompt is free)", err)
	}
}
