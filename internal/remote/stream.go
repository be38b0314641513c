package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"lanes/internal/listing"
)

// exitGrace is how long an ssh whose stream ended may take to exit.
const exitGrace = 5 * time.Second

// maxLine bounds one line of a stream: a snapshot of MaxMirrored sessions
// is about 3 MB. (At 64 MiB, 60 lines of 20 MB took a board to 540 MB.)
const maxLine = 8 << 20

// Why a stream stopped, besides what ssh or lanes said.
var (
	// ErrSilent: no line came for three heartbeats.
	ErrSilent = errors.New("the stream fell silent")
	// ErrStream: a line lanes cannot read, or a stream of another version.
	ErrStream = errors.New("unreadable stream")
)

// stream runs one `ssh DEST lanes ls --json --watch` and applies its
// lines until it ends, falls silent or says what this lanes cannot read;
// the child has exited when it returns. snapshot: one came.
func (w *hostWatch) stream(ctx context.Context) (snapshot bool, err error) {
	ctx, kill := context.WithCancel(ctx)
	defer kill()
	argv := w.ssh.Lanes(w.host, "ls", "--json", "--watch")
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = 2 * time.Second // a grandchild holding the pipes does not hold us
	stderr := &headBuffer{max: 16 << 10}
	cmd.Stderr = stderr
	// stdin stays open while the stream runs: its end tells the remote
	// lanes (through ssh) that nobody reads any more.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return false, fmt.Errorf("starting ssh: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return false, fmt.Errorf("starting ssh: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return false, fmt.Errorf("running %s: %w", argv[0], err)
	}
	lines := make(chan []byte, 64)
	readDone := make(chan error, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64<<10), maxLine)
		sc.Split(wholeLines)
		for sc.Scan() {
			select {
			case lines <- bytes.Clone(sc.Bytes()):
			case <-ctx.Done():
				readDone <- nil
				return
			}
		}
		readDone <- sc.Err()
	}()

	why := w.read(ctx, lines, &snapshot)
	if why != nil {
		kill() // a stream given up on: its ssh goes
	} else {
		// The stream ended: ssh is exiting and says why; one that does
		// not within exitGrace goes.
		defer time.AfterFunc(exitGrace, kill).Stop()
	}
	stdin.Close()
	waitErr := cmd.Wait()
	readErr := <-readDone
	if why == nil && readErr != nil && ctx.Err() == nil {
		why = fmt.Errorf("%w: reading %s's stream: %v", ErrStream, w.host.Name, readErr)
	}
	if why != nil {
		return snapshot, why
	}
	return snapshot, w.exitWhy(waitErr, stderr.String())
}

// read applies lines until the stream ends (nil), falls silent or says
// something unreadable (the error).
func (w *hostWatch) read(ctx context.Context, lines <-chan []byte, snapshot *bool) error {
	silence := 3 * w.timing.Heartbeat
	quiet := time.NewTimer(silence)
	defer quiet.Stop()
	n := 0
	for {
		var b []byte
		var open bool
		select {
		case <-ctx.Done():
			return nil
		case <-quiet.C:
			select {
			case b, open = <-lines: // came while a Status waited for its reader
			default:
				return fmt.Errorf("%w: no line from %s for %s; reconnecting", ErrSilent, w.host.Name, silence)
			}
		case b, open = <-lines:
		}
		if !open {
			return nil
		}
		quiet.Reset(silence)
		changed := false
		// Take every line already here before telling the reader: a cycle
		// of many changes is one Status.
		for {
			n++
			c, err := w.line(b, n, snapshot)
			if err != nil {
				return err
			}
			changed = changed || c
			more := false
			select {
			case b, open = <-lines:
				more = open
			default:
			}
			if !more {
				break
			}
		}
		if changed && !w.send(ctx) {
			return nil
		}
		if !open {
			return nil
		}
	}
}

// line applies line n of the stream; changed says the status changed.
func (w *hostWatch) line(b []byte, n int, snapshot *bool) (changed bool, err error) {
	var l listing.Line
	if err := json.Unmarshal(b, &l); err != nil {
		return false, w.unreadable(n, "not a stream line: %v: %.80q", err, b)
	}
	for i := range l.Sessions { // another host's words
		l.Sessions[i].Clean()
	}
	if l.Session != nil {
		l.Session.Clean()
	}
	if n == 1 && l.Type != listing.LineSnapshot {
		return false, w.unreadable(n, "the stream did not open with a snapshot: %.80q", b)
	}
	switch l.Type {
	case listing.LineSnapshot:
		switch {
		case l.Version < listing.StreamVersion:
			return false, fmt.Errorf("%w: lanes on %s is older than this one (stream version %d, this lanes reads %d); upgrade lanes there",
				ErrStream, w.host.Name, l.Version, listing.StreamVersion)
		case l.Version > listing.StreamVersion:
			return false, fmt.Errorf("%w: lanes on %s is newer than this one (stream version %d, this lanes reads %d); upgrade lanes here",
				ErrStream, w.host.Name, l.Version, listing.StreamVersion)
		}
		*snapshot = true
	case listing.LineSession:
		if l.Session == nil || l.Session.ID == "" {
			return false, w.unreadable(n, "a session line without a session")
		}
	case listing.LineGone:
		if l.ID == "" {
			return false, w.unreadable(n, "a gone line without an id")
		}
		if _, ok := w.byID[l.ID]; !ok {
			return false, nil
		}
	case listing.LineHeartbeat:
		return false, nil
	default:
		return false, w.unreadable(n, "a line of unknown type %q", l.Type)
	}
	w.apply(l)
	return true, nil
}

func (w *hostWatch) unreadable(n int, format string, args ...any) error {
	return fmt.Errorf("%w: line %d from %s: %s; run the same lanes on both hosts", ErrStream, n, w.host.Name, fmt.Sprintf(format, args...))
}

// exitWhy is why a stream ended by itself, in words that say what to do.
func (w *hostWatch) exitWhy(err error, stderr string) error {
	name := w.host.Name
	var exit *exec.ExitError
	if known := knownFailure(w.host, err, stderr); known != nil {
		return known
	}
	switch {
	case errors.As(err, &exit) && exit.ExitCode() < 0:
		return fmt.Errorf("ssh to %s ended by %s: %s", name, exit, lastLine(stderr, "no word from it"))
	case errors.As(err, &exit):
		return fmt.Errorf("lanes on %s: %s", name, lastLine(stderr, exit.String()))
	case err != nil:
		return fmt.Errorf("running ssh to %s: %w", name, err)
	}
	return fmt.Errorf("the stream from %s ended (%s)", name, lastLine(stderr, "lanes there stopped"))
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	max int
	b   bytes.Buffer
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - h.b.Len(); room > 0 {
		h.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (h *headBuffer) String() string { return h.b.String() }

// wholeLines splits lines as bufio.ScanLines does, but drops a last piece
// with no newline: a link cut mid-line leaves one, and it is no line the
// host wrote (ssh's exit says why the stream ended).
func wholeLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) > 0 && bytes.IndexByte(data, '\n') < 0 {
		return len(data), nil, nil
	}
	return bufio.ScanLines(data, atEOF)
}
