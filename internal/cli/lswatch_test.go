package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"
)

// stream is a running `lanes ls --json --watch` of the test's env, in
// process: its stdin held open, its lines decoded as they come.
type stream struct {
	t     *testing.T
	lines chan listing.Line
	stdin *io.PipeWriter
	done  chan struct{} // closed when it returned, with exit
	exit  int
	errb  *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (e *env) stream(heartbeat time.Duration, args ...string) *stream {
	e.t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stream{t: e.t, lines: make(chan listing.Line, 1000), stdin: inW, done: make(chan struct{}), errb: &lockedBuffer{}}
	a := newApp(inR, outW, s.errb, e.getenv)
	a.heartbeat = heartbeat
	go func() {
		s.exit = a.main(context.Background(), append([]string{"ls", "--json", "--watch"}, args...))
		outW.Close()
		close(s.done)
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var l listing.Line
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				e.t.Errorf("a stream line is not JSON: %v: %s", err, sc.Bytes())
				return
			}
			s.lines <- l
		}
	}()
	e.t.Cleanup(func() {
		inW.Close()
		outR.Close()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			e.t.Error("ls --watch did not end after the test")
		}
	})
	return s
}

// next is the first line within d that ok accepts; lines it passes over
// are dropped.
func (s *stream) next(what string, d time.Duration, ok func(listing.Line) bool) listing.Line {
	s.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case l, open := <-s.lines:
			if !open {
				s.t.Fatalf("the stream ended waiting for %s (stderr %q)", what, s.errb.String())
			}
			if ok(l) {
				return l
			}
		case <-deadline:
			s.t.Fatalf("no %s within %s (stderr %q)", what, d, s.errb.String())
		}
	}
}

func TestLsWatchStreamsChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "api", "--", "sleep", "600")
	e.must("new", "db", "--", "sleep", "600")
	want := e.ls()
	s := e.stream(300 * time.Millisecond)

	snap := s.next("snapshot", 10*time.Second, func(l listing.Line) bool { return true })
	host, _ := os.Hostname()
	if snap.Type != listing.LineSnapshot || snap.Version != listing.StreamVersion || snap.Host != host || snap.At == "" {
		t.Fatalf("first line: %+v", snap)
	}
	var names []string
	for _, x := range snap.Sessions {
		names = append(names, x.Name)
	}
	if slices.Sort(names); !slices.Equal(names, []string{"api", "db"}) {
		t.Fatalf("snapshot sessions %v", names)
	}

	began := time.Now()
	e.must("hook", "generic", "waiting_input", "--session", "api")
	// The deadline is generous (a loaded machine); how fast it came is
	// logged, and measured by TestWatchFigures, never asserted.
	l := s.next("api's line after its hook", 10*time.Second, func(l listing.Line) bool {
		return l.Type == listing.LineSession && l.Session.Name == "api" && l.Session.Status == state.StatusNeedsInput
	})
	t.Logf("hook → stream line: %s", time.Since(began).Round(time.Millisecond))
	if l.At == "" || l.Session.ID != want["api"].ID {
		t.Errorf("session line: %+v", l)
	}

	s.next("a heartbeat", 5*time.Second, func(l listing.Line) bool { return l.Type == listing.LineHeartbeat && l.At != "" })

	e.must("kill", "db", "--yes")
	e.must("rm", "db", "--yes")
	s.next("db gone", 5*time.Second, func(l listing.Line) bool { return l.Type == listing.LineGone && l.ID == want["db"].ID })

	s.stdin.Close()
	select {
	case <-s.done:
		if s.exit != exitOK || s.errb.String() != "" {
			t.Errorf("after stdin's end: exit %d, stderr %q", s.exit, s.errb.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ls --watch still runs after stdin's end")
	}
}

// The binary ends cleanly when its reader leaves: stdout closed (SIGPIPE
// at the next line), stdin at its end (ssh gone), or SIGTERM.
func TestLsWatchEndsWhenTheReaderLeaves(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "api", "--", "sleep", "600")
	start := func() (*exec.Cmd, io.WriteCloser, io.ReadCloser, *lockedBuffer) {
		cmd := exec.Command(lanesBin, "ls", "--json", "--watch")
		for k, v := range e.vars {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		errb := &lockedBuffer{}
		cmd.Stderr = errb
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			t.Fatalf("no snapshot: %v (stderr %q)", err, errb.String())
		}
		return cmd, in, out, errb
	}
	ended := func(what string, cmd *exec.Cmd, errb *lockedBuffer) {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil || errb.String() != "" {
				t.Errorf("%s: %v, stderr %q", what, err, errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: still running", what)
		}
	}

	cmd, in, out, errb := start()
	out.Close()
	e.must("hook", "generic", "waiting_input", "--session", "api") // a line to write into the broken pipe
	ended("stdout closed", cmd, errb)
	in.Close()

	cmd, in, _, errb = start()
	in.Close()
	ended("stdin closed", cmd, errb)

	cmd, in, _, errb = start()
	cmd.Process.Signal(syscall.SIGTERM)
	ended("SIGTERM", cmd, errb)
	in.Close()
}

func TestLsWatchWantsJSON(t *testing.T) {
	e := lsEnv(t)
	_, errs, code := e.run("ls", "--watch")
	if code != exitUsage || !strings.Contains(errs, "add --json") {
		t.Errorf("ls --watch alone: exit %d, %q", code, errs)
	}
	if out := e.must("ls", "--help"); !strings.Contains(out, "--watch") || !strings.Contains(out, "[--json [--watch]]") {
		t.Errorf("ls --help does not document --watch:\n%s", out)
	}
}

// The stream carries a session's ahead, behind and changed from its own
// git reads: on a host where no board runs, another host's board still
// shows them.
func TestLsWatchReadsGit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	repo := t.TempDir()
	gitRepo(t, repo, "main")
	if err := os.WriteFile(filepath.Join(repo, "new.txt"), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.must("new", "api", "--dir", repo, "--", "sleep", "600")
	s := e.stream(time.Minute)
	s.next("api with 1 file changed", 15*time.Second, func(l listing.Line) bool {
		all := l.Sessions
		if l.Session != nil {
			all = append(all, *l.Session)
		}
		for _, x := range all {
			if x.Name == "api" && x.Changed != nil && *x.Changed == 1 {
				return true
			}
		}
		return false
	})
	s.stdin.Close()
	<-s.done
}
