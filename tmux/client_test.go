package tmux

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// step is one expected tmux invocation and its canned answer.
type step struct {
	args []string
	out  string
	err  error
}

// expectArgs returns a Runner that checks each invocation's argv against
// steps, in order, and fails the test if any step is left unused.
func expectArgs(t *testing.T, steps ...step) Runner {
	t.Helper()
	i := 0
	t.Cleanup(func() {
		if i != len(steps) {
			t.Errorf("%d tmux calls made, %d expected", i, len(steps))
		}
	})
	return func(_ context.Context, args ...string) ([]byte, error) {
		t.Helper()
		if i >= len(steps) {
			t.Errorf("unexpected tmux call %q", args)
			return nil, errors.New("unexpected call")
		}
		s := steps[i]
		i++
		if !slices.Equal(args, s.args) {
			t.Errorf("tmux argv\n got %q\nwant %q", args, s.args)
		}
		return []byte(s.out), s.err
	}
}

func fakeClient(t *testing.T, steps ...step) *Client {
	return &Client{Socket: "sock", Run: expectArgs(t, steps...)}
}

func argv(s ...string) []string { return s }

func TestSessionTarget(t *testing.T) {
	for in, want := range map[string]string{
		"$3":   "$3",
		"$12":  "$12",
		"foo":  "=foo",
		"$foo": "=$foo",
		"$":    "=$",
		"=foo": "=foo",
		"3":    "=3",
	} {
		if got := SessionTarget(in); got != want {
			t.Errorf("SessionTarget(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeArg(t *testing.T) {
	// tmux turns a trailing "\;" back into ";" and treats a bare trailing
	// ';' as a separator; these pairs were checked against tmux 3.3a.
	for in, want := range map[string]string{
		"plain":   "plain",
		";":       `\;`,
		"a;":      `a\;`,
		`a\;`:     `a\\;`,
		"a;b":     "a;b",
		"e;;":     `e;\;`,
		"; echo":  "; echo",
		"":        "",
		"$HOME #": "$HOME #",
	} {
		if got := escapeArg(in); got != want {
			t.Errorf("escapeArg(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommandName(t *testing.T) {
	if got := commandName(argv("run-shell", "true", ";", "list-panes", "-a")); got != "run-shell ; list-panes" {
		t.Errorf("got %q", got)
	}
	if got := commandName(argv("send-keys", "-l", "--", `x\;`)); got != "send-keys" {
		t.Errorf("escaped separator taken for a real one: %q", got)
	}
}

func TestListPanesArgv(t *testing.T) {
	// The exit fields are looked up only for a dead pane.
	format := "#{@lanes_id}\x1f#{pane_id}\x1f#{pane_pid}\x1f#{window_activity}\x1f#{session_id}\x1f#{pid}\x1f" +
		"#{?pane_dead,1\x1f#{pane_dead_status}\x1f#{pane_dead_signal}\x1f#{pane_dead_time},0\x1f\x1f\x1f}"
	ours := line("id1", "%1", "10", "1", "$1", "900", "0", "", "", "") + "\n" +
		line("", "%2", "11", "1", "$1", "900", "0", "", "", "") + "\n"
	c := fakeClient(t,
		step{args: argv("list-panes", "-a", "-F", format), out: ours},
		step{args: argv("list-panes", "-a", "-F", format), out: ""},
	)
	panes, err := c.ListPanes(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(panes) != 2 || panes[0].LanesID != "id1" || panes[1].LanesID != "" || panes[1].PaneID != "%2" {
		t.Errorf("want the @lanes_id pane and the other, got %+v", panes)
	}
	panes, err = c.ListPanes(context.Background(), true)
	if err != nil || len(panes) != 0 {
		t.Errorf("empty answer: panes %v, err %v", panes, err)
	}
}

func TestListPanesNoServer(t *testing.T) {
	c := fakeClient(t, step{args: argv("list-panes", "-a", "-F", paneFormat),
		err: wrapErr("list-panes", ErrNoServer, "no server running on /tmp/x")})
	if _, err := c.ListPanes(context.Background(), false); !errors.Is(err, ErrNoServer) {
		t.Errorf("err = %v, want ErrNoServer", err)
	}
}

func TestNewSessionArgv(t *testing.T) {
	dir := t.TempDir()
	c := fakeClient(t, step{
		args: argv("new-session", "-d", "-s", "lanes-api", "-x", "200", "-y", "50",
			"-P", "-F", "#{session_id}\x1f#{pane_id}\x1f#{pane_pid}",
			"-c", dir, "-e", "LANES_SESSION=k3v9x2ab", "-e", "A=b;c\\;",
			"--", "claude", "--model", "opus",
			";", "set-option", "-p", "-t", "=lanes-api:", "remain-on-exit", "on",
			";", "set-option", "-t", "=lanes-api:", "--", "@lanes_id", "k3v9x2ab"),
		out: "$4\x1f%9\x1f4242\n",
	})
	info, err := c.NewSession(context.Background(), NewSessionOpts{
		Name:    "lanes-api",
		Dir:     dir,
		Env:     []string{"LANES_SESSION=k3v9x2ab", "A=b;c;"},
		Command: []string{"claude", "--model", "opus"},
		LanesID: "k3v9x2ab",
	})
	if err != nil {
		t.Fatal(err)
	}
	if info != (SessionInfo{SessionID: "$4", PaneID: "%9", PanePID: 4242}) {
		t.Errorf("info = %+v", info)
	}
}

func TestNewSessionSingleWordAvoidsShell(t *testing.T) {
	c := fakeClient(t, step{
		args: argv("new-session", "-d", "-s", "x", "-x", "80", "-y", "24",
			"-P", "-F", "#{session_id}\x1f#{pane_id}\x1f#{pane_pid}",
			"--", "/usr/bin/env", "--", "my agent; rm -rf ~",
			";", "set-option", "-p", "-t", "=x:", "remain-on-exit", "on"),
		out: "$1\x1f%1\x1f1\n",
	})
	_, err := c.NewSession(context.Background(), NewSessionOpts{
		Name: "x", Command: []string{"my agent; rm -rf ~"}, Width: 80, Height: 24,
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestNewSessionEscapesDirFormat(t *testing.T) {
	dir := t.TempDir() + "/c#S"
	if err := mkdir(dir); err != nil {
		t.Fatal(err)
	}
	c := fakeClient(t, step{
		args: argv("new-session", "-d", "-s", "x", "-x", "200", "-y", "50",
			"-P", "-F", "#{session_id}\x1f#{pane_id}\x1f#{pane_pid}",
			"-c", strings.ReplaceAll(dir, "#", "##"),
			";", "set-option", "-p", "-t", "=x:", "remain-on-exit", "on"),
		out: "$1\x1f%1\x1f1\n",
	})
	if _, err := c.NewSession(context.Background(), NewSessionOpts{Name: "x", Dir: dir}); err != nil {
		t.Fatal(err)
	}
}

func TestNewSessionRefusals(t *testing.T) {
	tests := []struct {
		name string
		o    NewSessionOpts
	}{
		{"empty name", NewSessionOpts{}},
		{"dot", NewSessionOpts{Name: "a.b"}},
		{"colon", NewSessionOpts{Name: "a:b"}},
		{"format", NewSessionOpts{Name: "a#{pane_id}"}},
		{"id-like", NewSessionOpts{Name: "$3"}},
		{"exact prefix", NewSessionOpts{Name: "=a"}},
		{"newline", NewSessionOpts{Name: "a\nb"}},
		{"C1 control", NewSessionOpts{Name: "a\u009bb"}},
		{"missing dir", NewSessionOpts{Name: "a", Dir: "/nonexistent/lanes/dir"}},
		{"bad env", NewSessionOpts{Name: "a", Env: []string{"NOEQUALS"}}},
		{"empty env key", NewSessionOpts{Name: "a", Env: []string{"=v"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeClient(t) // no tmux call may happen
			if _, err := c.NewSession(context.Background(), tt.o); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestNewSessionDuplicate(t *testing.T) {
	c := fakeClient(t, step{
		args: argv("new-session", "-d", "-s", "x", "-x", "200", "-y", "50",
			"-P", "-F", "#{session_id}\x1f#{pane_id}\x1f#{pane_pid}",
			";", "set-option", "-p", "-t", "=x:", "remain-on-exit", "on"),
		err: wrapErr("new-session", ErrDuplicate, "duplicate session: x"),
	})
	// No kill-session may follow: the existing session is not ours.
	if _, err := c.NewSession(context.Background(), NewSessionOpts{Name: "x"}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("err = %v, want ErrDuplicate", err)
	}
}

func TestNewSessionRemovesHalfMadeSession(t *testing.T) {
	c := fakeClient(t,
		step{
			args: argv("new-session", "-d", "-s", "x", "-x", "200", "-y", "50",
				"-P", "-F", "#{session_id}\x1f#{pane_id}\x1f#{pane_pid}",
				";", "set-option", "-p", "-t", "=x:", "remain-on-exit", "on"),
			out: "$7\x1f%3\x1f99\n",
			err: errors.New("tmux new-session ; set-option: exit status 1: invalid option"),
		},
		step{args: argv("kill-session", "-t", "$7")},
	)
	if _, err := c.NewSession(context.Background(), NewSessionOpts{Name: "x"}); err == nil {
		t.Error("want the option error")
	}
}

func TestSessionCommandsArgv(t *testing.T) {
	dir := t.TempDir()
	noSession := wrapErr("has-session", ErrNoSession, "can't find session: foo")
	c := fakeClient(t,
		step{args: argv("kill-session", "-t", "=foo")},
		step{args: argv("kill-session", "-t", "$3")},
		step{args: argv("has-session", "-t", "=foo")},
		step{args: argv("has-session", "-t", "=foo"), err: noSession},
		step{args: argv("respawn-pane", "-k", "-t", "%5", "-c", dir, "-e", "K=V", "--", "sh", "-c", `exit 3\;`)},
		step{args: argv("capture-pane", "-p", "-e", "-t", "%5", "-S", "-40")},
		step{args: argv("capture-pane", "-p", "-e", "-t", "%5")},
		step{args: argv("switch-client", "-t", "=foo")},
		step{args: argv("-V"), out: "tmux 3.3a\n"},
		step{args: argv("display-message", "-p", "#{socket_path}"), out: "/tmp/tmux-0/sock\n"},
	)
	ctx := context.Background()
	must(t, c.KillSession(ctx, "foo"))
	must(t, c.KillSession(ctx, "$3"))
	if ok, err := c.HasSession(ctx, "foo"); !ok || err != nil {
		t.Errorf("HasSession = %v, %v", ok, err)
	}
	if ok, err := c.HasSession(ctx, "foo"); ok || err != nil {
		t.Errorf("missing session: HasSession = %v, %v; want false, nil", ok, err)
	}
	must(t, c.RespawnPane(ctx, "%5", dir, []string{"K=V"}, []string{"sh", "-c", "exit 3;"}))
	must2(t)(c.CapturePane(ctx, "%5", 40))
	must2(t)(c.CapturePane(ctx, "%5", 0))
	must(t, c.SwitchClient(ctx, "foo"))
	if v, err := c.Version(ctx); v != "3.3a" || err != nil {
		t.Errorf("Version = %q, %v", v, err)
	}
	if p, err := c.SocketPath(ctx); p != "/tmp/tmux-0/sock" || err != nil {
		t.Errorf("SocketPath = %q, %v", p, err)
	}
}

func TestHasSessionNoServerIsNotFalse(t *testing.T) {
	c := fakeClient(t, step{args: argv("has-session", "-t", "=foo"),
		err: wrapErr("has-session", ErrNoServer, "no server running on /tmp/x")})
	if _, err := c.HasSession(context.Background(), "foo"); !errors.Is(err, ErrNoServer) {
		t.Errorf("err = %v, want ErrNoServer", err)
	}
}

func TestPaneCommandsRefuseNonPaneTargets(t *testing.T) {
	ctx := context.Background()
	for _, target := range []string{"", "foo", "=foo", "=foo:", "$3", "%", "%3x", "3"} {
		c := fakeClient(t) // no tmux call may happen
		if err := c.SendText(ctx, target, "x"); !errors.Is(err, ErrInvalid) {
			t.Errorf("SendText(%q) err = %v", target, err)
		}
		if _, err := c.CapturePane(ctx, target, 10); !errors.Is(err, ErrInvalid) {
			t.Errorf("CapturePane(%q) err = %v", target, err)
		}
		if err := c.RespawnPane(ctx, target, "", nil, []string{"true", "x"}); !errors.Is(err, ErrInvalid) {
			t.Errorf("RespawnPane(%q) err = %v", target, err)
		}
	}
}

func TestAttachCmd(t *testing.T) {
	c := &Client{Socket: "lanes", Config: "/dev/null"}
	cmd := c.AttachCmd("api")
	want := argv("tmux", "-L", "lanes", "-f", "/dev/null", "attach-session", "-t", "=api")
	if !slices.Equal(cmd.Args, want) {
		t.Errorf("args %q, want %q", cmd.Args, want)
	}
	cmd = New("").AttachCmd("$3")
	if want := argv("tmux", "attach-session", "-t", "$3"); !slices.Equal(cmd.Args, want) {
		t.Errorf("default server: args %q, want %q", cmd.Args, want)
	}
}

func TestSwitchArgs(t *testing.T) {
	if got, want := SwitchArgs("api"), argv("switch-client", "-t", "=api"); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestInsideSameServer(t *testing.T) {
	const sock = "/tmp/tmux-1000/lanes"
	tests := []struct {
		env, sock string
		want      bool
	}{
		{"/tmp/tmux-1000/lanes,1234,0", sock, true},
		{"/tmp/tmux-1000//lanes,1234,5", sock, true},
		{"/tmp/tmux-1000/default,1234,0", sock, false},
		{"/tmp/a,b/lanes,1,0", "/tmp/a,b/lanes", true},
		{"", sock, false},
		{"/tmp/tmux-1000/lanes", sock, false},
		{"/tmp/tmux-1000/lanes,1234,0", "", false},
	}
	for _, tt := range tests {
		if got := InsideSameServer(tt.env, tt.sock); got != tt.want {
			t.Errorf("InsideSameServer(%q, %q) = %v, want %v", tt.env, tt.sock, got, tt.want)
		}
	}
}

func TestSocketFromEnv(t *testing.T) {
	t.Setenv(SocketEnv, "fromenv")
	if got := SocketFromEnv("flag"); got != "flag" {
		t.Errorf("flag ignored: %q", got)
	}
	if got := SocketFromEnv(""); got != "fromenv" {
		t.Errorf("env ignored: %q", got)
	}
	t.Setenv(SocketEnv, "")
	if got := SocketFromEnv(""); got != "" {
		t.Errorf("want default server, got %q", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func must2(t *testing.T) func([]byte, error) {
	return func(_ []byte, err error) {
		t.Helper()
		must(t, err)
	}
}

func mkdir(dir string) error { return os.Mkdir(dir, 0o755) }

func TestSwitchFrom(t *testing.T) {
	ctx := context.Background()
	path := step{args: argv("display-message", "-p", "#{socket_path}"), out: "/tmp/tmux-0/sock\n"}
	same := fakeClient(t, path, step{args: SwitchArgs("$3")})
	if err := same.SwitchFrom(ctx, "/tmp/tmux-0/sock,4242,0", "$3"); err != nil {
		t.Errorf("inside the same server: %v", err)
	}
	other := fakeClient(t, path) // no switch-client may follow
	if err := other.SwitchFrom(ctx, "/tmp/tmux-0/default,99,0", "$3"); !errors.Is(err, ErrOtherServer) {
		t.Errorf("inside another server: %v, want ErrOtherServer", err)
	}
}
