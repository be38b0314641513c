package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/internal/remote/sshtest"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// lanesBin is the lanes binary built once for tests whose agents call
// `lanes hook` from inside a tmux pane.
var lanesBin string

func TestMain(m *testing.M) {
	if os.Getenv("LANES_STATUSLINE_HOLD_LOCK") != "" {
		// A lock-holding child of TestStatusLineBusy: it needs no binary,
		// and it exits without returning here, so a build would leak.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "lanes-bin-")
	if err != nil {
		panic(err)
	}
	lanesBin = filepath.Join(dir, "lanes")
	build := exec.Command("go", "build", "-o", lanesBin, "lanes/cmd/lanes")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building lanes for tests: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	sshtest.Cleanup()
	os.Exit(code)
}

// env is one test's world: a private tmux server (started with -f /dev/null
// and kept alive by a session that is not lanes'), a state dir and a HOME
// of its own.
type env struct {
	t     *testing.T
	tc    *tmux.Client
	state string
	home  string
	vars  map[string]string
	now   func() time.Time
	stdin string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	tc := tmuxtest.Server(t)
	e := &env{t: t, tc: tc, state: filepath.Join(t.TempDir(), "state"), home: t.TempDir()}
	e.vars = map[string]string{
		"LANES_STATE_DIR":   e.state,
		"LANES_TMUX_SOCKET": tc.Socket,
		"HOME":              e.home,
		"PATH":              os.Getenv("PATH"),
		"SHELL":             "/bin/sh",
	}
	e.startServer()
	return e
}

// startServer starts the private server with a keep-alive session.
func (e *env) startServer() {
	e.t.Helper()
	if _, err := e.tc.Run(context.Background(), "new-session", "-d", "-s", "keep", "sleep", "3600"); err != nil {
		e.t.Fatalf("starting private tmux server: %v", err)
	}
}

func (e *env) getenv(k string) string { return e.vars[k] }

// run runs lanes in-process and returns its output and exit code.
func (e *env) run(args ...string) (string, string, int) {
	e.t.Helper()
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(e.stdin), &out, &errb, e.getenv)
	if e.now != nil {
		a.now = e.now
	}
	code := a.main(context.Background(), args)
	return out.String(), errb.String(), code
}

// must runs lanes and fails the test unless it exits 0.
func (e *env) must(args ...string) string {
	e.t.Helper()
	out, errs, code := e.run(args...)
	if code != 0 {
		e.t.Fatalf("lanes %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// ls is `lanes ls --json --all`, keyed by name.
func (e *env) ls() map[string]listing.Session {
	e.t.Helper()
	var list []listing.Session
	if err := json.Unmarshal([]byte(e.must("ls", "--json", "--all")), &list); err != nil {
		e.t.Fatal(err)
	}
	out := map[string]listing.Session{}
	for _, s := range list {
		out[s.Name] = s
	}
	return out
}

// waitFor runs cycles (through `ls`) until cond holds or the deadline passes.
func (e *env) waitFor(what string, deadline time.Duration, cond func(map[string]listing.Session) bool) map[string]listing.Session {
	e.t.Helper()
	end := time.Now().Add(deadline)
	for {
		got := e.ls()
		if cond(got) {
			return got
		}
		if time.Now().After(end) {
			b, _ := json.MarshalIndent(got, "", "  ")
			e.t.Fatalf("timed out waiting for %s; last state:\n%s", what, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// paneDir is the directory target's pane runs in, once tmux can tell:
// right after a spawn it reads "" until the pane's process is its
// terminal's foreground.
func (e *env) paneDir(target string) string {
	e.t.Helper()
	end := time.Now().Add(10 * time.Second)
	for {
		out, err := e.tc.Run(context.Background(), "display-message", "-p", "-t", target, "#{pane_current_path}")
		if dir := strings.TrimSpace(string(out)); err == nil && dir != "" || time.Now().After(end) {
			return dir
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hookCmd is a shell command line that runs the test binary's hook.
func hookCmd(args ...string) string {
	q := []string{shellQuote(lanesBin), "hook"}
	for _, a := range args {
		q = append(q, shellQuote(a))
	}
	return strings.Join(q, " ")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
