package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/internal/remote"
)

func TestHookBinaryPrefersLanesNextToTheBoard(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	board := filepath.Join(dir, boardName)
	lean := filepath.Join(dir, "lanes")
	writeExec(t, board, "board")
	if got, err := hookBinaryFor(board, state); err != nil || got != board {
		t.Errorf("without lanes beside it, hooks run %q (%v), want the board itself", got, err)
	}
	writeExec(t, lean, "lanes")
	if got, err := hookBinaryFor(board, state); err != nil || got != lean {
		t.Errorf("hooks run %q (%v), want %q", got, err, lean)
	}
	if got, err := hookBinaryFor(lean, state); err != nil || got != lean {
		t.Errorf("lanes's own hooks run %q (%v)", got, err)
	}

	// A `go run` binary is copied where it outlives the build cache.
	run := filepath.Join(t.TempDir(), "go-build123", "exe", "lanes")
	if err := os.MkdirAll(filepath.Dir(run), 0o700); err != nil {
		t.Fatal(err)
	}
	writeExec(t, run, "built")
	got, err := hookBinaryFor(run, state)
	if body, _ := os.ReadFile(got); err != nil || got != filepath.Join(state, "bin", "lanes") || string(body) != "built" {
		t.Errorf("go run binary: hooks run %q (%v), body %q", got, err, body)
	}
}

// TestBoardMissingExplains: lanes alone, with no lanes-board beside it or
// on PATH, says what to build instead of failing obscurely.
func TestBoardMissingExplains(t *testing.T) {
	dir := t.TempDir()
	alone := filepath.Join(dir, "lanes")
	body, err := os.ReadFile(lanesBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, body, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(alone, "--theme", "dark")
	cmd.Env = []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir(), "LANES_STATE_DIR=" + t.TempDir(),
		"LANES_TMUX_SOCKET=lanes-test-noserver-" + filepath.Base(dir)}
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != exitError || err == nil {
		t.Fatalf("exit %d (%v), want %d; output:\n%s", code, err, exitError, out)
	}
	for _, want := range []string{boardName, "go build -o bin/ ./cmd/...", "go install ./cmd/..."} {
		if !strings.Contains(string(out), want) {
			t.Errorf("message lacks %q:\n%s", want, out)
		}
	}

	doctor := exec.Command(alone, "doctor")
	doctor.Env = cmd.Env
	out, _ = doctor.CombinedOutput()
	if !strings.Contains(string(out), "!!  board: lanes-board not found") || !strings.Contains(string(out), "go install ./cmd/...") {
		t.Errorf("doctor does not report the missing board:\n%s", out)
	}

	// Beside it, lanes finds the board (doctor says where).
	writeExec(t, filepath.Join(dir, boardName), "#!/bin/sh\n")
	doctor = exec.Command(alone, "doctor")
	doctor.Env = cmd.Env
	out, _ = doctor.CombinedOutput()
	if !strings.Contains(string(out), "ok  board: "+filepath.Join(dir, boardName)) {
		t.Errorf("doctor does not find the board beside lanes:\n%s", out)
	}
}

// TestLanesLinksNoBoard: the lanes binary starts for every hook and every
// status-line refresh, so it must not link the terminal UI (whose package
// initialisation and cgo runtime would double its start-up).
func TestLanesLinksNoBoard(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "lanes/cmd/lanes").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "lanes/tui" || pkg == "lanes/theme/style" || pkg == "runtime/cgo" || pkg == "os/user" ||
			strings.HasPrefix(pkg, "charm.land/") || strings.HasPrefix(pkg, "github.com/charmbracelet/") {
			t.Errorf("lanes links %s; keep it to lanes-board", pkg)
		}
		// go-udiff's top package compiles a regexp at init, which every
		// hook start would pay; hookDiff uses its lcs package instead.
		if pkg == "github.com/aymanbagabas/go-udiff" {
			t.Errorf("lanes links %s, whose init the hook pays for; use its lcs package", pkg)
		}
	}
}

// TestBoardThatIsLanesAgain: a lanes-board that is lanes itself (a link,
// or a wrapper that runs lanes) is refused at once instead of execing
// forever.
func TestBoardThatIsLanesAgain(t *testing.T) {
	for name, install := range map[string]func(dir string) error{
		"link": func(dir string) error { return os.Symlink("lanes", filepath.Join(dir, boardName)) },
		"wrapper": func(dir string) error {
			script := "#!/bin/sh\nexec \"$(dirname \"$0\")/lanes\" \"$@\"\n"
			return os.WriteFile(filepath.Join(dir, boardName), []byte(script), 0o755)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			body, err := os.ReadFile(lanesBin)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "lanes"), body, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := install(dir); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(dir, "lanes"))
			cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "LANES_STATE_DIR=" + t.TempDir(),
				"LANES_TMUX_SOCKET=lanes-test-noserver-" + filepath.Base(dir)}
			out, _ := cmd.CombinedOutput()
			if ctx.Err() != nil {
				t.Fatal("lanes kept execing itself")
			}
			if code := cmd.ProcessState.ExitCode(); code != exitError || !strings.Contains(string(out), "not the board") &&
				!strings.Contains(string(out), "does not run the board") {
				t.Errorf("exit %d, output:\n%s", code, out)
			}
		})
	}
}

