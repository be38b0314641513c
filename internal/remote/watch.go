package remote

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"lanes/internal/listing"
	"lanes/state"
)

// Status is what this host knows of another at a moment.
type Status struct {
	Host string
	// Sessions are the host's sessions as last received; they stay while
	// the host is down (its sessions are not over because the link is).
	Sessions []listing.Session
	// Up: a stream is open and its last line came in time.
	Up bool
	// Since is when Up last changed, by this host's clock.
	Since time.Time
	// Err is why the host is down: what ssh or lanes said, or that the
	// stream fell silent.
	Err string
	// Heard: a snapshot came from this host at least once.
	Heard bool
	// Next is when ssh runs again, while the host is down (zero while a
	// try is under way or the host is up): the board says how long.
	Next time.Time
	// Over is how many sessions the host listed past MaxMirrored, which
	// are not mirrored.
	Over int
}

// MaxMirrored is the most sessions of one host a board mirrors: a host
// that floods its stream with distinct sessions (30,000 pinned a core and
// grew without bound) gets this many, and the rest are counted.
const MaxMirrored = 2000

// Lost reports a host heard once whose stream is lost now: its sessions
// stay, shown unreachable.
func (s Status) Lost() bool { return s.Heard && !s.Up }

// Tried: a try to reach the host has ended, so the host is up or says
// why not; before that it is connecting.
func (st Status) Tried() bool { return st.Up || st.Err != "" }

// WatchTiming is how Watch paces itself; a zero field takes its default.
// Tests shorten them.
type WatchTiming struct {
	// Heartbeat is the streams' heartbeat period (listing.HeartbeatEvery);
	// a stream silent for three of them is lost, and its ssh killed.
	Heartbeat time.Duration
	// Retry is the first wait before ssh runs again (1 s); each failure
	// doubles it up to MaxRetry (10 s: a host back after an outage is
	// seen again within seconds), and a stream that sent its snapshot and
	// lived MaxRetry sets it back.
	Retry, MaxRetry time.Duration
}

func (t WatchTiming) orDefaults() WatchTiming {
	return WatchTiming{
		Heartbeat: cmp.Or(t.Heartbeat, listing.HeartbeatEvery),
		Retry:     cmp.Or(t.Retry, time.Second),
		MaxRetry:  cmp.Or(t.MaxRetry, 10*time.Second),
	}
}

// Watch mirrors hosts: one `ssh DEST lanes ls --json --watch` each,
// restarted with backoff when it ends or falls silent, and sends each
// host's Status whenever its sessions or reachability change. The
// channel closes after ctx ends and every ssh it ran has exited.
func (s SSH) Watch(ctx context.Context, hosts []Host) <-chan Status {
	out := make(chan Status)
	var wg sync.WaitGroup
	for _, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &hostWatch{ssh: s, host: h, out: out, timing: s.Timing.orDefaults(),
				st: Status{Host: h.Name, Since: time.Now()}, byID: map[string]mirrored{}}
			w.run(ctx)
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// mirrored is one session of a host as received, with the derivation it
// sorts by.
type mirrored struct {
	s listing.Session
	d state.Derived
}

// hostWatch is the watch of one host: its mirror and its status.
type hostWatch struct {
	ssh    SSH
	host   Host
	out    chan<- Status
	timing WatchTiming
	st     Status
	byID   map[string]mirrored
	order  []string // ids, as the host's listing orders them
	// sorted is false once a session line may have moved one: order is
	// sorted again once, when the batch is sent, not on every line.
	sorted bool
}

// run streams from the host until ctx ends, again after each loss.
func (w *hostWatch) run(ctx context.Context) {
	wait := w.timing.Retry
	for ctx.Err() == nil {
		began := time.Now()
		snapshot, err := w.stream(ctx)
		if ctx.Err() != nil {
			return
		}
		// A stream that lived past the longest wait was a good one; a
		// host that sends its snapshot and exits is failing, and backs
		// off like any other (it was asked again every second).
		if snapshot && time.Since(began) >= w.timing.MaxRetry {
			wait = w.timing.Retry
		}
		w.down(ctx, err.Error(), time.Now().Add(wait))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		wait = min(2*wait, w.timing.MaxRetry)
	}
}

// send gives the status to the reader, with a copy of the sessions it may
// keep; false when ctx ended first.
func (w *hostWatch) send(ctx context.Context) bool {
	if !w.sorted {
		// The host sorted its listing; a changed session's place is
		// found again by the same order (state.Derived.Compare).
		slices.SortStableFunc(w.order, func(a, b string) int {
			x, y := w.byID[a].d, w.byID[b].d
			return x.Compare(&y)
		})
		w.sorted = true
	}
	st := w.st
	st.Sessions = make([]listing.Session, 0, len(w.order))
	for _, id := range w.order {
		st.Sessions = append(st.Sessions, w.byID[id].s)
	}
	select {
	case w.out <- st:
		return true
	case <-ctx.Done():
		return false
	}
}

// down marks the host unreachable for why, its sessions kept, until the
// next try at next.
func (w *hostWatch) down(ctx context.Context, why string, next time.Time) {
	if w.st.Up {
		w.st.Up, w.st.Since = false, time.Now()
	}
	w.st.Err, w.st.Next = why, next
	w.send(ctx)
}

// up marks the host reachable (a snapshot came).
func (w *hostWatch) up() {
	if !w.st.Up {
		w.st.Up, w.st.Since = true, time.Now()
	}
	w.st.Err, w.st.Heard, w.st.Next = "", true, time.Time{}
}

// mirror takes one session of the host in, unless MaxMirrored others are
// there already.
func (w *hostWatch) mirror(s listing.Session) {
	if _, ok := w.byID[s.ID]; !ok {
		if len(w.order) >= MaxMirrored {
			w.st.Over++
			return
		}
		w.order = append(w.order, s.ID)
	}
	w.byID[s.ID] = mirrored{s, s.Mirror(w.host.Name, false)}
}

// apply takes one line of the stream into the mirror.
func (w *hostWatch) apply(l listing.Line) {
	switch l.Type {
	case listing.LineSnapshot:
		clear(w.byID)
		w.order, w.st.Over = w.order[:0], 0
		for _, s := range l.Sessions {
			w.mirror(s)
		}
		w.up()
	case listing.LineSession:
		w.mirror(*l.Session)
		w.sorted = false
	case listing.LineGone:
		if _, ok := w.byID[l.ID]; ok {
			delete(w.byID, l.ID)
			w.order = slices.DeleteFunc(w.order, func(id string) bool { return id == l.ID })
		}
	}
}
