package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Observation is one pane as one tmux read saw it.
type Observation struct {
	SessionID      string // $N
	SessionName    string
	LanesID        string
	PaneID         string // %N
	PID            int
	Dead           bool
	DeadStatus     *int // nil: unknown, never 0
	DeadSignal     string
	DeadTime       time.Time
	WindowActivity time.Time
}

// PaneSource is what the collector needs from tmux: one read of every lanes
// pane on the server (chained behind a reaping no-op when asked), and closing
// a session whose agent exited cleanly.
type PaneSource interface {
	ListPanes(ctx context.Context, reap bool) ([]Observation, error)
	KillSession(ctx context.Context, sessionID string) error
}

// Pane exit rules (docs/design.md §5).
const (
	ConfirmGap      = time.Second
	CleanLifetime   = 10 * time.Second
	NoTimeReadLimit = 3
	startInFlight   = 10 * time.Second
)

// Collector runs cycles: one tmux read, then one write transaction that
// ingests the spool and applies the read.
type Collector struct {
	Store  *Store
	Panes  PaneSource // nil: spool only
	Socket string     // the tmux server whose sessions this collector watches
	Now    func() time.Time

	// cache is the records as of store transaction cacheTx. While no other
	// process writes, a cycle starts from copies of them instead of decoding
	// every record again: an idle board's cycle then costs one tmux read.
	cache   []*Record
	cacheTx int
}

// CycleResult is what one cycle saw.
type CycleResult struct {
	Records  []*Record
	Ingested int
	Dropped  int
	// TmuxErr is set when the tmux server did not answer; the records are
	// still current as far as the store goes.
	TmuxErr error
	At      time.Time
}

