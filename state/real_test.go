package state

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"
)

// realDir is where the recorded real-agent fixtures live (testdata/real,
// its README says how they were made).
const realDir = "../testdata/real"

// realLines reads the spool lines `lanes hook` wrote during a recorded run
// of a real agent.
func realLines(t testing.TB, agent, scenario string) []Line {
	t.Helper()
	f, err := os.Open(filepath.Join(realDir, agent, scenario, "spool.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ls []Line
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, MaxLineBytes+1)
	for sc.Scan() {
		l, _, err := ParseLine(sc.Bytes())
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

// realScreen is a recorded `capture-pane -p -J` of the real agent at a step.
func realScreen(t testing.TB, agent, scenario, step string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realDir, agent, scenario, step+".screen"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replay applies recorded spool lines to r as ingest would, taking r's
// launch from them; it returns the record as the last line left it.
func replay(t testing.TB, r *Record, ls []Line) *Record {
	t.Helper()
	for _, l := range ls {
		if r.Runtime.Launch == "" || r.EventsApplied == 0 {
			r.Runtime.Launch = l.Launch
		}
		e, ok := Translate(l)
		if !ok {
			t.Fatalf("recorded event %q of %s is not translated", l.Event, l.Agent)
		}
		if _, drop := Apply(r, e); drop != "" {
			t.Fatalf("recorded event %q dropped: %s", l.Event, drop)
		}
		r.EventsApplied++
	}
	return r
}

// realRecord is a fresh live hook-capable record of agent a, as `lanes new`
// leaves it.
func realRecord(a Agent) *Record {
	return &Record{ID: "abcd1234", Name: "real", Agent: a,
		Runtime:  Runtime{SessionID: "$1", PaneID: "%1", PaneStartedAt: t0},
		Activity: ActivityFacts{State: ActivityIdle, Since: t0, Source: "user", HooksReport: true}}
}
