package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/scripts/internal/world"
)

// TestPinsAreExact: a range would let two runs of the harness test two
// different agents under the same cache dir.
func TestPinsAreExact(t *testing.T) {
	vs, err := versions()
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(agents) {
		t.Fatalf("pins = %v, want one per agent the harness runs (%d)", vs, len(agents))
	}
	for _, v := range vs {
		if strings.ContainsAny(v[1], "^~<>=* x") || v[1] == "latest" {
			t.Errorf("%s is pinned to %q, want an exact version", v[0], v[1])
		}
	}
	if version("opencode-ai") == "" {
		t.Error("opencode-ai has no pin: its plugin seed takes the same version")
	}
}

// TestToolNames reads the offered tools of each API's request shape.
func TestToolNames(t *testing.T) {
	for body, want := range map[string][]string{
		`{"tools":[{"name":"Bash"},{"name":"AskUserQuestion"}]}`:                               {"Bash", "AskUserQuestion"},
		`{"tools":[{"type":"function","name":"exec_command"}]}`:                                {"exec_command"},
		`{"tools":[{"type":"function","function":{"name":"bash"}}]}`:                           {"bash"},
		`{"tools":[{"functionDeclarations":[{"name":"ask_user"},{"name":"list_directory"}]}]}`: {"ask_user", "list_directory"},
		`{"stream":true}`: nil,
	} {
		if got := toolNames(json.RawMessage(body)); !slices.Equal(got, want) {
			t.Errorf("toolNames(%s) = %v, want %v", body, got, want)
		}
	}
}

func TestLabel(t *testing.T) {
	exit := json.RawMessage(`{"status":null,"signal":"SIGKILL"}`)
	reason := "agent exited cleanly (status 0)"
	for _, c := range []struct {
		s    world.Session
		want string
	}{
		{world.Session{Status: "idle", Marks: []string{"failed"}}, "idle+failed"},
		{world.Session{Status: "exited", Exit: &exit}, "exited(SIGKILL)"},
		{world.Session{Status: "exited"}, "exited(unknown)"},
		{world.Session{Status: "terminated", IsTerminated: true, TerminatedReason: &reason}, "terminated(" + reason + ")"},
	} {
		if got := label(c.s); got != c.want {
			t.Errorf("label = %q, want %q", got, c.want)
		}
	}
}

func TestStats(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 20; i++ {
		ds = append(ds, time.Duration(i)*100*time.Millisecond)
	}
	if got, want := stats(ds), "n=20 p50 1.10s p95 1.90s max 2.00s"; got != want {
		t.Errorf("stats = %q, want %q", got, want)
	}
	if stats(nil) != "no samples" {
		t.Error("stats(nil) should say there were no samples")
	}
}

// TestSettledIgnoresTheCardBeforeTheAction: a card already idle when the
// prompt is sent must not pass "turn done → idle".
func TestSettledIgnoresTheCardBeforeTheAction(t *testing.T) {
	r := &run{name: "x"}
	r.samples = []sample{{at: time.Now(), ok: true, s: world.Session{Status: "idle", EventsApplied: 3}}}
	r.act()
	r.samples = append(r.samples, sample{at: time.Now().Add(time.Millisecond), ok: true, s: world.Session{Status: "idle", EventsApplied: 3}})
	if _, err := r.settled("turn → idle", 200*time.Millisecond, idle); err == nil {
		t.Fatal("settled passed on the card from before the action")
	}
	r.samples = append(r.samples, sample{at: time.Now(), ok: true, s: world.Session{Status: "idle", EventsApplied: 5}})
	if _, err := r.settled("turn → idle", time.Second, idle); err != nil {
		t.Fatal(err)
	}
}

// --versions reads what the fixtures were recorded with from the README
// --record writes.
func TestRecordedVersion(t *testing.T) {
	readme := "Agents:\n\n- @anthropic-ai/claude-code 2.1.332\n- opencode-ai 1.18.33\n"
	if v := recordedVersion(readme, "opencode-ai"); v != "1.18.33" {
		t.Errorf("opencode-ai: %q", v)
	}
	if v := recordedVersion(readme, "@openai/codex"); v != "" {
		t.Errorf("a package not in it: %q", v)
	}
}
