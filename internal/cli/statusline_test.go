package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
	"lanes/state/store"

	"github.com/charmbracelet/x/exp/golden"
)

// slT0 is the fixtures' "now".
var slT0 = time.Date(2026, 11, 29, 17, 0, 0, 0, time.UTC)

// slFixtureSocket is where the fixture sessions live: not the server the
// command reads, so its cycles leave them alone.
const slFixtureSocket = "lanes-fixture-elsewhere"

// slEnv is a state dir and a tmux socket that no server listens on.
type slEnv struct {
	t    *testing.T
	st   *store.Store
	vars map[string]string
	now  time.Time
	sock string
}

func newSLEnv(t *testing.T, recs ...*state.Record) *slEnv {
	t.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	dir := filepath.Join(t.TempDir(), "state")
	e := &slEnv{t: t, st: store.New(dir), now: slT0, sock: "lanes-test-nosuch-" + hex.EncodeToString(b[:])}
	e.vars = map[string]string{"LANES_STATE_DIR": dir, "LANES_TMUX_SOCKET": e.sock, "HOME": t.TempDir()}
	e.put(recs...)
	return e
}

func (e *slEnv) put(recs ...*state.Record) {
	e.t.Helper()
	if len(recs) == 0 {
		return
	}
	if err := e.st.Update(func(tx *store.Tx) error {
		for _, r := range recs {
			if err := tx.Put(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		e.t.Fatal(err)
	}
}

// run runs `lanes ARGS` in-process at e.now; status-line must always exit 0.
func (e *slEnv) run(args ...string) (stdout, stderr string) {
	e.t.Helper()
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(""), &out, &errb, func(k string) string { return e.vars[k] })
	a.now = func() time.Time { return e.now }
	if code := a.main(context.Background(), args); code != exitOK {
		e.t.Fatalf("lanes %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// slRec is a live, hook-driven session in activity act.
func slRec(name string, act state.Activity) *state.Record {
	id := (name + "00000000")[:8]
	id = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return 'x'
	}, strings.ToLower(id))
	return &state.Record{
		ID: id, Name: name, Agent: state.AgentClaude, Command: []string{"claude"},
		Dir: "/src/" + name, CreatedAt: slT0.Add(-2 * time.Hour),
		Runtime: state.Runtime{
			Socket: slFixtureSocket, TmuxSession: state.TmuxSessionName(name),
			SessionID: "$1", PaneID: "%1", Launch: "launch1",
			PaneStartedAt: slT0.Add(-time.Hour), Source: "user", At: slT0.Add(-time.Hour),
		},
		Pane: state.Pane{PID: 100, WindowActivity: slT0.Add(-10 * time.Second), ObservedAt: slT0.Add(-2 * time.Second)},
		Activity: state.ActivityFacts{
			State: act, Since: slT0.Add(-5 * time.Minute), Source: "hook:claude",
			FirstSignalAt: slT0.Add(-59 * time.Minute), LastEventAt: slT0.Add(-time.Minute), HooksReport: true,
		},
	}
}

func withPR(r *state.Record, p state.PR) *state.Record { r.PRs = append(r.PRs, p); return r }

func ended(r *state.Record, ago time.Duration) *state.Record {
	r.Runtime.Terminated, r.Runtime.TerminatedAt = true, slT0.Add(-ago)
	r.Runtime.TerminatedReason = "killed by user"
	return r
}

// slFixture: 2 working, 2 idle, 4 needing you, 1 in review, 1 ready to
// merge, 1 done in the last 24 h and 1 older.
func slFixture() []*state.Record {
	web := slRec("web", state.ActivityActive) // silent for 20 min: unconfirmed
	web.Activity.LastEventAt, web.Pane.WindowActivity = slT0.Add(-20*time.Minute), slT0.Add(-5*time.Minute)
	docs := slRec("docs", state.ActivityIdle)
	docs.Activity.Outcome = state.OutcomeFailure
	db := slRec("db", state.ActivityIdle)
	db.Activity.Outcome = state.OutcomeCancellation
	crash := slRec("crash", state.ActivityExited)
	three := 3
	crash.Pane.Dead, crash.Pane.ExitStatus = true, &three
	far := slRec("far", state.ActivityActive)
	far.Runtime.UnreachableSince = slT0.Add(-30 * time.Second)
	return []*state.Record{
		slRec("api", state.ActivityActive), web, docs, db,
		slRec("ask", state.ActivityWaitingInput), slRec("we#rd", state.ActivityBlocked), crash, far,
		withPR(slRec("rev", state.ActivityIdle), state.PR{Number: 12, State: state.PRStateOpen, Review: state.ReviewPending, CI: state.CIPassing, Mergeable: state.MergeableUnknown}),
		withPR(slRec("ship", state.ActivityIdle), state.PR{Number: 13, State: state.PRStateOpen, Review: state.ReviewApproved, CI: state.CIPassing, Mergeable: state.MergeableYes}),
		ended(slRec("gone", state.ActivityIdle), time.Hour),
		ended(withPR(slRec("old", state.ActivityIdle), state.PR{Number: 9, State: state.PRStateMerged}), 72*time.Hour),
	}
}

// TestStatusLineGolden holds each format's output for the fixture to
// testdata/TestStatusLineGolden/<case>.golden (x/exp/golden, as tui's
// goldens). Refresh with `go test ./cli -run StatusLine -update` and
// review the diff.
func TestStatusLineGolden(t *testing.T) {
	e := newSLEnv(t, slFixture()...)
	cases := []struct {
		golden string
		env    map[string]string
		args   []string
	}{
		{"summary.tmux", nil, nil},
		{"summary-light.tmux", nil, []string{"--theme", "light"}},
		{"summary-nocolor.tmux", map[string]string{"NO_COLOR": "1"}, nil},
		{"summary.plain", nil, []string{"--format", "plain"}},
		{"summary.json", nil, []string{"--format", "json"}},
		{"session-web.tmux", nil, []string{"--session", "web"}},
		{"session-crash-by-tmux-name.tmux", nil, []string{"--session", "lanes-crash"}},
		{"session-gone.tmux", nil, []string{"--session", "gone"}},
		{"session-docs.plain", nil, []string{"--format", "plain", "--session", "docs"}},
		{"session-far.plain", nil, []string{"--format", "plain", "--session", "far"}},
		{"session-db-by-id.json", nil, []string{"--format", "json", "--session", "db000000"}},
		{"session-ship.json", nil, []string{"--format", "json", "--session", "ship"}},
		{"session-nosuch.tmux", nil, []string{"--session", "nosuch"}},
		{"session-nosuch.json", nil, []string{"--format", "json", "--session", "nosuch"}},
		{"group.tmux", nil, []string{"--session", "api", "--session", "docs", "--session", "we#rd"}},
		{"group.plain", nil, []string{"--format", "plain", "--session", "api", "--session", "docs"}},
		{"group.json", nil, []string{"--format", "json", "--session", "db", "--session", "nosuch", "--session", "api"}},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			e.t = t
			for k, v := range c.env {
				e.vars[k] = v
				defer delete(e.vars, k)
			}
			got, _ := e.run(append([]string{"status-line"}, c.args...)...)
			golden.RequireEqual(t, got)
		})
	}
}

func TestStatusLineEmptyWhenNothingLive(t *testing.T) {
	e := newSLEnv(t) // no store file at all yet
	if out, _ := e.run("status-line"); out != "" {
		t.Errorf("fresh state dir: %q, want nothing", out)
	}
	e.put(ended(slRec("gone", state.ActivityIdle), time.Hour), ended(slRec("old", state.ActivityActive), 72*time.Hour))
	for _, f := range []string{"tmux", "plain"} {
		if out, _ := e.run("status-line", "--format", f); out != "" {
			t.Errorf("%s with only done sessions: %q, want nothing (done is not counted)", f, out)
		}
	}
	out, _ := e.run("status-line", "--format", "json")
	if !strings.Contains(out, `"done":1}`) || !strings.Contains(out, `"terminated":1,`) || !strings.HasSuffix(out, `"live":0}`+"\n") {
		t.Errorf("json: %s; want done 1 (the 24 h window), terminated 1, live 0", out)
	}
}

func TestStatusLineOmitsZeroCounts(t *testing.T) {
	e := newSLEnv(t, slRec("api", state.ActivityActive),
		withPR(slRec("ship", state.ActivityIdle), state.PR{Number: 1, State: state.PRStateOpen, Review: state.ReviewApproved, CI: state.CIPassing, Mergeable: state.MergeableYes}),
		withPR(slRec("shipped", state.ActivityIdle), state.PR{Number: 2, State: state.PRStateMerged}), // merged, still live
		ended(slRec("gone", state.ActivityIdle), time.Minute))
	if out, _ := e.run("status-line", "--format", "plain"); out != "●1 ⇡2\n" {
		t.Errorf("got %q, want %q", out, "●1 ⇡2\n")
	}
}

// TestStatusLineReuseAndFallback walks one store through a cycle, a reused
// cycle, a tmux server that stops answering, and a failure that outlives
// the last good line.
func TestStatusLineReuseAndFallback(t *testing.T) {
	e := newSLEnv(t, slRec("api", state.ActivityActive))
	if out, _ := e.run("status-line", "--format", "plain"); out != "●1\n" {
		t.Fatalf("first run: %q", out)
	}
	// A session on the command's own (absent) server: a cycle would find
	// its server unreachable; a reused cycle shows it as stored.
	near := slRec("near", state.ActivityActive)
	near.Runtime.Socket = e.sock
	e.put(near)
	e.now = slT0.Add(500 * time.Millisecond)
	if out, _ := e.run("status-line", "--format", "plain"); out != "●2\n" {
		t.Fatalf("within 1 s the cycle must be reused: %q", out)
	}
	e.now = slT0.Add(2 * time.Second)
	out, errs := e.run("status-line", "--format", "plain")
	if out != "●2\n" || !strings.Contains(errs, "tmux is not answering") {
		t.Fatalf("tmux unreachable: got %q (stderr %q), want the last good line", out, errs)
	}
	e.now = slT0.Add(2*time.Second + lastGoodMaxAge)
	if out, _ := e.run("status-line", "--format", "plain"); out != markerError+"\n" {
		t.Errorf("a lasting failure: got %q, want the marker", out)
	}
	if out, _ := e.run("status-line", "--format", "json"); out != `{"error":"tmux not answering"}`+"\n" {
		t.Errorf("json marker: %q", out)
	}
	if fi, err := os.Stat(filepath.Join(e.st.Dir, lastGoodFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("last-good cache: %v, %v; want mode 0600", fi, err)
	}
}

// TestStatusLineBusy holds the store lock from a real second process.
func TestStatusLineBusy(t *testing.T) {
	if p := os.Getenv("LANES_STATUSLINE_HOLD_LOCK"); p != "" {
		db, err := bolt.Open(p, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("locked\n")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		db.Close()
		os.Exit(0)
	}
	e := newSLEnv(t, slRec("api", state.ActivityActive))
	good, _ := e.run("status-line")

	cmd := exec.Command(os.Args[0], "-test.run=^TestStatusLineBusy$")
	cmd.Env = append(os.Environ(), "LANES_STATUSLINE_HOLD_LOCK="+e.st.Path())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); !strings.Contains(line, "locked") {
		t.Fatalf("helper did not take the lock: %q", line)
	}
	e.now = slT0.Add(5 * time.Second) // past reuse: it wants a cycle
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"status-line"}, good},
		{[]string{"status-line", "--format", "plain"}, markerError + "\n"}, // never rendered: no last good line
		{[]string{"status-line", "--format", "json"}, `{"error":"store busy"}` + "\n"},
	} {
		start := time.Now()
		out, errs := e.run(c.args...)
		// The store retries its lock for 1 s; a hang does not return at
		// all (a loaded machine under -race once took 2 s for the rest).
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%v took %v with a held lock: that is a hang", c.args, took)
		}
		if out != c.want || !strings.Contains(errs, "store busy") {
			t.Errorf("%v with a held lock: got %q (stderr %q), want %q", c.args, out, errs, c.want)
		}
	}
}

