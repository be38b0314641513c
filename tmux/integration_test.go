package tmux_test

// Integration tests against a real tmux server on a private socket
// (tmuxtest.Server). They check what the unit tests cannot: that tmux
// itself behaves the way the argv builders assume.

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// waitFor polls cond every 20ms until it holds, failing the test after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		<-tick.C
	}
}

// raw runs an unescaped tmux command on the test server.
func raw(t *testing.T, c *tmux.Client, args ...string) (string, error) {
	t.Helper()
	out, err := c.Run(t.Context(), args...)
	return strings.TrimSpace(string(out)), err
}

func newSession(t *testing.T, c *tmux.Client, o tmux.NewSessionOpts) tmux.SessionInfo {
	t.Helper()
	info, err := c.NewSession(t.Context(), o)
	if err != nil {
		t.Fatalf("NewSession(%q): %v", o.Name, err)
	}
	return info
}

// paneByID reads all our panes (with reap) and returns paneID's.
func paneByID(t *testing.T, c *tmux.Client, paneID string) (tmux.Pane, bool) {
	t.Helper()
	panes, err := c.ListPanes(t.Context(), true)
	if err != nil {
		t.Fatalf("ListPanes: %v", err)
	}
	for _, p := range panes {
		if p.PaneID == paneID {
			return p, true
		}
	}
	return tmux.Pane{}, false
}

// waitDead waits until paneID reads dead with its exit recorded.
func waitDead(t *testing.T, c *tmux.Client, paneID string) tmux.Pane {
	t.Helper()
	var p tmux.Pane
	waitFor(t, 5*time.Second, paneID+" to die", func() bool {
		var ok bool
		p, ok = paneByID(t, c, paneID)
		return ok && p.Dead && !p.DeadTime.IsZero()
	})
	return p
}

func TestPaneExit(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	tests := []struct {
		name       string
		command    []string
		wantStatus *int
		wantSignal string
	}{
		{"exit 3", []string{"sh", "-c", "exit 3"}, ptr(3), ""},
		{"exit 0 is status 0", []string{"sh", "-c", "exit 0"}, ptr(0), ""},
		{"kill -9", []string{"sh", "-c", "kill -9 $$"}, nil, "SIGKILL"},
		{"kill -15", []string{"sh", "-c", "kill -15 $$"}, nil, "SIGTERM"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "exit" + string(rune('a'+i))
			info := newSession(t, c, tmux.NewSessionOpts{Name: name, Command: tt.command, LanesID: "id" + name})
			p := waitDead(t, c, info.PaneID)
			if p.PaneID != info.PaneID || p.LanesID != "id"+name || p.PID != info.PanePID {
				t.Errorf("pane %+v does not match %+v", p, info)
			}
			switch {
			case tt.wantStatus == nil && p.DeadStatus != nil:
				t.Errorf("status = %d, want absent", *p.DeadStatus)
			case tt.wantStatus != nil && (p.DeadStatus == nil || *p.DeadStatus != *tt.wantStatus):
				t.Errorf("status = %v, want %d", p.DeadStatus, *tt.wantStatus)
			}
			if p.DeadSignal != tt.wantSignal {
				t.Errorf("signal = %q, want %q", p.DeadSignal, tt.wantSignal)
			}
			if p.WindowActivity.IsZero() {
				t.Error("window_activity not read")
			}
		})
	}
}