// TestBoardFromAnotherBuild: the board refuses to run for a lanes of
// another build, and runs for its own build, an unknown one, or none.
func TestBoardFromAnotherBuild(t *testing.T) {
	for _, tt := range []struct {
		from, mine string
		runs       bool
	}{
		{"abc123", "abc123", true},
		{"abc123", "def456", false},
		{unknownBuild, "def456", true},
		{"abc123", unknownBuild, true},
		{"", "def456", true}, // started directly, not by lanes
	} {
		var ran bool
		var stderr strings.Builder
		state, from := t.TempDir(), tt.from
		a := newApp(strings.NewReader(""), io.Discard, &stderr, func(k string) string {
			return map[string]string{envFrom: from, "LANES_STATE_DIR": state, "LANES_TMUX_SOCKET": "lanes-test-noserver"}[k]
		})
		a.build = tt.mine
		a.board = func(context.Context, BoardOptions) error { ran = true; return nil }
		code := a.main(t.Context(), []string{"--theme", "dark"})
		if ran != tt.runs {
			t.Errorf("from %q, mine %q: board ran = %v (exit %d, %s), want %v", tt.from, tt.mine, ran, code, stderr.String(), tt.runs)
		}
		if !tt.runs && !strings.Contains(stderr.String(), "not from the same build") {
			t.Errorf("refusal does not say why: %s", stderr.String())
		}
	}
}

// TestBoardHosts: the board's other hosts come from the hosts file, then
// --host flags (global or the board's own); a bad line of the file is
// skipped, named file:line on stderr and said once on the board, which
// starts with the good hosts; none means no ssh program is even chosen.
func TestBoardHosts(t *testing.T) {
	cfg := t.TempDir()
	file := filepath.Join(cfg, "lanes", "hosts")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	run := func(hosts string, args ...string) (BoardOptions, int, string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(hosts), 0o600); err != nil {
			t.Fatal(err)
		}
		var got BoardOptions
		var stderr strings.Builder
		dir := t.TempDir()
		a := newApp(strings.NewReader(""), io.Discard, &stderr, func(k string) string {
			return map[string]string{"LANES_STATE_DIR": dir, "LANES_TMUX_SOCKET": "lanes-test-noserver",
				"XDG_CONFIG_HOME": cfg, "LANES_SSH": "/opt/my-ssh"}[k]
		})
		a.board = func(_ context.Context, o BoardOptions) error { got = o; return nil }
		code := a.main(t.Context(), args)
		return got, code, stderr.String()
	}
	o, code, _ := run("", "--theme", "dark")
	if code != exitOK || len(o.Hosts) != 0 {
		t.Errorf("no hosts: exit %d, hosts %v", code, o.Hosts)
	}
	o, code, errs := run("# mine\nbuild me@build.box\n\ngpu gpu.lan\n", "--host", "gpu=root@10.0.0.7", "board", "--host", "lab.example")
	want := []remote.Host{{Name: "build", Dest: "me@build.box"}, {Name: "gpu", Dest: "root@10.0.0.7"}, {Name: "lab.example", Dest: "lab.example"}}
	if code != exitOK || !slices.Equal(o.Hosts, want) || o.SSH.Program != "/opt/my-ssh" {
		t.Errorf("exit %d (%s), hosts %v, ssh %q; want %v and LANES_SSH", code, errs, o.Hosts, o.SSH.Program, want)
	}
	o, code, errs = run("build me@build.box   # the build box\nbroken\ngpu gpu.lan\nbuild b2\n")
	want = []remote.Host{{Name: "build", Dest: "me@build.box"}, {Name: "gpu", Dest: "gpu.lan"}}
	if code != exitOK || !slices.Equal(o.Hosts, want) || !strings.Contains(errs, file+":2:") || !strings.Contains(errs, file+":4:") ||
		o.Warning != "skipped bad lines 2, 4 of "+file+": see lanes doctor" {
		t.Errorf("bad hosts lines: exit %d, hosts %v, warning %q, stderr %q; want the good hosts, and %s:2 and :4 said", code, o.Hosts, o.Warning, errs, file)
	}
	_, code, errs = run("", "--host", "build=me@b", "--host", "build=gpu")
	if code != exitUsage || !strings.Contains(errs, "host build given twice") {
		t.Errorf("one --host name twice: exit %d, %q; want a usage error", code, errs)
	}
	_, code, errs = run("", "--host", "-oProxyCommand=x")
	if code == exitOK || !strings.Contains(errs, "--host") {
		t.Errorf("a bad --host: exit %d, %q", code, errs)
	}
	_, code, errs = run("", "--host", "build=me@b", "ls")
	if code != exitUsage || !strings.Contains(errs, "--host is the board's") {
		t.Errorf("--host on ls: exit %d, %q", code, errs)
	}
}
