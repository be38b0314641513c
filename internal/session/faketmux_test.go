package session

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// What tmux 3.3a prints on stderr (exit status 1) in each condition the
// tests below put a server in, as it printed them on the machine these
// tests were written on (2026-12-01, `tmux -L NAME -f /dev/null …`):
//
//	a server killed, its socket file left: no server running on /tmp/tmux-0/NAME
//	no socket file at all:                 error connecting to /tmp/tmux-0/NAME (No such file or directory)
//	kill-session -t '$9':                  can't find session: $9
//	paste-buffer … -t %9:                  can't find pane: %9
//	new-session -s keep, keep taken:       duplicate session: keep
//
// tmux/errors_test.go classifies the same texts.
const (
	noServer  = "no server running on /tmp/tmux-0/lanes-test-fake"
	noPane    = "can't find pane: %5"
	noSession = "can't find session: $3"
)

// reply is how the fake tmux answers an invocation that names cmd (any
// word of its argv; "" for every other invocation).
type reply struct {
	cmd    string
	stdout string
	stderr string
	exit   int
	hang   bool // never answers (the runner's timeout ends it)
	// sh, when set, answers instead: shell lines that may read the log
	// of invocations so far, $LOG (a pane that changes as keys arrive).
	sh string
}

// fakeTmux puts a tmux first on PATH that answers as replies say (the
// first whose cmd is in its argv, else the one with cmd ""), and logs
// each argv; the service under test runs it through tmux.ExecRunner, so
// tmux's own classification of the answers is the one tested. It returns
// the log so far, one invocation a line.
func fakeTmux(t *testing.T, replies ...reply) (calls func() []string) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	var b strings.Builder
	b.WriteString("#!/bin/sh\nLOG=" + quote(log) + "\nprintf '%s\\n' \"$*\" >> \"$LOG\"\n")
	answer := func(r reply) string {
		switch {
		case r.sh != "":
			return "{\n" + r.sh + "\n}; exit 0"
		case r.hang:
			return "exec sleep 30"
		}
		return "printf '%s' " + quote(r.stdout) + "; printf '%s\\n' " + quote(r.stderr) + " >&2; exit " + strconv.Itoa(r.exit)
	}
	b.WriteString("for a in \"$@\"; do\n  case \"$a\" in\n")
	otherwise := "exit 0"
	for _, r := range replies {
		if r.cmd == "" {
			otherwise = answer(r)
			continue
		}
		b.WriteString("  " + quote(r.cmd) + ") " + answer(r) + ";;\n")
	}
	b.WriteString("  esac\ndone\n" + otherwise + "\n")
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(b.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() []string {
		body, _ := os.ReadFile(log)
		return strings.FieldsFunc(string(body), func(r rune) bool { return r == '\n' })
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// testNow is the tests' clock.
var testNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// newService is a Service on a state dir of the test's own, whose tmux
// clients exec the tmux on PATH (fakeTmux's, or the real one) with
// timeout per call.
func newService(t *testing.T, socket string, timeout time.Duration) *Service {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state")
	home := t.TempDir()
	return &Service{
		Store: func() (*store.Store, error) { return store.New(dir), nil },
		Tmux: func(socket string) *tmux.Client {
			return &tmux.Client{Socket: socket, Config: "/dev/null", Run: tmux.ExecRunner(socket, timeout, "-f", "/dev/null")}
		},
		Socket: socket,
		Now:    func() time.Time { return testNow },
		Getenv: func(k string) string {
			switch k {
			case "HOME":
				return home
			case "PATH":
				return os.Getenv("PATH")
			}
			return ""
		},
		Warn: func(format string, args ...any) { t.Logf("warning: "+format, args...) },
	}
}

// liveRecord stores a live session of a custom command that started a
// minute ago, as lanes new leaves it, and returns it.
func liveRecord(t *testing.T, s *Service) *state.Record {
	t.Helper()
	started := testNow.Add(-time.Minute)
	r := &state.Record{ID: "abcd1234", Name: "api", Agent: state.AgentCustom, Command: []string{"sleep", "600"},
		Dir: t.TempDir(), CreatedAt: started,
		Runtime: state.Runtime{Socket: "lanes-test-fake", TmuxSession: "lanes-api", SessionID: "$3", PaneID: "%5",
			Launch: "L1", PaneStartedAt: started, Source: "user", At: started},
		Activity: state.ActivityFacts{State: state.ActivityIdle, Since: started, Source: "user"}}
	st, err := s.Store()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(tx *store.Tx) error { return tx.Put(r) }); err != nil {
		t.Fatal(err)
	}
	return r.Clone()
}

// stored is the record id as the store holds it now.
func stored(t *testing.T, s *Service, id string) *state.Record {
	t.Helper()
	st, err := s.Store()
	if err != nil {
		t.Fatal(err)
	}
	var r *state.Record
	if err := st.View(func(tx *store.Tx) error {
		r, err = tx.Get(id)
		return err
	}); err != nil {
		t.Fatalf("reading %s: %v", id, err)
	}
	return r
}

// ran reports whether any logged invocation names cmd.
func ran(calls []string, cmd string) bool {
	for _, c := range calls {
		if strings.Contains(" "+c+" ", " "+cmd+" ") {
			return true
		}
	}
	return false
}

var bg = context.Background()