func (c *Collector) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Cycle runs one collector cycle.
func (c *Collector) Cycle(ctx context.Context) (CycleResult, error) {
	var obs []Observation
	var tmuxErr error
	readStart := c.now().UTC().Round(0) // as the store gives it back: UTC, no monotonic reading
	readPanes := c.Panes != nil
	if readPanes {
		obs, tmuxErr = c.Panes.ListPanes(ctx, c.Store.reapNext())
		// The caller's own deadline or cancellation says nothing about the
		// server: such a read is no read at all.
		readPanes = tmuxErr == nil || ctx.Err() == nil
	}
	res := CycleResult{TmuxErr: tmuxErr, At: readStart}
	var closing []string
	reap := false
	err := c.Store.Update(func(tx *Tx) error {
		ct := &cycleTx{tx: tx, stateDir: c.Store.Dir, now: c.now(), dirty: map[string]bool{},
			history: map[string][]Transition{}, badFiles: map[string]bool{}}
		committed := tx.tx.ID() - 1 // a write transaction's id is the next one
		if err := ct.load(c.cache, c.cache != nil && c.cacheTx == committed); err != nil {
			return err
		}
		if err := ct.ingest(); err != nil {
			return err
		}
		if readPanes {
			closing = ct.observe(c.Socket, obs, tmuxErr, readStart)
			reap = ct.reapNext
		}
		res.Ingested, res.Dropped = ct.ingested, ct.dropped
		res.Records = ct.records
		if err := ct.flush(); err != nil {
			return err
		}
		c.cache, c.cacheTx = ct.records, committed
		if !tx.wrote {
			return errUnchanged // roll back: nothing to commit, no fsync
		}
		c.cacheTx = tx.tx.ID()
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		c.cache = nil
	}
	if err != nil && !errors.Is(err, errUnchanged) {
		return CycleResult{}, err
	}
	if readPanes {
		c.Store.setReapNext(reap)
	}
	if c.Panes != nil { // a spool-only cycle read no tmux: nothing to reuse
		c.Store.markCycle(readStart)
	}
	for _, sid := range closing {
		if err := c.Panes.KillSession(ctx, sid); err != nil && res.TmuxErr == nil {
			res.TmuxErr = fmt.Errorf("closing a cleanly exited session: %w", err)
		}
	}
	return res, nil
}

// cycleTx is the working set of one cycle's write transaction.
type cycleTx struct {
	tx       *Tx
	stateDir string
	now      time.Time
	records  []*Record
	byID     map[string]*Record
	dirty    map[string]bool
	history  map[string][]Transition
	badFiles map[string]bool
	reapNext bool

	ingested, dropped int
}

// load starts the cycle from copies of cached records when they are
// current, else from the store. Copies, because the previous cycle's
// records belong to its caller now.
func (c *cycleTx) load(cached []*Record, current bool) error {
	var all []*Record
	if current {
		all = make([]*Record, len(cached))
		for i, r := range cached {
			all[i] = r.Clone()
		}
	} else {
		var err error
		if all, err = c.tx.All(); err != nil {
			return err
		}
	}
	c.records = all
	c.byID = make(map[string]*Record, len(all))
	for _, r := range all {
		c.byID[r.ID] = r
	}
	return nil
}

func (c *cycleTx) record(id string) *Record { return c.byID[id] }

func (c *cycleTx) flush() error {
	for id := range c.dirty {
		if err := c.tx.Put(c.byID[id]); err != nil {
			return err
		}
	}
	for id, trs := range c.history {
		for _, tr := range trs {
			if err := c.tx.AppendHistory(id, tr); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *cycleTx) note(r *Record, tr *Transition) {
	c.dirty[r.ID] = true
	if tr != nil {
		c.history[r.ID] = append(c.history[r.ID], *tr)
	}
}

// observe applies one tmux read to the live records of that server and
// returns the tmux sessions to close after the transaction commits.
func (c *cycleTx) observe(socket string, obs []Observation, tmuxErr error, readStart time.Time) []string {
	byLanesID := map[string]Observation{}
	for _, o := range obs {
		o.DeadTime, o.WindowActivity = utc(o.DeadTime), utc(o.WindowActivity)
		if prev, ok := byLanesID[o.LanesID]; ok && prev.PaneID == c.paneOf(o.LanesID) {
			continue
		}
		byLanesID[o.LanesID] = o
	}
	var closing []string
	for _, r := range c.records {
		if !r.Live() || r.Runtime.Socket != socket || r.Runtime.SessionID == "" {
			continue
		}
		if readStart.Before(r.Pane.ObservedAt) {
			continue // an older read than one already applied
		}
		pane, rt, act := r.Pane, r.Runtime, r.Activity.State
		if c.observeOne(r, byLanesID, tmuxErr, readStart) {
			closing = append(closing, r.Runtime.SessionID)
		}
		// Only a read that changed something is written: an idle board's
		// cycles then cost no store write at all.
		changed := !samePane(pane, r.Pane) || rt != r.Runtime || act != r.Activity.State
		r.Pane.ObservedAt = pane.ObservedAt
		if changed && tmuxErr == nil {
			r.Pane.ObservedAt = readStart // a failed read is no observation
		}
		if changed {
			c.dirty[r.ID] = true
		}
		if r.Pane.Dead && r.Pane.DeadTime.IsZero() && r.Pane.NoTimeReads < NoTimeReadLimit {
			c.reapNext = true
		}
	}
	return closing
}

// observeOne applies one read to one live record and reports whether its
// session must be closed.
func (c *cycleTx) observeOne(r *Record, byLanesID map[string]Observation, tmuxErr error, readStart time.Time) bool {
	if tmuxErr != nil {
		if r.Runtime.UnreachableSince.IsZero() {
			r.Runtime.UnreachableSince = readStart
		}
		return false
	}
	r.Runtime.UnreachableSince = time.Time{}
	o, ok := byLanesID[r.ID]
	if !ok {
		c.gone(r, readStart)
		return false
	}
	r.Runtime.GoneSeenAt = time.Time{}
	return c.applyPane(r, o, readStart)
}

// utc is t as a decoded store value: UTC (zero stays zero), so comparing
// facts with == does not trip over locations.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// samePane compares observations, ignoring when they were read.
func samePane(a, b Pane) bool {
	a.ObservedAt, b.ObservedAt = time.Time{}, time.Time{}
	as, bs := a.ExitStatus, b.ExitStatus
	a.ExitStatus, b.ExitStatus = nil, nil
	return a == b && eqStatus(as, bs)
}

func (c *cycleTx) paneOf(id string) string {
	if r := c.byID[id]; r != nil {
		return r.Runtime.PaneID
	}
	return ""
}

// gone certifies a session gone after two answered reads ≥ 1 s apart
// without it.
func (c *cycleTx) gone(r *Record, readStart time.Time) {
	if r.Runtime.GoneSeenAt.IsZero() {
		r.Runtime.GoneSeenAt = readStart
		return
	}
	if readStart.Sub(r.Runtime.GoneSeenAt) >= ConfirmGap {
		c.note(r, Terminate(r, "tmux session gone", "pane", readStart))
	}
}

// applyPane records one observation and reports whether the session must be
// closed because its agent exited cleanly.
func (c *cycleTx) applyPane(r *Record, o Observation, readStart time.Time) bool {
	p := &r.Pane
	p.WindowActivity = o.WindowActivity
	if !o.Dead {
		if p.Dead || p.PID != o.PID {
			*p = Pane{PID: o.PID, WindowActivity: o.WindowActivity}
		}
		c.paneActivity(r, readStart)
		return false
	}
	same := p.Dead && p.PID == o.PID
	agree := same && eqStatus(p.ExitStatus, o.DeadStatus) && p.ExitSignal == o.DeadSignal
	switch {
	case !same:
		*p = Pane{PID: o.PID, Dead: true, DeadSeenAt: readStart, Confirmations: 1, ConfirmedAt: readStart,
			WindowActivity: o.WindowActivity}
	case !agree: // the reaped status arrived: a new first reading
		p.Confirmations, p.ConfirmedAt = 1, readStart
	case readStart.Sub(p.ConfirmedAt) >= ConfirmGap:
		p.Confirmations++
		p.ConfirmedAt = readStart
	}
	p.ExitStatus, p.ExitSignal = o.DeadStatus, o.DeadSignal
	if !o.DeadTime.IsZero() {
		p.DeadTime = o.DeadTime
	} else if p.DeadTime.IsZero() {
		p.NoTimeReads++
	}
	if p.Confirmations < 2 || (p.DeadTime.IsZero() && p.NoTimeReads < NoTimeReadLimit) {
		return false
	}
	if r.Activity.State == ActivityExited {
		return false
	}
	if c.cleanExit(r, readStart) {
		c.note(r, Terminate(r, "agent exited cleanly (status 0)", "pane", readStart))
		return true
	}
	r.Activity.clearTurn()
	c.note(r, r.Activity.move(ActivityExited, readStart, "pane", ExitDetail(r)))
	return false
}

func (c *cycleTx) cleanExit(r *Record, readStart time.Time) bool {
	p := r.Pane
	if p.ExitStatus == nil || *p.ExitStatus != 0 || p.ExitSignal != "" || p.DeadTime.IsZero() {
		return false
	}
	if !r.Runtime.StartingAt.IsZero() && readStart.Sub(r.Runtime.StartingAt) < startInFlight {
		return false
	}
	end := p.DeadTime
	if !p.DeadSeenAt.IsZero() && p.DeadSeenAt.Before(end) {
		end = p.DeadSeenAt
	}
	return end.Sub(r.Runtime.PaneStartedAt) >= CleanLifetime
}

// paneActivity drives activity from output for agents without hooks, until
// their first hook signal (docs/design.md §4).
func (c *cycleTx) paneActivity(r *Record, readStart time.Time) {
	a := &r.Activity
	if r.HookCapable() || !a.FirstSignalAt.IsZero() || a.State == ActivityExited {
		return
	}
	// tmux sets window_activity at creation; only output after the start
	// second counts.
	out := r.Pane.WindowActivity.Unix() > r.Runtime.PaneStartedAt.Unix() &&
		readStart.Sub(r.Pane.WindowActivity) <= PaneActiveWindow
	next := ActivityIdle
	if out {
		next = ActivityActive
	}
	if tr := a.move(next, readStart, "pane", "output"); tr != nil {
		c.note(r, tr)
	}
}

func eqStatus(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// ExitDetail is the pane exit as users read it: "exited (3)",
// "exited (SIGKILL)", "exited (unknown)".
func ExitDetail(r *Record) string {
	switch {
	case !r.Pane.Dead:
		return "exited"
	case r.Pane.ExitSignal != "":
		return "exited (" + r.Pane.ExitSignal + ")"
	case r.Pane.ExitStatus != nil:
		return fmt.Sprintf("exited (%d)", *r.Pane.ExitStatus)
	}
	return "exited (unknown)"
}

// errUnchanged rolls back a cycle's transaction that changed nothing.
var errUnchanged = errors.New("cycle changed nothing")

// lastCyclePath's mtime is when the last cycle's read began. A file, not a
// store key, so a cycle that changes nothing writes nothing to the store.
func (s *Store) lastCyclePath() string { return filepath.Join(s.Dir, "last-cycle") }

func (s *Store) markCycle(at time.Time) {
	path := s.lastCyclePath()
	if err := os.Chtimes(path, at, at); err != nil {
		if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			f.Close()
			_ = os.Chtimes(path, at, at)
		}
	}
}

// reapNextPath exists while the last read saw a pane dead without its time,
// so the next read — by whichever process — reaps first (tmux 3.3). A file,
// so a cycle learns it without opening the store before its tmux read.
func (s *Store) reapNextPath() string { return filepath.Join(s.Dir, "reap-next") }

func (s *Store) reapNext() bool {
	_, err := os.Stat(s.reapNextPath())
	return err == nil
}

func (s *Store) setReapNext(on bool) {
	if on == s.reapNext() {
		return
	}
	if on {
		_ = os.WriteFile(s.reapNextPath(), nil, 0o600)
	} else {
		_ = os.Remove(s.reapNextPath())
	}
}

// LastCycle is when the last finished cycle's tmux read began, by any lanes
// process (for status-line reuse); zero when none ran.
func (s *Store) LastCycle() time.Time {
	fi, err := os.Stat(s.lastCyclePath())
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
