package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"lanes/state"
	"lanes/state/store"
)

// lsEnv is a store with records on a tmux socket nobody serves, so `ls`
// shows exactly what the store holds.
func lsEnv(t *testing.T, recs ...*state.Record) *env {
	t.Helper()
	e := &env{t: t, state: filepath.Join(t.TempDir(), "state"), home: t.TempDir()}
	e.vars = map[string]string{"LANES_STATE_DIR": e.state, "HOME": e.home, "LANES_TMUX_SOCKET": "lanes-test-nosuch-ls"}
	st := store.New(e.state)
	if err := st.Update(func(tx *store.Tx) error {
		for _, r := range recs {
			if err := tx.Put(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

func lsRecord(id, name string, a state.Activity, now time.Time) *state.Record {
	return &state.Record{ID: id, Name: name, Agent: state.AgentClaude, Dir: "/src/" + name, Branch: "b-" + name,
		Runtime:  state.Runtime{Socket: "elsewhere", TmuxSession: "lanes-" + name, SessionID: "$1", Launch: "L" + id[:3], PaneStartedAt: now.Add(-time.Hour)},
		Activity: state.ActivityFacts{State: a, Since: now.Add(-time.Minute), FirstSignalAt: now.Add(-time.Hour), LastEventAt: now.Add(-time.Minute), HooksReport: true},
		Pane:     state.Pane{WindowActivity: now.Add(-time.Minute)}}
}

func TestLsOrderFilterAndJSONShape(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	api := lsRecord("k3v9x2ab", "api", state.ActivityIdle, now)
	api.PRs = []state.PR{{Number: 12, URL: "https://example.test/pr/12", State: "open", Review: "pending", CI: "passing",
		Mergeable: "unknown", Base: "main", Head: "fix-login"}}
	api.EventsApplied, api.EventsDropped = 41, map[string]int{"stale_launch": 1}
	api.Git = state.GitFacts{Ahead: 3, Behind: 0, Changed: 7, ReadAt: now.Add(-5 * time.Second)}
	busy := lsRecord("busy0001", "zeta", state.ActivityActive, now)
	asks := lsRecord("asks0001", "beta", state.ActivityWaitingInput, now)
	crash := lsRecord("crash001", "alpha", state.ActivityExited, now)
	crash.Pane = state.Pane{Dead: true, ExitSignal: "SIGKILL"}
	recent := lsRecord("done0001", "old", state.ActivityIdle, now)
	state.Terminate(recent, "killed by user", "user", now.Add(-time.Hour))
	ancient := lsRecord("done0002", "older", state.ActivityIdle, now)
	state.Terminate(ancient, "killed by user", "user", now.Add(-25*time.Hour))

	e := lsEnv(t, api, busy, asks, crash, recent, ancient)
	e.now = func() time.Time { return now }
	var list []map[string]any
	if err := json.Unmarshal([]byte(e.must("ls", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s["name"].(string))
	}
	// Most urgent first, as the sidebar: what needs a human, then working,
	// then the rest, the longest wait first (equal here, then by name);
	// Done last.
	if want := []string{"alpha", "beta", "zeta", "api", "old"}; !slices.Equal(names, want) {
		t.Fatalf("order %v, want %v (the 25 h old termination hidden)", names, want)
	}
	keys := []string{"id", "name", "agent", "activity", "dialog", "status", "zone", "marks", "is_terminated", "terminated_reason",
		"exit", "since", "launch", "tmux_session", "tmux_socket", "dir", "branch", "worktree", "base", "outcome", "prs", "events_applied", "events_dropped",
		"tool", "question", "last_message", "muted", "dialog_at", "ahead", "behind", "changed", "adopted", "pane_id", "host",
		"background", "automatic", "failure", "retry", "usage"}
	for _, s := range list {
		got := make([]string, 0, len(s))
		for k := range s {
			got = append(got, k)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(keys))
		if !slices.Equal(got, want) {
			t.Fatalf("keys %v, want %v", got, want)
		}
	}
	b, _ := json.Marshal(list[3]) // api
	for _, part := range []string{`"status":"review_pending"`, `"zone":"in_review"`, `"marks":[]`, `"terminated_reason":null`,
		`"exit":null`, `"since":"2026-11-29T17:01:11Z"`, `"ahead":3`, `"behind":0`, `"changed":7`, `"outcome":null`, `"events_applied":41`, `"events_dropped":{"stale_launch":1}`,
		`"prs":[{"base":"main","ci":"passing","head":"fix-login","mergeable":"unknown","number":12,"review":"pending","state":"open","status":"review_pending","url":"https://example.test/pr/12"}]`} {
		if !strings.Contains(string(b), part) {
			t.Errorf("api lacks %s:\n%s", part, b)
		}
	}
	if b, _ := json.Marshal(list[0]["exit"]); string(b) != `{"signal":"SIGKILL","status":null}` {
		t.Errorf("exit of a SIGKILLed pane: %s", b)
	}
	for _, k := range []string{"ahead", "behind", "changed"} {
		if v, ok := list[0][k]; !ok || v != nil {
			t.Errorf("git never read: %s is %v, want null", k, v)
		}
	}
	if list[4]["terminated_reason"] != "killed by user" || list[4]["status"] != "terminated" {
		t.Errorf("terminated: %v", list[4])
	}
	if all := e.must("ls", "--all"); !strings.Contains(all, "older") {
		t.Fatalf("--all must show the old termination:\n%s", all)
	}
	table := e.must("ls")
	for _, want := range []string{"NAME", "alpha", "■ exited (SIGKILL)", "◆ Needs input", "◐ Review", "In review", "1m"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

func TestHelpEverywhere(t *testing.T) {
	e := lsEnv(t)
	for _, c := range commands() {
		args := []string{c.name, "--help"}
		if c.name == "hook" {
			args = []string{"hook", "--help"}
		}
		out, errs, code := e.run(args...)
		if code != 0 || !strings.Contains(out, "Usage: lanes "+c.name) || strings.Count(out, "Usage:") != 1 || errs != "" {
			t.Errorf("lanes %s --help: exit %d, stdout\n%s\nstderr\n%s", c.name, code, out, errs)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "x", "--dir"}, "flag needs an argument: --dir"},
		{[]string{"new", "--", "sh"}, "new needs a NAME"},
		{[]string{"--theme", "purple", "ls"}, "unknown --theme"},
		{[]string{"version", "extra"}, "takes no arguments"},
		{[]string{"doctor", "extra"}, "takes no arguments"},
	} {
		if _, errs, code := e.run(c.args...); code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("lanes %v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	if _, errs, code := e.run("frobnicate"); code != exitUsage || !strings.Contains(errs, "unknown command") || strings.Contains(errs, "did you mean") {
		t.Errorf("unknown command: exit %d %q", code, errs)
	}
	for typo, want := range map[string]string{"lss": "ls", "stauts-line": "status-line", "xyzzy": "", "restat": "restart", "atach": "attach", "resto": "restore"} {
		_, errs, code := e.run(typo)
		if hint := " (did you mean " + want + "?)"; code != exitUsage || want != "" && !strings.Contains(errs, hint) || want == "" && strings.Contains(errs, "did you mean") {
			t.Errorf("lanes %s: exit %d %q, want the hint %q", typo, code, errs, want)
		}
		if strings.Count(errs, "\n") > 2 {
			t.Errorf("lanes %s printed %d lines, want the error and where to look", typo, strings.Count(errs, "\n"))
		}
	}
	if _, _, code := e.run("ls", "--bogus"); code != exitUsage {
		t.Errorf("a bad flag must exit 2, got %d", code)
	}
}

// TestLsPRStatusIsVocabulary: a PR's status in ls --json is one of the
// status vocabulary or null: merged for a merged PR, null for a closed one.
func TestLsPRStatusIsVocabulary(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	r := lsRecord("prs00001", "prs", state.ActivityIdle, now)
	r.PRs = []state.PR{
		{Number: 1, State: state.PRStateOpen, Review: state.ReviewPending, CI: state.CIPassing, Mergeable: state.MergeableUnknown},
		{Number: 2, State: state.PRStateMerged},
		{Number: 3, State: state.PRStateClosed},
	}
	e := lsEnv(t, r)
	e.now = func() time.Time { return now }
	var list []struct {
		PRs []struct {
			Number int           `json:"number"`
			Status *state.Status `json:"status"`
		} `json:"prs"`
	}
	if err := json.Unmarshal([]byte(e.must("ls", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{1: string(state.StatusReviewPending), 2: string(state.StatusMerged), 3: "null"}
	for _, p := range list[0].PRs {
		got := "null"
		if p.Status != nil {
			got = string(*p.Status)
		}
		if got != want[p.Number] {
			t.Errorf("PR %d: status %s, want %s", p.Number, got, want[p.Number])
		}
	}
}

// TestPRAppliesAtOnce: lanes pr's facts are in the store when it returns,
// not at some later cycle.
func TestPRAppliesAtOnce(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	r := lsRecord("prnow001", "api", state.ActivityIdle, now)
	e := lsEnv(t, r)
	e.now = func() time.Time { return now }
	e.must("pr", "api", "--number", "12", "--review", "pending", "--ci", "passing")
	var got *state.Record
	if err := store.New(e.state).View(func(tx *store.Tx) error {
		var err error
		got, err = tx.Get(r.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got.PRs) != 1 || got.PRs[0].Number != 12 || got.PRs[0].Review != state.ReviewPending || got.PRs[0].CI != state.CIPassing {
		t.Fatalf("stored PRs after lanes pr: %+v", got.PRs)
	}
}

// ls --json's tool is the one the agent runs or asks about: none once its
// turn is over (the card then says the last message).
func TestLsToolOnlyWhileItRuns(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	done := lsRecord("k3v9x2ab", "done", state.ActivityIdle, now)
	busy := lsRecord("busy0001", "busy", state.ActivityActive, now)
	for _, r := range []*state.Record{done, busy} {
		r.Activity.Tool, r.Activity.ToolInput = "Bash", "npm test"
	}
	done.Activity.LastMessage = "All tests pass."
	e := lsEnv(t, done, busy)
	e.now = func() time.Time { return now }
	got := e.ls()
	if got["done"].Tool != nil || got["done"].LastMessage == nil {
		t.Errorf("idle: tool %+v, last message %v; want no tool, the message", got["done"].Tool, got["done"].LastMessage)
	}
	if tl := got["busy"].Tool; tl == nil || tl.Name != "Bash" || tl.Input != "npm test" {
		t.Errorf("working: tool %+v, want Bash npm test", tl)
	}
}

// Counts git could not make (no base it can track) are null, not 0.
func TestLsUncountedAheadIsNull(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	r := lsRecord("k3v9x2ab", "wt", state.ActivityIdle, now)
	r.Git = state.GitFacts{Ahead: -1, Behind: -1, Changed: 2, ReadAt: now}
	e := lsEnv(t, r)
	e.now = func() time.Time { return now }
	s := e.ls()["wt"]
	if s.Ahead != nil || s.Behind != nil || s.Changed == nil || *s.Changed != 2 {
		t.Errorf("ahead %v behind %v changed %v; want null, null, 2", s.Ahead, s.Behind, s.Changed)
	}
}

// ls says which live sessions sit on a server it did not read (a shell
// without the LANES_TMUX_SOCKET the sessions were started with): their
// statuses are as last read, however old (a trial saw them frozen).
func TestLsNotesServersItDidNotRead(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	ended := lsRecord("done0001", "old", state.ActivityIdle, now)
	state.Terminate(ended, "killed by user", "user", now.Add(-time.Hour))
	e := lsEnv(t, lsRecord("aaaa0001", "api", state.ActivityIdle, now), lsRecord("bbbb0001", "web", state.ActivityActive, now), ended)
	e.now = func() time.Time { return now }
	_, errs, code := e.run("ls")
	want := "lanes: note: 2 live session(s) on tmux server -L elsewhere, which this command did not read (it reads tmux server -L lanes-test-nosuch-ls)"
	if code != exitOK || !strings.Contains(errs, want) || !strings.Contains(errs, "`lanes --socket elsewhere ls` reads them") {
		t.Errorf("ls on another server: exit %d, stderr %q; want %q", code, errs, want)
	}
	e.vars["LANES_TMUX_SOCKET"] = "elsewhere"
	if _, errs, _ := e.run("ls"); strings.Contains(errs, "did not read") {
		t.Errorf("ls on the sessions' own server noted %q", errs)
	}
}

// The table shows each session's branch between AGENT and STATUS ("-"
// with none), a long one cut with … so a row keeps within 100 columns.
func TestLsTableBranch(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	short := lsRecord("shrt0001", "api", state.ActivityIdle, now)
	none := lsRecord("none0001", "scratch", state.ActivityIdle, now)
	none.Branch = ""
	long := lsRecord("long0001", "frontend-1", state.ActivityExited, now)
	long.Pane = state.Pane{Dead: true, ExitSignal: "SIGKILL"}
	long.Branch = "lanes/feature-with-a-very-long-descriptive-branch-name"
	e := lsEnv(t, short, none, long)
	e.now = func() time.Time { return now }
	out := e.must("ls")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if got := strings.Fields(lines[0]); !slices.Equal(got, []string{"NAME", "AGENT", "BRANCH", "STATUS", "ZONE", "AGE", "ID"}) {
		t.Fatalf("header %q:\n%s", got, out)
	}
	branches := map[string]string{}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		branches[f[0]] = f[2]
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("row %d columns wide: %q", n, l)
		}
	}
	if branches["api"] != "b-api" || branches["scratch"] != "-" ||
		!strings.HasPrefix(branches["frontend-1"], "lanes/feature-") || !strings.HasSuffix(branches["frontend-1"], "…") {
		t.Errorf("branches %q:\n%s", branches, out)
	}
}
