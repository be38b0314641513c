package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"lanes/internal/listing"
	"lanes/state"
	"lanes/state/git"
	"lanes/state/store"
)

// watchEvery is how often `ls --json --watch` runs a cycle when no hook
// line wakes it: the board's own pace (tui.CycleInterval).
const watchEvery = time.Second

// watchLs is `lanes ls --json --watch` (docs/design.md §16): a snapshot
// line, then a line for each session whose listing changed, appeared or
// left, and a heartbeat after a quiet listing.HeartbeatEvery. It cycles
// every second and at once after the spool changes, so a hook reaches the
// stream in milliseconds. It ends with exit 0 when stdout breaks, stdin
// reaches its end (ssh closed: nothing may linger on the host), or on
// SIGINT or SIGTERM.
func (a *app) watchLs(ctx context.Context, all bool) int {
	ctx, cancel := a.watchContext(ctx)
	defer cancel()
	go a.endWithStdin(cancel)
	// A warning said each second would bury the first: each says once.
	a.stderr = &onceWriter{w: a.stderr, seen: map[string]bool{}}

	dir, err := a.stateDir()
	if err != nil {
		return a.fail(err)
	}
	c, err := a.readerCollector()
	if err != nil {
		return a.fail(err)
	}
	// Long-lived as the board is, it reads ahead, behind and changed as
	// the board does: a host where no board runs still shows them to
	// another's.
	c.Git = &git.Poller{}
	// One collector for the stream's life: its cache spares decoding every
	// record again each second.
	cycle := func(ctx context.Context) (store.CycleResult, error) { return c.Cycle(ctx) }
	spool, err := store.WatchSpool(ctx, dir)
	if err != nil {
		a.warn("%v; polling every second", err)
	}
	s := &streamer{w: a.stdout, sent: map[string][]byte{}, now: a.now}

	recs, err := a.lsRecords(ctx, cycle)
	if err != nil {
		return a.fail(err)
	}
	host, _ := os.Hostname()
	if err := s.snapshot(host, a.listings(listViews(recs, a.now(), all))); err != nil {
		return a.endWrite(err)
	}
	beat := cmp.Or(a.heartbeat, listing.HeartbeatEvery)
	quiet := time.NewTimer(beat)
	defer quiet.Stop()
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return exitOK
		case <-quiet.C:
			if err := s.heartbeat(); err != nil {
				return a.endWrite(err)
			}
			quiet.Reset(beat)
			continue
		case _, ok := <-spool:
			if !ok {
				spool = nil // the watch ended: the ticker goes on
				continue
			}
		case <-tick.C:
		}
		recs, err := a.lsRecords(ctx, cycle)
		if err != nil {
			if ctx.Err() != nil {
				return exitOK
			}
			a.warn("%v", err) // the next cycle may do better; the reader keeps the last lines
			continue
		}
		wrote, err := s.changes(a.listings(listViews(recs, a.now(), all)))
		if err != nil {
			return a.endWrite(err)
		}
		if wrote {
			quiet.Reset(beat)
		}
	}
}

// watchContext is ctx ended by cancel, and, for the real command, by
// SIGINT, SIGTERM or SIGHUP; a broken stdout then fails a write with
// EPIPE instead of killing the process by SIGPIPE.
func (a *app) watchContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if !a.signals {
		return ctx, cancel
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	return ctx, func() {
		signal.Stop(pipe)
		stop()
		cancel()
	}
}

// endWithStdin calls end when stdin reaches its end or fails: ssh closed
// the channel, and the stream's reader is gone. A stdin of /dev/null (a
// script's background job) is no reader leaving: the stream runs until a
// signal or a broken stdout ends it.
func (a *app) endWithStdin(end context.CancelFunc) {
	if f, ok := a.stdin.(*os.File); ok && isDevNull(f) {
		return
	}
	_, _ = io.Copy(io.Discard, a.stdin)
	end()
}

func isDevNull(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}

// endWrite is the exit of a stream whose write failed: a broken stdout is
// its reader leaving, a clean end.
func (a *app) endWrite(err error) int {
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe) {
		return exitOK
	}
	return a.fail(err)
}

// streamer writes a stream's lines and remembers what it sent of each
// session, to send only what changed.
type streamer struct {
	w    io.Writer
	sent map[string][]byte // id → the session's JSON as last sent
	now  func() time.Time
	buf  bytes.Buffer
}

func (s *streamer) at() string { return listing.RFC3339Nano(s.now()) }

func (s *streamer) snapshot(host string, list []listing.Session) error {
	listing.StreamDays(list)
	for _, l := range list {
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		s.sent[l.ID] = b
	}
	if err := s.add(listing.Line{Type: listing.LineSnapshot, At: s.at(), Version: listing.StreamVersion, Host: host, Sessions: list}); err != nil {
		return err
	}
	return s.flush()
}

// changes writes a line for each session of list whose JSON differs from
// what was sent (or that is new), in list's order, then a gone line for
// each sent session list no longer has; wrote says if any line went.
func (s *streamer) changes(list []listing.Session) (wrote bool, err error) {
	listing.StreamDays(list)
	at := s.at()
	here := make(map[string]bool, len(list))
	for i := range list {
		l := &list[i]
		here[l.ID] = true
		b, err := json.Marshal(l)
		if err != nil {
			return false, err
		}
		if old, ok := s.sent[l.ID]; ok && bytes.Equal(old, b) {
			continue
		}
		s.sent[l.ID] = b
		if err := s.add(listing.Line{Type: listing.LineSession, At: at, Session: l}); err != nil {
			return false, err
		}
	}
	var gone []string
	for id := range s.sent {
		if !here[id] {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	for _, id := range gone {
		delete(s.sent, id)
		if err := s.add(listing.Line{Type: listing.LineGone, At: at, ID: id}); err != nil {
			return false, err
		}
	}
	if s.buf.Len() == 0 {
		return false, nil
	}
	return true, s.flush()
}

func (s *streamer) heartbeat() error {
	if err := s.add(listing.Line{Type: listing.LineHeartbeat, At: s.at()}); err != nil {
		return err
	}
	return s.flush()
}

// add appends l to the lines the next flush writes.
func (s *streamer) add(l listing.Line) error {
	b, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("encoding a %s line: %w", l.Type, err)
	}
	s.buf.Write(state.JSONSafe(b))
	s.buf.WriteByte('\n')
	return nil
}

// flush writes the lines added since the last, in one write: a reader
// sees a cycle's changes together.
func (s *streamer) flush() error {
	defer s.buf.Reset()
	_, err := s.w.Write(s.buf.Bytes())
	return err
}

// onceWriter drops a write it has already passed on (it remembers the
// first onceMax).
type onceWriter struct {
	w    io.Writer
	seen map[string]bool
}

const onceMax = 64

func (o *onceWriter) Write(p []byte) (int, error) {
	if o.seen[string(p)] {
		return len(p), nil
	}
	if len(o.seen) < onceMax {
		o.seen[string(p)] = true
	}
	return o.w.Write(p)
}
