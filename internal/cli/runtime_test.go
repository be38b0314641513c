package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

func exited(name, detail string) func(map[string]listing.Session) bool {
	return func(m map[string]listing.Session) bool {
		s := m[name]
		return s.Activity == state.ActivityExited && exitDetail(s) == detail
	}
}

func exitDetail(s listing.Session) string {
	switch {
	case s.Exit == nil:
		return ""
	case s.Exit.Signal != nil:
		return "exited (" + *s.Exit.Signal + ")"
	case s.Exit.Status != nil:
		return fmt.Sprintf("exited (%d)", *s.Exit.Status)
	}
	return "exited (unknown)"
}

func TestPaneExits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "fail3", "--", "sh", "-c", "sleep 0.3; exit 3")
	e.must("new", "short0", "--", "sh", "-c", "sleep 0.3; exit 0")
	e.must("new", "killed", "--", "sh", "-c", "sleep 0.3; kill -9 $$")
	e.must("new", "termed", "--", "sh", "-c", "sleep 0.3; kill -15 $$")
	e.must("new", "live", "--", "sleep", "3600")
	got := e.waitFor("every exit confirmed", 20*time.Second, func(m map[string]listing.Session) bool {
		return exited("fail3", "exited (3)")(m) && exited("short0", "exited (0)")(m) &&
			exited("killed", "exited (SIGKILL)")(m) && exited("termed", "exited (SIGTERM)")(m)
	})
	for _, name := range []string{"fail3", "short0", "killed", "termed"} {
		s := got[name]
		if s.IsTerminated || s.Status != state.StatusExited || s.Zone != state.ZoneNeedsYou {
			t.Errorf("%s: terminated=%v %s/%s; want exited in needs_you with the pane kept", name, s.IsTerminated, s.Status, s.Zone)
		}
	}
	if has, _ := e.tc.HasSession(context.Background(), "lanes-fail3"); !has {
		t.Error("a failed agent's pane must be kept for inspection")
	}
	if s := got["live"]; s.IsTerminated || s.Activity == state.ActivityExited || s.Status == state.StatusUnknown {
		t.Errorf("a live agent was affected: %+v", s)
	}
}

func TestCleanExitAfterTenSeconds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "done", "--", "sh", "-c", "sleep 11; exit 0")
	got := e.waitFor("clean exit", 30*time.Second, func(m map[string]listing.Session) bool { return m["done"].IsTerminated })
	s := got["done"]
	if s.TerminatedReason == nil || *s.TerminatedReason != "agent exited cleanly (status 0)" || s.Status != state.StatusTerminated {
		t.Fatalf("clean exit: %+v", s)
	}
	if has, _ := e.tc.HasSession(context.Background(), "lanes-done"); has {
		t.Fatal("a clean exit must close the tmux session")
	}
}

// TestReapRaceOnFreshServers: one-second `exit 3` panes, each on a fresh
// server, all end `exited (3)`.
func TestReapRaceOnFreshServers(t *testing.T) {
	t.Parallel()
	for i := range 6 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.must("new", "r", "--", "sh", "-c", "sleep 1; exit 3")
			e.waitFor("exit 3 confirmed", 20*time.Second, exited("r", "exited (3)"))
		})
	}
}

func TestCustomAgentActivityFollowsOutput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "quiet", "--", "sleep", "3600")
	e.must("new", "chatty", "--", "sh", "-c", "sleep 1.5; for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.5; done; sleep 3600")
	e.waitFor("chatty working", 15*time.Second, func(m map[string]listing.Session) bool {
		return m["chatty"].Status == state.StatusWorking && m["quiet"].Status == state.StatusIdle
	})
	e.waitFor("chatty idle once quiet", 20*time.Second, func(m map[string]listing.Session) bool {
		return m["chatty"].Status == state.StatusIdle
	})
}

