package cli

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// stopServer kills the test's tmux server, leaving live records behind.
func stopServer(t *testing.T, e *env) {
	t.Helper()
	if _, err := e.tc.Run(context.Background(), "kill-server"); err != nil {
		t.Fatal(err)
	}
}

// With tmux down, commands that act say what they need in their own words:
// kill explains once (stdin /dev/null is a character device, not a
// terminal), attach says the server is down instead of tmux's "no
// sessions", send and kill print no ls warning (trial item 5).
func TestCommandsWhileTmuxIsDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "build", "--", "sleep", "600")
	stopServer(t, e)

	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out, errb strings.Builder
	a := newApp(devnull, &out, &errb, e.getenv)
	code := a.main(context.Background(), []string{"kill", "build"})
	if code == exitOK || strings.Count(errb.String(), "its agent may still run") != 1 {
		t.Errorf("kill with stdin /dev/null: exit %d, the explanation not once:\n%s", code, errb.String())
	}
	if strings.Contains(errb.String(), "showing what the store holds") {
		t.Errorf("kill prints ls's warning:\n%s", errb.String())
	}

	_, errs, code := e.run("attach", "build")
	if code == exitOK || !strings.Contains(errs, "not running") || strings.Contains(errs, "exit status") {
		t.Errorf("attach while the server is down: exit %d, %q", code, errs)
	}
	_, errs, code = e.run("send", "build", "hi")
	if code == exitOK || strings.Contains(errs, "showing what the store holds") {
		t.Errorf("send while the server is down: exit %d, %q", code, errs)
	}
}

// The "tmux is not answering" of a reused cycle names the server, not
// whichever session happened to be first, from the cycle's records and
// from its tally alike.
func TestReachableNamesTheServer(t *testing.T) {
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, func(string) string { return "" })
	a.socket = "trial-4242"
	since := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	recs := []*state.Record{{ID: "abcd1234", Name: "sh1", Runtime: state.Runtime{Socket: "trial-4242", UnreachableSince: since}}}
	tally := state.TallyAt(recs, since)
	for what, d := range map[string]statusData{"records": {recs: recs}, "tally": {tally: &tally}} {
		_, err := a.reachable(d)
		if err == nil || !strings.Contains(err.Error(), "tmux server -L trial-4242") || !strings.Contains(err.Error(), "2026-11-30T10:00:00Z") || strings.Contains(err.Error(), "sh1") {
			t.Errorf("reachable from the %s = %v", what, err)
		}
	}
}

// restart on a server that is not running starts the session in a new
// server, says so, and its help says it does.
func TestRestartSaysItStartedANewServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "c", "--", "sleep", "600")
	stopServer(t, e)
	if out := e.must("restart", "c"); !strings.Contains(out, "tmux server was not running: started c again in a new server") {
		t.Errorf("restart on a stopped server said %q", out)
	}
	if out := e.must("restart", "--help"); !strings.Contains(out, "new server") {
		t.Errorf("restart --help does not say it starts a new server:\n%s", out)
	}
}
