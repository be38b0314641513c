// Package statetest builds the records, events and recorded real-agent
// fixtures that the tests of state's I/O packages start from. (state's own
// tests have theirs: a package's tests cannot import what imports it.)
package statetest

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"lanes/state"
)

// T0 is when every built record's pane started.
var T0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// Rec builds a live record whose pane started at T0 with activity a.
func Rec(a state.Activity, prs ...state.PR) *state.Record {
	return &state.Record{
		ID: "abcd1234", Name: "api", Agent: state.AgentClaude,
		Runtime:  state.Runtime{Launch: "L1", PaneStartedAt: T0, SessionID: "$1"},
		Activity: state.ActivityFacts{State: a, Since: T0, FirstSignalAt: T0, LastEventAt: T0, HooksReport: true},
		Pane:     state.Pane{WindowActivity: T0},
		PRs:      prs,
	}
}

// PR is a PR fact of number n.
func PR(n int, st, review, ci, mergeable string) state.PR {
	return state.PR{Number: n, State: st, Review: review, CI: ci, Mergeable: mergeable}
}

// PROpen and PRPending: an open PR, and one whose review is pending.
var (
	PROpen    = PR(1, state.PRStateOpen, state.ReviewNone, state.CINone, state.MergeableUnknown)
	PRPending = PR(3, state.PRStateOpen, state.ReviewPending, state.CIPassing, state.MergeableUnknown)
)

// Terminated is r killed by its user.
func Terminated(r *state.Record) *state.Record {
	r.Runtime.Terminated = true
	r.Runtime.TerminatedReason = "killed by user"
	r.Activity.State = state.ActivityExited
	return r
}

// Hookless is r as a command with no hooks.
func Hookless(r *state.Record) *state.Record {
	r.Agent = state.AgentShell
	r.Activity.HooksReport = false
	return r
}

// Ev is an event of kind at T0+1s from Claude Code's hook, changed by opts.
func Ev(kind state.EventKind, opts ...func(*state.Event)) state.Event {
	e := state.Event{Kind: kind, Launch: "L1", At: T0.Add(time.Second), Source: "hook:claude"}
	for _, o := range opts {
		o(&e)
	}
	return e
}

// After sets an event's time to T0+d.
func After(d time.Duration) func(*state.Event) {
	return func(e *state.Event) { e.At = T0.Add(d) }
}

// Src sets an event's session source.
func Src(s string) func(*state.Event) { return func(e *state.Event) { e.SessionSource = s } }

// RealDir is where the recorded real-agent fixtures live (testdata/real;
// its README says how they were made).
var RealDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "real")
}()

// RealLines reads the spool lines `lanes hook` wrote during a recorded run
// of a real agent.
func RealLines(t testing.TB, agent, scenario string) []state.Line {
	t.Helper()
	f, err := os.Open(filepath.Join(RealDir, agent, scenario, "spool.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ls []state.Line
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, state.MaxLineBytes+1)
	for sc.Scan() {
		l, _, err := state.ParseLine(sc.Bytes())
		if err != nil {
			t.Fatalf("%s/%s: %v", agent, scenario, err)
		}
		ls = append(ls, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ls
}

// RealScreen is a recorded `capture-pane -p -J` of the real agent at a step.
func RealScreen(t testing.TB, agent, scenario, step string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RealDir, agent, scenario, step+".screen"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Replay applies recorded spool lines to r as ingest would, taking r's
// launch from them; it returns the record as the last line left it.
func Replay(t testing.TB, r *state.Record, ls []state.Line) *state.Record {
	t.Helper()
	for _, l := range ls {
		if r.Runtime.Launch == "" || r.EventsApplied == 0 {
			r.Runtime.Launch = l.Launch
		}
		e, ok := state.Translate(l)
		if !ok {
			t.Fatalf("recorded event %q of %s is not translated", l.Event, l.Agent)
		}
		if _, drop := state.Apply(r, e); drop != "" {
			t.Fatalf("recorded event %q dropped: %s", l.Event, drop)
		}
		r.EventsApplied++
	}
	return r
}

// RealRecord is a fresh live hook-capable record of agent a, as `lanes new`
// leaves it.
func RealRecord(a state.Agent) *state.Record {
	return &state.Record{ID: "abcd1234", Name: "real", Agent: a,
		Runtime:  state.Runtime{SessionID: "$1", PaneID: "%1", PaneStartedAt: T0},
		Activity: state.ActivityFacts{State: state.ActivityIdle, Since: T0, Source: "user", HooksReport: true}}
}
