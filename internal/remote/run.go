package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"lanes/state"
)

// ErrRemote: `lanes` on the other host ran and failed; the error says
// what it printed.
var ErrRemote = errors.New("lanes failed on the host")

// remoteErr is what lanes printed on the host when it failed: it reads
// as that alone (the caller names the host), and is ErrRemote.
type remoteErr struct {
	msg  string
	code int // its exit code there
}

func (e remoteErr) Error() string        { return e.msg }
func (e remoteErr) Is(target error) bool { return target == ErrRemote }

// ExitCode is the exit code lanes ended with on the host, when err says
// it failed there (not ssh).
func ExitCode(err error) (int, bool) {
	var e remoteErr
	if errors.As(err, &e) {
		return e.code, true
	}
	return 0, false
}

// Run runs `lanes ARGS…` on h with stdin (nil: none) and returns what it
// printed on stdout. A failure says which host, and what lanes or ssh
// printed there.
func (s SSH) Run(ctx context.Context, h Host, stdin io.Reader, args ...string) ([]byte, error) {
	argv := s.Lanes(h, args...)
	if path := s.controlPath(h); path != "" {
		release, err := takeSlot(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("host %s: %w while %d other commands held its connection; nothing was run there", h.Name, err, SharedCommands)
		}
		defer release()
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = stdin
	cmd.WaitDelay = time.Second // a stdin still being copied does not hold the caller
	// Past its cap the host is cut off: it would block on a pipe nobody
	// reads, and Wait with it.
	out, errb := capped{max: AnswerMax, over: stop}, tail{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case out.cut:
		return nil, fmt.Errorf("host %s: its answer was over %d MiB; lanes read no more of it", h.Name, AnswerMax>>20)
	case err == nil:
		return out.Bytes(), nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("host %s: no answer in time; what ran there, if anything, is unknown: look with `lanes ls --all-hosts`", h.Name)
	case knownFailure(h, err, errb.String()) != nil:
		if mayHaveRun(err, errb.String()) {
			said := strings.TrimSuffix(knownFailure(h, err, errb.String()).Error(), ".")
			return nil, fmt.Errorf("host %s: %s: what ran there, if anything, is unknown: look with `lanes ls --all-hosts`", h.Name, said)
		}
		return nil, fmt.Errorf("host %s: %w", h.Name, knownFailure(h, err, errb.String()))
	case errors.As(err, &exit):
		return out.Bytes(), fmt.Errorf("host %s: %w", h.Name, remoteErr{Across(state.CleanText(lastLine(errb.String(), exit.String())), h.Name), exit.ExitCode()})
	}
	return nil, fmt.Errorf("host %s: running %s: %w", h.Name, argv[0], err)
}

// SharedCommands is how many commands this process runs at once on one
// host's shared connection; the rest wait their turn. An OpenSSH server
// opens 10 sessions per connection by default (MaxSessions): one is the
// watch stream and one an attach, and past the limit ssh would log in
// anew for each command.
const SharedCommands = 8

// slots holds, per shared connection's socket, a channel with a place
// for each of its SharedCommands.
var slots sync.Map

// takeSlot waits for a place on the connection at path, or ctx's end.
func takeSlot(ctx context.Context, path string) (release func(), err error) {
	c, _ := slots.LoadOrStore(path, make(chan struct{}, SharedCommands))
	ch := c.(chan struct{})
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// AnswerMax bounds one host's answer to a command: a thousand sessions
// listed take about 2 MiB, and a host that sends without end (a hostile
// one sent 326 MB) must not take this one's memory.
const AnswerMax = 32 << 20

// capped is a buffer that takes max bytes, refuses the rest, and calls
// over once it has. (Not a bytes.Buffer embedded: io.Copy would take its
// ReadFrom, which reads without end.)
type capped struct {
	buf  bytes.Buffer
	max  int
	over func()
	cut  bool
}

var errOverCap = errors.New("answer over its cap")

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		if !c.cut {
			c.cut = true
			c.over()
		}
		return 0, errOverCap
	}
	return c.buf.Write(p)
}