// A tmux server that exits (killed here; a crash reads the same) takes
// its sessions with it: the next read ends them with the server's end, at
// once, and restore --all brings them back (issue 38).
func TestServerKilledThenReplaced(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "a", "--", "sleep", "3600")
	e.must("new", "b", "--", "sleep", "3600")
	e.waitFor("both seen", 5*time.Second, func(m map[string]listing.Session) bool { return m["a"].Status == state.StatusIdle })
	if _, err := e.tc.Run(context.Background(), "kill-server"); err != nil {
		t.Fatal(err)
	}
	e.must("hook", "generic", "active", "--session", "a")
	e.waitFor("ended with the server", 10*time.Second, func(m map[string]listing.Session) bool {
		return m["a"].IsTerminated && m["b"].IsTerminated
	})
	got := e.ls()
	for _, n := range []string{"a", "b"} {
		if r := got[n].TerminatedReason; r == nil || *r != state.ReasonServerExited {
			t.Fatalf("%s: reason %v, want %q", n, r, state.ReasonServerExited)
		}
	}
	if got["a"].EventsApplied != 1 || len(got["a"].EventsDropped) != 0 {
		t.Fatalf("a hook while tmux was down: applied %d dropped %v", got["a"].EventsApplied, got["a"].EventsDropped)
	}
	if _, errs, _ := e.run("ls"); !strings.Contains(errs, "2 session(s) ended with it (a, b); `lanes restore --all`") { // why, and the way back
		t.Errorf("ls after the server exited: stderr %q", errs)
	}
	// New sessions work on a new server; restore --all brings a and b back.
	e.must("new", "c", "--", "sleep", "3600")
	e.waitFor("c live", 5*time.Second, func(m map[string]listing.Session) bool { return m["c"].Status == state.StatusIdle })
	out := e.must("restore", "--all")
	e.waitFor("a and b back", 10*time.Second, func(m map[string]listing.Session) bool {
		return !m["a"].IsTerminated && !m["b"].IsTerminated && m["a"].Status == state.StatusIdle && m["b"].Status == state.StatusIdle
	})
	if !strings.Contains(out, "a") || !strings.Contains(out, "b") {
		t.Errorf("restore --all said %q", out)
	}
}

func TestRestartFencesTheOldLaunch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "w", "--", "sh", "-c", "sleep 0.2; exit 4")
	e.waitFor("exited", 15*time.Second, exited("w", "exited (4)"))
	old := e.ls()["w"]
	e.must("restart", "w")
	got := e.ls()["w"]
	if got.Launch == old.Launch || got.Activity != state.ActivityIdle || got.Exit != nil {
		t.Fatalf("after restart: launch %s→%s activity %s exit %+v", old.Launch, got.Launch, got.Activity, got.Exit)
	}
	line := state.Line{V: 1, At: time.Now().UTC(), Session: got.ID, Launch: old.Launch, Agent: "generic", Event: "active"}
	if err := store.AppendLine(e.state, line); err != nil {
		t.Fatal(err)
	}
	got = e.ls()["w"]
	if got.EventsDropped[state.DropStaleLaunch] != 1 || got.Activity != state.ActivityIdle {
		t.Fatalf("old-launch event: dropped %v, activity %s", got.EventsDropped, got.Activity)
	}
	// The respawned agent exits again and is seen again.
	e.waitFor("exited again", 15*time.Second, exited("w", "exited (4)"))
}

// TestFailedRestartKeepsTheLaunch: when the respawn fails (its directory is
// gone), the agent still running keeps its launch: its events still count.
func TestFailedRestartKeepsTheLaunch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := t.TempDir()
	e.must("new", "w", "--dir", dir, "--", "sleep", "600")
	before := e.ls()["w"]
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("restart", "w"); code == exitOK || !strings.Contains(errs, "does not exist") {
		t.Fatalf("restart into a removed dir: exit %d, %q", code, errs)
	}
	after := e.ls()["w"]
	if after.Launch != before.Launch {
		t.Fatalf("a failed restart changed the launch %s → %s", before.Launch, after.Launch)
	}
	line := state.Line{V: 1, At: time.Now().UTC(), Session: after.ID, Launch: before.Launch, Agent: "generic", Event: "active"}
	if err := store.AppendLine(e.state, line); err != nil {
		t.Fatal(err)
	}
	if got := e.ls()["w"]; got.EventsDropped[state.DropStaleLaunch] != 0 || got.Activity != state.ActivityActive {
		t.Fatalf("the running agent's event: dropped %v, activity %s", got.EventsDropped, got.Activity)
	}
}

func TestSendRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "cat", "--", "cat")
	e.must("new", "gone", "--", "sh", "-c", "exit 2")
	e.waitFor("gone exited", 15*time.Second, exited("gone", "exited (2)"))

	e.must("send", "cat", "hello", "; $HOME")
	waitPane(t, e.tc, "lanes-cat", "hello ; $HOME")

	refused := func(code int, msg string, args ...string) {
		t.Helper()
		_, errs, got := e.run(args...)
		if got != code || !strings.Contains(errs, msg) {
			t.Errorf("lanes %v: exit %d %q, want %d %q", args, got, errs, code, msg)
		}
	}
	// lanes knows the pane is dead: it says so, and the way back (trial 3, item 7).
	refused(exitExited, "gone: agent exited — its pane is dead (exit 2); restart it with `lanes restart gone`\n", "send", "gone", "hi")
	refused(exitNoSession, "no such session", "send", "nosuch", "hi")
	// A generic script's blocked is a stdin prompt: send answers it.
	e.must("hook", "generic", "blocked", "--session", "cat")
	e.must("send", "cat", "yes")
	waitPane(t, e.tc, "lanes-cat", "yes")
	// A real agent's permission dialog is not: Enter would answer it.
	e.stdin = firstRealPayload(t, "claude", "permission-reject", "PermissionRequest")
	e.must("hook", "claude", "--session", "cat")
	e.stdin = ""
	refused(exitDialog, "agent is showing a dialog — Enter would answer it; answer it with `lanes answer` (the board's y, N, A) or attach", "send", "cat", "no")
	e.must("kill", "gone")
	refused(exitTerminated, "session terminated", "send", "gone", "hi")
	e.must("send", "--force", "cat", "forced")
	waitPane(t, e.tc, "lanes-cat", "forced")
	// Words of the prompt that look like flags are text.
	e.must("send", "--force", "cat", "echo", "--version", "-force")
	waitPane(t, e.tc, "lanes-cat", "echo --version -force")
}

func waitPane(t *testing.T, tc *tmux.Client, session, want string) {
	t.Helper()
	end := time.Now().Add(5 * time.Second)
	for {
		out, _ := tc.Run(context.Background(), "capture-pane", "-p", "-t", "="+session+":")
		if strings.Contains(string(out), want) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("pane %s never showed %q:\n%s", session, want, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestExactTargetsAndNames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "foo-bar", "--", "sleep", "3600")
	e.must("new", "foo", "--", "sleep", "3600")
	e.must("kill", "foo")
	got := e.ls()
	if !got["foo"].IsTerminated || got["foo-bar"].IsTerminated {
		t.Fatalf("kill foo: foo terminated=%v, foo-bar terminated=%v", got["foo"].IsTerminated, got["foo-bar"].IsTerminated)
	}
	if has, _ := e.tc.HasSession(context.Background(), "lanes-foo-bar"); !has {
		t.Fatal("killing foo killed foo-bar")
	}
	for _, c := range []struct{ cmd, want string }{
		{"kill", "session terminated already (killed by user)"},
		{"restart", "`lanes new foo` starts a new one"},
		{"attach", "foo: session terminated"},
	} {
		if _, errs, code := e.run(c.cmd, "foo"); code != exitTerminated || !strings.Contains(errs, c.want) {
			t.Errorf("lanes %s on a terminated session: exit %d %q, want 4 and %q", c.cmd, code, errs, c.want)
		}
	}
	for _, bad := range []string{"a.b", "a:b", "a b", "", strings.Repeat("x", 41), "../x"} {
		_, errs, code := e.run("new", bad, "--", "sleep", "1")
		if code == 0 || (bad != "" && !strings.Contains(errs, "invalid session name")) {
			t.Errorf("new %q: exit %d %q", bad, code, errs)
		}
	}
	_, errs, code := e.run("new", "foo-bar", "--", "sleep", "1")
	if code == 0 || !strings.Contains(errs, "live session named") {
		t.Errorf("duplicate live name: exit %d %q", code, errs)
	}
	if _, err := e.tc.Run(context.Background(), "new-session", "-d", "-s", "lanes-clash", "sleep", "60"); err != nil {
		t.Fatal(err)
	}
	_, errs, code = e.run("new", "clash", "--", "sleep", "1")
	if code == 0 || !strings.Contains(errs, "tmux already has a session named lanes-clash") {
		t.Errorf("tmux clash: exit %d %q", code, errs)
	}
	_, errs, code = e.run("new", "nodir", "--dir", filepath.Join(e.home, "missing"), "--", "sleep", "1")
	if code == 0 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing dir: exit %d %q", code, errs)
	}
	_, errs, code = e.run("new", "nobin", "--agent", "codex")
	if code == 0 || !strings.Contains(errs, "codex not found on PATH: install it") {
		t.Errorf("missing agent: exit %d %q", code, errs)
	}
	// A command of one's own, given by path: what is wrong with the file,
	// not advice to run a command of one's own.
	_, errs, code = e.run("new", "nopath", "--", "/no/such/binary")
	if code == 0 || !strings.Contains(errs, "cannot run /no/such/binary: no such file or directory") || strings.Contains(errs, "PATH") {
		t.Errorf("missing command by path: exit %d %q", code, errs)
	}
	for _, n := range []string{"clash", "nodir", "nobin", "nopath"} {
		if _, ok := e.ls()[n]; ok {
			t.Errorf("a refused new left a record for %s", n)
		}
	}
	_, _, code = e.run("rm", "foo-bar")
	if code == 0 {
		t.Error("rm of a live session must be refused")
	}
	e.must("rm", "foo")
	if _, ok := e.ls()["foo"]; ok {
		t.Error("rm left the record")
	}
}