func TestExactTargets(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	ctx := t.Context()
	newSession(t, c, tmux.NewSessionOpts{Name: "foo-bar", Command: []string{"sleep", "60"}})
	if ok, err := c.HasSession(ctx, "foo"); ok || err != nil {
		t.Fatalf("HasSession(foo) with only foo-bar = %v, %v; want false, nil", ok, err)
	}
	if err := c.KillSession(ctx, "foo"); !errors.Is(err, tmux.ErrNoSession) {
		t.Fatalf("KillSession(foo) with only foo-bar: %v, want ErrNoSession", err)
	}
	foo := newSession(t, c, tmux.NewSessionOpts{Name: "foo", Command: []string{"sleep", "60"}})
	if ok, err := c.HasSession(ctx, "foo"); !ok || err != nil {
		t.Fatalf("HasSession(foo) = %v, %v", ok, err)
	}
	if err := c.KillSession(ctx, "foo"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.HasSession(ctx, "foo-bar"); !ok {
		t.Error("killing foo killed foo-bar")
	}
	if ok, _ := c.HasSession(ctx, foo.SessionID); ok {
		t.Error("foo survived its kill")
	}
	bar, err := raw(t, c, "display-message", "-p", "-t", "=foo-bar:", "#{session_id}")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.KillSession(ctx, bar); err != nil {
		t.Fatalf("KillSession by id %s: %v", bar, err)
	}
}

func TestDuplicateSession(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	first := newSession(t, c, tmux.NewSessionOpts{Name: "dup", Command: []string{"sleep", "60"}, LanesID: "one"})
	_, err := c.NewSession(t.Context(), tmux.NewSessionOpts{Name: "dup", Command: []string{"sleep", "60"}, LanesID: "two"})
	if !errors.Is(err, tmux.ErrDuplicate) {
		t.Fatalf("err = %v, want ErrDuplicate", err)
	}
	p, ok := paneByID(t, c, first.PaneID)
	if !ok || p.LanesID != "one" {
		t.Errorf("the existing session was touched: %+v, found %v", p, ok)
	}
}

// TestSocketFile: SocketFile names the file the server itself reports.
func TestSocketFile(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	newSession(t, c, tmux.NewSessionOpts{Name: "sock", Command: []string{"sleep", "60"}, LanesID: "s"})
	got, err := c.SocketPath(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := tmux.SocketFile(c.Socket); filepath.Clean(got) != want {
		t.Errorf("SocketFile(%q) = %s, the server says %s", c.Socket, want, got)
	}
}

func TestNoServer(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t) // never started
	ctx := t.Context()
	if _, err := c.ListPanes(ctx, false); !errors.Is(err, tmux.ErrNoServer) {
		t.Errorf("ListPanes: %v, want ErrNoServer", err)
	}
	if _, err := c.ListPanes(ctx, true); !errors.Is(err, tmux.ErrNoServer) {
		t.Errorf("ListPanes(reap): %v, want ErrNoServer", err)
	}
	if _, err := c.HasSession(ctx, "x"); !errors.Is(err, tmux.ErrNoServer) {
		t.Errorf("HasSession: %v, want ErrNoServer", err)
	}
	if _, err := c.SocketPath(ctx); !errors.Is(err, tmux.ErrNoServer) {
		t.Errorf("SocketPath: %v, want ErrNoServer", err)
	}
	if v, err := c.Version(ctx); err != nil || v == "" {
		t.Errorf("Version needs no server: %q, %v", v, err)
	}
}

func TestOptionsStayLocal(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	ours := newSession(t, c, tmux.NewSessionOpts{Name: "ours", Command: []string{"sleep", "60"}, LanesID: "k3v9x2ab"})
	plain, err := raw(t, c, "new-session", "-d", "-s", "plain", "-P", "-F", "#{pane_id}", "sleep", "60")
	if err != nil {
		t.Fatal(err)
	}
	show := func(args ...string) string {
		out, _ := raw(t, c, append([]string{"show-options", "-v"}, args...)...)
		return out
	}
	checks := []struct{ what, got, want string }{
		{"our pane remain-on-exit", show("-p", "-t", ours.PaneID, "remain-on-exit"), "on"},
		{"our window remain-on-exit", show("-w", "-t", ours.PaneID, "remain-on-exit"), ""},
		{"global remain-on-exit", show("-g", "remain-on-exit"), "off"},
		{"global window remain-on-exit", show("-gw", "remain-on-exit"), "off"},
		{"other pane remain-on-exit", show("-p", "-t", plain, "remain-on-exit"), ""},
		{"our session @lanes_id", show("-t", ours.SessionID, "@lanes_id"), "k3v9x2ab"},
		{"global @lanes_id", show("-g", "@lanes_id"), ""},
		{"our pane @lanes_id", show("-p", "-t", ours.PaneID, "@lanes_id"), ""},
		{"other session @lanes_id", show("-t", plain, "@lanes_id"), ""},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("%s = %q, want %q", ck.what, ck.got, ck.want)
		}
	}
	panes, err := c.ListPanes(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	// Both panes, only ours with the id: another session's pane is read
	// (a session lanes did not start may run there) but never marked.
	lanesIDs := map[string]string{}
	for _, p := range panes {
		lanesIDs[p.PaneID] = p.LanesID
	}
	if len(panes) != 2 || lanesIDs[ours.PaneID] != "k3v9x2ab" || lanesIDs["%1"] != "" {
		t.Errorf("ListPanes = %+v, want %s with its id and the other pane without", panes, ours.PaneID)
	}
}

// TestExplicitTargetsInsideTmux creates a session the way lanes does when
// it runs inside a tmux pane: with $TMUX and $TMUX_PANE pointing at another
// session of the same server, an untargeted set-option would land there.
func TestExplicitTargetsInsideTmux(t *testing.T) {
	c := tmuxtest.Server(t)
	home, err := raw(t, c, "new-session", "-d", "-s", "home", "-P", "-F", "#{pane_id}", "sleep", "60")
	if err != nil {
		t.Fatal(err)
	}
	sock, err := c.SocketPath(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMUX", sock+",1,0")
	t.Setenv("TMUX_PANE", home)
	info := newSession(t, c, tmux.NewSessionOpts{Name: "new", Command: []string{"sleep", "60"}, LanesID: "newid"})
	for _, ck := range []struct{ target, opt, want string }{
		{home, "remain-on-exit", ""},
		{info.PaneID, "remain-on-exit", "on"},
	} {
		if got, _ := raw(t, c, "show-options", "-pv", "-t", ck.target, ck.opt); got != ck.want {
			t.Errorf("%s %s = %q, want %q", ck.target, ck.opt, got, ck.want)
		}
	}
	if got, _ := raw(t, c, "show-options", "-v", "-t", home, "@lanes_id"); got != "" {
		t.Errorf("caller's session got @lanes_id %q", got)
	}
	if got, _ := raw(t, c, "show-options", "-v", "-t", info.SessionID, "@lanes_id"); got != "newid" {
		t.Errorf("new session @lanes_id = %q", got)
	}
}

func TestEnvAndDir(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	// '#' would be expanded as a format by -c; ';' ends a tmux argv word.
	dir := filepath.Join(t.TempDir(), "src#S;")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	info := newSession(t, c, tmux.NewSessionOpts{
		Name:    "env",
		Dir:     dir,
		Env:     []string{"LANES_SESSION=abc;", "OTHER=$HOME"},
		Command: []string{"sh", "-c", `echo "S=$LANES_SESSION O=$OTHER"; pwd; sleep 30`},
		LanesID: "x",
	})
	waitCapture(t, c, info.PaneID, "S=abc; O=$HOME", dir)
}

func TestSingleWordCommandIsNotParsedByAShell(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	prog := filepath.Join(t.TempDir(), "my agent")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexit 7\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	info := newSession(t, c, tmux.NewSessionOpts{Name: "one", Command: []string{prog}, LanesID: "x"})
	p := waitDead(t, c, info.PaneID)
	if p.DeadStatus == nil || *p.DeadStatus != 7 {
		t.Errorf("status = %v, want 7 (a shell would split the path and exit 127)", p.DeadStatus)
	}
}

func TestRespawnPane(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	info := newSession(t, c, tmux.NewSessionOpts{Name: "re", Command: []string{"sh", "-c", "exit 3"}, LanesID: "x"})
	waitDead(t, c, info.PaneID)
	dir := t.TempDir()
	err := c.RespawnPane(t.Context(), info.PaneID, dir, []string{"AGAIN=yes"},
		[]string{"sh", "-c", `echo "again=$AGAIN"; pwd; sleep 30`})
	if err != nil {
		t.Fatal(err)
	}
	waitCapture(t, c, info.PaneID, "again=yes", dir)
	p, ok := paneByID(t, c, info.PaneID)
	if !ok || p.Dead || p.DeadStatus != nil || p.PID == info.PanePID {
		t.Errorf("after respawn: %+v (found %v)", p, ok)
	}
	if got, _ := raw(t, c, "show-options", "-pv", "-t", info.PaneID, "remain-on-exit"); got != "on" {
		t.Errorf("remain-on-exit after respawn = %q", got)
	}
	if err := c.RespawnPane(t.Context(), "%999", "", nil, []string{"true", "x"}); !errors.Is(err, tmux.ErrNoSession) {
		t.Errorf("respawn of a missing pane: %v, want ErrNoSession", err)
	}
}

func TestServerFacts(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	info := newSession(t, c, tmux.NewSessionOpts{Name: "s", Command: []string{"sh", "-c", "seq 1 100; sleep 30"}})
	sock, err := c.SocketPath(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(sock) != c.Socket {
		t.Errorf("socket path %q is not for %q", sock, c.Socket)
	}
	if !tmux.InsideSameServer(sock+",123,0", sock) {
		t.Error("InsideSameServer false for this server's own $TMUX")
	}
	waitCapture(t, c, info.PaneID, "100")
	out, err := c.CapturePane(t.Context(), info.PaneID, 100)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(out), "\n"); !slices.Contains(lines, "1") || !slices.Contains(lines, "2") {
		t.Error("history above the screen was not captured")
	}
	if err := c.SwitchClient(t.Context(), "s"); err == nil {
		t.Error("switch-client with no client attached should fail")
	}
}

// waitCapture waits until paneID's capture contains every want.
func waitCapture(t *testing.T, c *tmux.Client, paneID string, want ...string) {
	t.Helper()
	var screen string
	waitFor(t, 5*time.Second, "pane output", func() bool {
		out, err := c.CapturePane(t.Context(), paneID, 0)
		if err != nil {
			t.Fatalf("CapturePane: %v", err)
		}
		screen = string(out)
		for _, w := range want {
			if !strings.Contains(screen, w) {
				return false
			}
		}
		return true
	})
}

func ptr(n int) *int { return &n }