func (c *capped) Bytes() []byte  { return c.buf.Bytes() }
func (c *capped) String() string { return c.buf.String() }

// tail keeps the last max bytes written to it (ssh's stderr: its last
// line is what failed), never refusing a write: a host that says much
// there is not cut off for it.
type tail struct {
	b   []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.b) }

// knownFailure is a failure of ssh running lanes on h that says what to
// do: an older lanes there, lanes not on its PATH, ssh not getting in;
// nil for any other. The board's stream and every `lanes …` run there
// read failures by this one rule.
func knownFailure(h Host, err error, stderr string) error {
	var exit *exec.ExitError
	switch {
	case strings.Contains(stderr, "flag provided but not defined: -watch"), strings.Contains(stderr, "flag provided but not defined: --watch"):
		// Go's flag package says -watch; a lanes that spells flags --name
		// says --watch.
		return fmt.Errorf("lanes on %s is older than this one: it has no `ls --watch`; upgrade lanes there", h.Name)
	case errors.As(err, &exit) && exit.ExitCode() == 127:
		return fmt.Errorf("lanes is not on %s's PATH for ssh commands (%s): install it there, or put it in a directory of that PATH",
			h.Name, lastLine(stderr, "command not found"))
	case errors.As(err, &exit) && exit.ExitCode() == 255:
		return errors.New(sshSaid(stderr, h.Dest))
	}
	return nil
}

// mayHaveRun: ssh failed (exit 255) with none of the words that say it
// never got to run the command (a host that died while lanes ran there
// leaves ssh nothing to say).
func mayHaveRun(err error, stderr string) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 255 {
		return false
	}
	// ssh's own last word: the command's stderr shares the stream, and a
	// hostile host's "Connection refused" must not read as ssh's.
	said := lastLine(stderr, "")
	if !strings.HasPrefix(said, "ssh:") && !strings.HasPrefix(said, "kex_exchange_identification") &&
		!strings.Contains(said, "Permission denied (") && !strings.HasPrefix(said, "Host key verification failed") {
		return true
	}
	for _, w := range []string{"Connection refused", "Could not resolve hostname", "Permission denied",
		"Host key verification failed", "Connection timed out", "No route to host", "Network is unreachable",
		"kex_exchange_identification"} {
		if strings.Contains(said, w) {
			return false
		}
	}
	return true
}

// sshSaid is ssh's last word on a failure to reach dest, "ssh: …" once,
// with what to do about the two a first run meets.
func sshSaid(stderr, dest string) string {
	line := lastLine(stderr, "the connection to "+dest+" failed or ended (ssh said no more)")
	if !strings.HasPrefix(line, "ssh:") {
		line = "ssh: " + line
	}
	switch {
	case strings.Contains(line, "Permission denied"):
		line += " (lanes runs ssh with BatchMode, never asking: load a key with ssh-add, or name one in ~/.ssh/config)"
	case strings.Contains(line, "Host key verification failed"):
		line += " (run `ssh " + dest + "` once to accept its host key)"
	}
	return line
}

// lastLine is the last non-empty line of s that is not a note or a
// warning lanes added beside its error, or def.
func lastLine(s, def string) string {
	lines := slices.DeleteFunc(strings.Split(strings.TrimSpace(s), "\n"), func(l string) bool {
		return strings.HasPrefix(l, "lanes: note:") || strings.HasPrefix(l, "lanes: warning:")
	})
	if len(lines) == 0 {
		return def
	}
	// Another host's words: printable before they reach a terminal.
	if l := strings.TrimSpace(state.CleanText(lines[len(lines)-1])); l != "" {
		return strings.TrimPrefix(l, "lanes: ")
	}
	return def
}