func TestStatusLineSchemaTooNew(t *testing.T) {
	e := newSLEnv(t, slRec("api", state.ActivityActive))
	db, err := bolt.Open(e.st.Path(), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("99")) })
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, errs := e.run("status-line")
	if out != markerError+"\n" || !strings.Contains(errs, "schema too new") {
		t.Errorf("got %q (stderr %q), want the marker", out, errs)
	}
}

func TestStatusLineUsage(t *testing.T) {
	e := newSLEnv(t)
	out, _ := e.run("status-line", "--help")
	if !strings.Contains(out, "lanes doctor") || !strings.Contains(out, markerError) {
		t.Errorf("--help must point at lanes doctor and explain %s:\n%s", markerError, out)
	}
	for _, args := range [][]string{{"--format", "xml"}, {"--theme", "pink"}, {"api"}} {
		var o, eb bytes.Buffer
		a := newApp(strings.NewReader(""), &o, &eb, func(k string) string { return e.vars[k] })
		if code := a.main(context.Background(), append([]string{"status-line"}, args...)); code != exitUsage || o.Len() != 0 {
			t.Errorf("status-line %v: exit %d, stdout %q; want a usage error", args, code, o.String())
		}
	}
}

// TestRollup is docs/design.md §8: needs a human > failure mark > working >
// unconfirmed > interrupted mark > the rest; the earliest wins a tie.
func TestRollup(t *testing.T) {
	d := func(s state.Status, marks ...state.Mark) state.Derivation {
		return state.Derivation{Status: s, Marks: marks}
	}
	// needs is a status Derive places in the needs-you zone.
	needs := func(s state.Status, marks ...state.Mark) state.Derivation {
		return state.Derivation{Status: s, Zone: state.ZoneNeedsYou, Marks: marks}
	}
	working, idle := d(state.StatusWorking), d(state.StatusIdle)
	failed, interrupted := d(state.StatusIdle, state.MarkFailed), d(state.StatusIdle, state.MarkInterrupted)
	unconfirmed := d(state.StatusWorking, state.MarkUnconfirmed)
	cases := []struct {
		name string
		ds   []state.Derivation
		want int
	}{
		{"one", []state.Derivation{idle}, 0},
		{"needs input over working", []state.Derivation{working, needs(state.StatusNeedsInput)}, 1},
		{"exited over a failure", []state.Derivation{failed, needs(state.StatusExited)}, 1},
		{"ci failed over working", []state.Derivation{working, needs(state.StatusCIFailed)}, 1},
		{"changes requested over working", []state.Derivation{working, needs(state.StatusChangesRequested)}, 1},
		{"no signal over a failure", []state.Derivation{failed, needs(state.StatusNoSignal)}, 1},
		{"unknown over working", []state.Derivation{working, needs(state.StatusUnknown, state.MarkUnreachable)}, 1},
		{"failure over working", []state.Derivation{working, failed}, 1},
		{"working over unconfirmed", []state.Derivation{unconfirmed, working}, 1},
		{"unconfirmed over interrupted", []state.Derivation{interrupted, unconfirmed}, 1},
		{"interrupted over idle", []state.Derivation{idle, interrupted}, 1},
		{"interrupted over a PR in review", []state.Derivation{d(state.StatusReviewPending), interrupted}, 1},
		{"the rest tie: earliest", []state.Derivation{d(state.StatusMergeable), idle, d(state.StatusTerminated)}, 0},
		{"needs-human tie: earliest", []state.Derivation{working, needs(state.StatusExited), needs(state.StatusNeedsInput)}, 1},
	}
	for _, c := range cases {
		vs := make([]state.Derived, len(c.ds))
		for i, d := range c.ds {
			vs[i].D = d
		}
		if got := rollup(vs); got != c.want {
			t.Errorf("%s: rollup = %d, want %d", c.name, got, c.want)
		}
	}
	// Two sessions equally urgent: the one waiting longer, as the board
	// ranks them, whichever was named first (a trial got the first named).
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	wait := func(name string, since time.Duration) state.Derived {
		r := &state.Record{ID: name + "0001", Name: name, Agent: state.AgentClaude, Runtime: state.Runtime{SessionID: "$1", PaneID: "%1"},
			Activity: state.ActivityFacts{State: state.ActivityWaitingInput, Since: now.Add(-since), HooksReport: true, FirstSignalAt: now.Add(-time.Hour)}}
		return state.DeriveAt(r, now)
	}
	older, newer := wait("older", 10*time.Minute), wait("newer", time.Minute)
	for _, vs := range [][]state.Derived{{older, newer}, {newer, older}} {
		if got := vs[rollup(vs)].Rec.Name; got != "older" {
			t.Errorf("rollup of %s, %s = %s, want the longer wait", vs[0].Rec.Name, vs[1].Rec.Name, got)
		}
	}
}