// TestHooksReachTheirStateDir: the tmux server was started by a process with
// another LANES_STATE_DIR; the pane still reports to the session's own.
func TestHooksReachTheirStateDir(t *testing.T) {
	t.Parallel()
	tc := tmuxtest.Server(t)
	other := t.TempDir()
	if _, err := tc.Run(context.Background(), "new-session", "-d", "-s", "keep", "-e", "LANES_STATE_DIR="+other, "sleep", "3600"); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.Run(context.Background(), "set-environment", "-g", "LANES_STATE_DIR", other); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, tc: tc, state: filepath.Join(t.TempDir(), "state"), home: t.TempDir()}
	e.vars = map[string]string{"LANES_STATE_DIR": e.state, "LANES_TMUX_SOCKET": tc.Socket, "HOME": e.home, "PATH": os.Getenv("PATH")}
	e.must("new", "h", "--", "sh", "-c", hookCmd("generic", "active")+"; sleep 3600")
	e.waitFor("hook applied", 10*time.Second, func(m map[string]listing.Session) bool { return m["h"].EventsApplied == 1 })
	if entries, _ := os.ReadDir(filepath.Join(other, "spool")); len(entries) != 0 {
		t.Fatalf("the hook wrote to the server's state dir: %v", entries)
	}
}

// TestOneTmuxReadPerCycle counts tmux invocations per cycle.
func TestOneTmuxReadPerCycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	made := 0
	for _, n := range []int{1, 10, 50} {
		for ; made < n; made++ {
			e.must("new", fmt.Sprintf("s%d", made), "--", "sleep", "3600")
		}
		var calls atomic.Int32
		counting := &tmux.Client{Socket: e.tc.Socket, Run: func(ctx context.Context, args ...string) ([]byte, error) {
			calls.Add(1)
			return e.tc.Run(ctx, args...)
		}}
		col := &store.Collector{Store: store.New(e.state), Panes: session.Panes{Client: counting}, Socket: e.tc.Socket}
		for range 3 {
			calls.Store(0)
			res, err := col.Cycle(ctx)
			if err != nil || res.TmuxErr != nil {
				t.Fatal(err, res.TmuxErr)
			}
			if got := calls.Load(); got != 1 {
				t.Fatalf("%d sessions: %d tmux calls in one cycle, want 1", n, got)
			}
		}
	}
}

// TestInstalledHooksCount: where lanes cannot inject an agent's hooks (here
// OpenCode with OPENCODE_CONFIG_DIR already set), hooks the user installed
// make the session hook-capable, as docs/design.md §6 says.
func TestInstalledHooksCount(t *testing.T) {
	e := newEnv(t)
	bin := t.TempDir()
	writeExec(t, filepath.Join(bin, "opencode"), "#!/bin/sh\nsleep 600\n")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	e.vars["PATH"] = os.Getenv("PATH")
	e.vars["OPENCODE_CONFIG_DIR"] = t.TempDir()
	capable := func(name string) bool {
		var r *state.Record
		if err := store.New(e.state).View(func(tx *store.Tx) error {
			var err error
			r, err = tx.Resolve(name)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return r.Activity.HooksReport
	}
	e.must("new", "bare", "--agent", "opencode")
	if capable("bare") {
		t.Error("a session whose hooks were neither injected nor installed counts as hook-capable")
	}
	e.must("hooks", "install", "opencode")
	e.must("new", "installed", "--agent", "opencode")
	if !capable("installed") {
		t.Error("a session with installed hooks does not count as hook-capable")
	}
}
