package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/agent"
	"lanes/internal/testenv"
	"lanes/state"
	"lanes/state/statetest"
)

// `lanes usage --json` over a session per recorded run of every real agent
// totals exactly what the model server served them all: the records read
// as the cycles read them, OpenCode's numbers as its own plugin sends them
// from the events it got (replayed under node) through `lanes hook`.
func TestUsageTotalsWhatWasServed(t *testing.T) {
	now := time.Now()
	var recs []*state.Record
	var want state.Tokens
	dir := t.TempDir()
	var opencode []string // the OpenCode runs' records and events
	runs := statetest.UsageRuns(t)
	for i, run := range runs {
		want = want.Add(run.Served)
		r := lsRecord(fmt.Sprintf("use%05d", i), fmt.Sprintf("s%d", i), state.ActivityIdle, now)
		r.Agent = run.Agent
		recs = append(recs, r)
		if run.File == "" {
			opencode = append(opencode, r.ID+"\t"+run.Events)
			continue
		}
		copied := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		b, err := os.ReadFile(run.File)
		if err != nil || os.WriteFile(copied, b, 0o600) != nil {
			t.Fatal(err)
		}
		r.Usage.Follow(copied)
	}
	if len(opencode) == 0 {
		t.Fatal("no recorded OpenCode run")
	}
	state.Terminate(recs[0], "killed by user", "user", now) // removed below
	e := lsEnv(t, recs...)
	for _, oc := range opencode {
		id, events, _ := strings.Cut(oc, "\t")
		for _, payload := range openCodePluginSends(t, events) {
			e.vars["LANES_SESSION"], e.vars["LANES_LAUNCH"] = id, recs[0].Runtime.Launch
			e.stdin = payload
			if _, errs, code := e.run("hook", "opencode"); code != 0 || errs != "" {
				t.Fatalf("hook: %d %s", code, errs)
			}
		}
	}
	var got usageSums
	if err := json.Unmarshal([]byte(e.must("usage", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	tot := got.Total
	if g := (state.Tokens{In: tot.Input, Out: tot.Output, CacheRead: tot.CacheRead, CacheWrite: tot.CacheWrite, CostMicros: tot.CostMicros}); g != want || tot.Sessions != len(runs) {
		t.Fatalf("lanes usage totals %+v over %d sessions, served %+v over %d", g, tot.Sessions, want, len(runs))
	}
	// By agent, the rows add up to the same.
	if err := json.Unmarshal([]byte(e.must("usage", "--json", "--by", "agent", "--since", "7d")), &got); err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, r := range got.Rows {
		sum += r.Total
	}
	if len(got.Rows) != 6 || sum != want.Total() {
		t.Fatalf("by agent: %+v", got.Rows)
	}
	// A removed session takes its record, not its numbers (clearing Done
	// is routine; the day's total and its budget go on).
	e.must("rm", recs[0].Name, "--yes")
	if err := json.Unmarshal([]byte(e.must("usage", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	tot = got.Total
	if g := (state.Tokens{In: tot.Input, Out: tot.Output, CacheRead: tot.CacheRead, CacheWrite: tot.CacheWrite, CostMicros: tot.CostMicros}); g != want || tot.Sessions != len(runs) ||
		!slices.ContainsFunc(got.Rows, func(r usageRow) bool { return r.Key == removedRow && r.Sessions == 1 }) {
		t.Fatalf("after rm: totals %+v over %d sessions, rows %+v", g, tot.Sessions, got.Rows)
	}
	// Numbers are not content: they show with LANES_CONTENT=off too.
	e.vars[state.EnvContent] = "off"
	for _, s := range e.ls() {
		if s.Usage == nil || s.Usage.Total == 0 {
			t.Fatalf("%s lists no usage with content off", s.Name)
		}
	}
}

// openCodePluginSends replays the recorded bus events through lanes'
// OpenCode plugin, run by node, and returns the payloads it sent lanes.
func openCodePluginSends(t *testing.T, events string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Skip(t, "node not installed")
	}
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	fake := filepath.Join(dir, "lanes")
	writeScript(t, dir, "lanes", "f=$(mktemp '"+calls+"/'$(date +%s%N)'.XXXXXX')\ncat > \"$f.tmp\" && mv \"$f.tmp\" \"$f.json\"\n")
	if err := os.Mkdir(calls, 0o700); err != nil {
		t.Fatal(err)
	}
	p, err := agent.Launch(state.AgentOpenCode, fake, dir, "abcd1234", nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	for path, b := range p.Files {
		if strings.HasSuffix(path, ".js") {
			writeFile(t, filepath.Join(dir, "lanes.mjs"), string(b))
		}
	}
	abs, _ := filepath.Abs(events)
	writeFile(t, filepath.Join(dir, "driver.mjs"), `
import { LanesPlugin } from "./lanes.mjs";
import { readFileSync } from "node:fs";
const hooks = await LanesPlugin({});
for (const line of readFileSync(`+"`"+abs+"`"+`, "utf8").split("\n").filter(Boolean)) {
  const { payload } = JSON.parse(line);
  await hooks.event({ event: { type: payload.type, properties: payload.properties } });
}
`)
	cmd := exec.Command(node, "driver.mjs")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	sent, _ := filepath.Glob(filepath.Join(calls, "*.json"))
	var out []string
	for _, f := range sent {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "message.usage") {
			out = append(out, string(b))
		}
	}
	if len(out) == 0 {
		t.Fatalf("the plugin sent no usage for %s", events)
	}
	return out
}

// A hook value of the wrong type is passed over, never the event: a
// number for the transcript's path, strings for OpenCode's counts (the
// 28th hostile re-run: the whole line was dropped).
func TestHookPassesOverUsageOfTheWrongType(t *testing.T) {
	e := hookEnv(t)
	for _, hook := range [][2]string{
		{"claude", `{"hook_event_name":"Stop","session_id":"s","transcript_path":12}`},
		{"opencode", `{"hook_event_name":"message.usage","session_id":"s","message_id":7,"usage":{"input":"12","output":1}}`},
	} {
		e.stdin = hook[1]
		if _, errs, code := e.run("hook", hook[0]); code != 0 || errs != "" {
			t.Fatalf("%s: exit %d %s", hook[0], code, errs)
		}
	}
	lines := spoolLines(t, e.state, "abcd1234")
	if len(lines) != 2 || lines[0].Transcript != "" || lines[1].Usage != nil || lines[1].Event != "message.usage" {
		t.Fatalf("lines %+v", lines)
	}
}
