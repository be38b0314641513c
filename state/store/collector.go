package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"lanes/state"
	"lanes/state/gh"
	"lanes/state/git"
	"lanes/state/usage"
)

// PaneSource is what the collector needs from tmux: one read of every lanes
// pane on the server (chained behind a reaping no-op when asked), closing
// a session whose agent exited cleanly, and the text a pane shows now (its
// visible screen, wrapped lines joined, no escapes) for the witness.
type PaneSource interface {
	ListPanes(ctx context.Context, reap bool) ([]state.Observation, error)
	KillSession(ctx context.Context, sessionID string) error
	CapturePane(ctx context.Context, paneID string) (string, error)
}

// Collector runs cycles: one tmux read, then one write transaction that
// ingests the spool and applies the read.
type Collector struct {
	Store  *Store
	Panes  PaneSource // nil: spool only
	Socket string     // the tmux server whose sessions this collector watches
	Now    func() time.Time
	// Git, when set (the board), reads ahead, behind and changed beside
	// the cycles (state/git/facts.go); nil: the stored counts are left as they are.
	Git *git.Poller
	// PRs, when set (the board, lanes pr --sync), reads PR facts from
	// GitHub beside the cycle (state/gh).
	PRs *gh.Poller
	// Witness, when set (the board), takes the witness's captures beside
	// the cycles (witnessrun.go); nil: a cycle takes them itself.
	Witness *WitnessRunner
	// ServerGone stands in for the package's ServerGone (tests).
	ServerGone func(pid int) bool
	// NoUsage: cycles read no agent's records (the status line, which
	// shows no usage and runs every few seconds per tmux client).
	NoUsage bool

	// cache is the records as of store transaction cacheTx. While no other
	// process writes, a cycle starts from copies of them instead of decoding
	// every record again: an idle board's cycle then costs one tmux read.
	cache   []*state.Record
	cacheTx int
	// known is the records the last cycle that committed (or changed
	// nothing) left, kept when a later one fails: where the branch read
	// looks.
	known []*state.Record
	// heads finds each session directory's git HEAD file, for the live
	// branch.
	heads git.Heads
	// usage reads the agents' records for their numbers (state/usage).
	usage *usage.Reader

	// id and seq order this collector's own reads whatever the wall
	// clock does (a process runs one collector).
	id  string
	seq int
}

// read is one tmux read: when it began by the wall clock, and its place in
// its collector's sequence.
type read struct {
	start time.Time
	by    string
	seq   int
}

// CycleResult is what one cycle saw.
type CycleResult struct {
	Records  []*state.Record
	Ingested int
	Dropped  int
	// TmuxErr is set when the tmux server did not answer; the records are
	// still current as far as the store goes.
	TmuxErr error
	// Watching: a live session lives on the collector's server. Without
	// one, a server that is not running is the normal state, and TmuxErr
	// nothing to tell anyone.
	Watching bool
	// Orphans are the read's sessions whose @lanes_id no live record has.
	Orphans []state.Observation
	// PRsStopped is why PR facts from GitHub stopped coming after they
	// came (gh.Poller.Stopped).
	PRsStopped error
	// Spent is what sessions removed since yesterday spent (Tx.Spent):
	// today's total goes on when Done is cleared.
	Spent []state.Spent
	At    time.Time
}

func (c *Collector) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// nextRead stamps a cycle's tmux read: when it began, and its place in
// this collector's sequence. A cycle that reads no tmux takes its time
// from it all the same.
func (c *Collector) nextRead() read {
	start := c.now().UTC().Round(0) // as the store gives it back: UTC, no monotonic reading
	if c.id == "" {
		c.id = state.NewID()
	}
	c.seq++
	return read{start: start, by: c.id, seq: c.seq}
}

// Cycle runs one collector cycle.
func (c *Collector) Cycle(ctx context.Context) (CycleResult, error) { return c.cycle(ctx, true) }

// Ingest runs a cycle without the tmux read: the spool, and what was taken
// beside earlier cycles (PR facts, the witness's captures), for changes
// that need nothing from tmux (a hook line, a PR recorded by lanes). It
// starts from the same cached records as Cycle, so a board whose hook-only
// cycles commit does not make its next full cycle decode every record.
func (c *Collector) Ingest(ctx context.Context) (CycleResult, error) { return c.cycle(ctx, false) }

func (c *Collector) cycle(ctx context.Context, readTmux bool) (CycleResult, error) {
	var obs []state.Observation
	var tmuxErr error
	rd := c.nextRead()
	readPanes := readTmux && c.Panes != nil
	if readPanes {
		obs, tmuxErr = c.Panes.ListPanes(ctx, c.Store.reapNext())
		// The caller's own deadline or cancellation says nothing about the
		// server: such a read is no read at all.
		readPanes = tmuxErr == nil || ctx.Err() == nil
	}
	res := CycleResult{TmuxErr: tmuxErr, At: rd.start}
	var closing []string
	var captures []witnessCapture
	var gitJobs []git.Key
	var prJobs []gh.Job
	reap := false
	now := c.now()
	var branches map[string]string
	var usages map[string]usage.Read
	if readPanes {
		branches, usages = c.readFiles(rd.start, now)
	}
	err := c.transact(now, readPanes, &res, func(ct *cycleTx) {
		ct.witness(c.Witness.take()) // taken beside earlier cycles
		if readPanes {
			ct.setBranches(branches)
			ct.setUsage(usages)
			if c.Git != nil {
				ct.setGit(c.Git.Take())
				gitJobs = c.Git.Due(ct.records, now)
			}
			closing = ct.observe(c.Socket, obs, tmuxErr, rd)
			reap = ct.reapNext
			if tmuxErr == nil {
				room, pending := state.WitnessMaxCaptures, func(string) bool { return false }
				if c.Witness != nil {
					room, pending = c.Witness.room()
				}
				captures = ct.witnessDue(c.Socket, now, room, pending)
			}
		}
		if c.PRs != nil {
			ct.setPRs(c.PRs, c.PRs.Take())
			if readPanes { // a spool-only cycle (lanes pr --sync's last) starts none
				prJobs = c.PRs.Due(ct.records, now, false, nil)
			}
		}
		res.Orphans = ct.orphans
	})
	if c.PRs != nil {
		res.PRsStopped = c.PRs.Stopped()
	}
	if err != nil {
		return CycleResult{}, err
	}
	res.Watching = slices.ContainsFunc(res.Records, func(r *state.Record) bool { return r.Live() && r.Runtime.Socket == c.Socket })
	if readPanes {
		c.Store.setReapNext(reap)
	}
	c.Git.Start(ctx, gitJobs, c.now) // beside the cycle: it does not wait for them
	if c.PRs != nil {
		c.PRs.Start(ctx, prJobs, c.now)
	}
	if readPanes { // a spool-only cycle, or one whose read was abandoned, read no tmux: nothing to reuse
		c.Store.markCycle(rd.start)
	}
	for _, sid := range closing {
		if err := c.Panes.KillSession(ctx, sid); err != nil && res.TmuxErr == nil {
			res.TmuxErr = fmt.Errorf("closing a cleanly exited session: %w", err)
		}
	}
	if len(captures) == 0 {
		return res, nil
	}
	return c.takeCaptures(ctx, res, captures)
}

// takeCaptures takes the witness's captures the cycle chose: beside the
// cycles when a WitnessRunner is there (the board's), else now.
func (c *Collector) takeCaptures(ctx context.Context, res CycleResult, captures []witnessCapture) (CycleResult, error) {
	if c.Witness != nil {
		c.Witness.start(ctx, captures, c.Panes, c.now)
		return res, nil
	}
	// The witness's captures, like the tmux read, happen outside the write
	// transaction; what they prove is applied in a second one, after the
	// hook lines that arrived meanwhile (a later hook event wins).
	for i := range captures {
		capture(ctx, &captures[i], c.Panes, c.now)
	}
	ingested, dropped := res.Ingested, res.Dropped
	if err := c.transact(c.now(), false, &res, func(ct *cycleTx) { ct.witness(captures) }); err != nil {
		return CycleResult{}, err
	}
	res.Ingested += ingested
	res.Dropped += dropped
	return res, nil
}

// transact runs one cycle write transaction: the cycle starts from its
// records (cached when current), ingests the spool, lets body apply what
// the cycle read, and commits only what changed. It fills res's records
// and counts.
func (c *Collector) transact(now time.Time, read bool, res *CycleResult, body func(*cycleTx)) error {
	err := c.Store.update(func(tx *Tx) error {
		ct := &cycleTx{tx: tx, stateDir: c.Store.Dir, now: now, dirty: map[string]bool{},
			history: map[string][]state.Transition{}, serverGone: c.ServerGone}
		committed := tx.tx.ID() - 1 // a write transaction's id is the next one
		if err := ct.load(c.cache, c.cache != nil && c.cacheTx == committed); err != nil {
			return err
		}
		if err := ct.ingest(); err != nil {
			return err
		}
		body(ct)
		res.Ingested, res.Dropped = ct.ingested, ct.dropped
		if err := ct.flush(); err != nil {
			return err
		}
		res.Records = ct.records
		res.Spent = tx.Spent(now.Local().AddDate(0, 0, -1).Format(time.DateOnly))
		c.cache, c.cacheTx, c.known = ct.records, committed, ct.records
		if !tx.wrote {
			return errUnchanged // roll back: nothing to commit, no fsync
		}
		c.cacheTx = tx.tx.ID()
		return nil
	}, func(err error) { c.snapshot(err, read, res.Records, uint64(c.cacheTx), now) })
	if err != nil && !errors.Is(err, errUnchanged) {
		c.cache = nil
		return err
	}
	return nil
}

// snapshot keeps the snapshot (snapshot.go) as current as the store, after
// the cycle's transaction and before its lock is released: written when the
// cycle committed, restamped when it changed nothing and the snapshot is
// of the store's transaction txid with the same tally at the new time
// (else written anew). A cycle without a tmux read (the board's
// hook-only cycles) writes its records stamped with the last read's time,
// never its own: readers take a young snapshot as a recent read of tmux. A
// snapshot that cannot be written is removed rather than left behind.
func (c *Collector) snapshot(err error, read bool, recs []*state.Record, txid uint64, at time.Time) {
	unchanged := errors.Is(err, errUnchanged)
	switch {
	case err != nil && !unchanged:
		return // nothing committed: the snapshot is as current as before
	case !read && unchanged:
		return
	case !read:
		// New records, but no newer tmux read: stamped as of the last read,
		// so a reader still knows how old its pane facts are.
		last := c.Store.LastCycle()
		if last.IsZero() {
			c.Store.removeSnapshot()
			return
		}
		at = last
	case unchanged:
		if c.Store.keepSnapshot(recs, txid, at) {
			return
		}
	}
	if c.Store.writeSnapshot(recs, txid, at) != nil {
		c.Store.removeSnapshot()
	}
}

// cycleTx is the working set of one cycle's write transaction.
type cycleTx struct {
	tx       *Tx
	stateDir string
	now      time.Time
	records  []*state.Record
	byID     map[string]*state.Record
	dirty    map[string]bool
	history  map[string][]state.Transition
	reapNext bool
	removed  []string // records to delete: starts that never appeared
	orphans  []state.Observation
	// servers memoizes serverGone (ServerGone unless the collector
	// says) by pid for the cycle.
	servers    map[int]bool
	serverGone func(pid int) bool

	ingested, dropped int
}

// load starts the cycle from copies of cached records when they are
// current, else from the store. Copies, because the previous cycle's
// records belong to its caller now.
func (c *cycleTx) load(cached []*state.Record, current bool) error {
	var all []*state.Record
	if current {
		all = make([]*state.Record, len(cached))
		slab := make([]state.Record, len(cached))
		for i, r := range cached {
			r.CloneInto(&slab[i])
			all[i] = &slab[i]
		}
	} else {
		var err error
		if all, err = c.tx.All(); err != nil {
			return err
		}
	}
	c.records = all
	c.byID = make(map[string]*state.Record, len(all))
	for _, r := range all {
		c.byID[r.ID] = r
	}
	return nil
}

func (c *cycleTx) record(id string) *state.Record { return c.byID[id] }

func (c *cycleTx) flush() error {
	for _, id := range c.removed {
		if err := c.tx.Delete(id); err != nil {
			return err
		}
		delete(c.byID, id)
		delete(c.history, id)
	}
	if len(c.removed) > 0 {
		c.records = slices.DeleteFunc(c.records, func(r *state.Record) bool { return c.byID[r.ID] == nil })
	}
	for id := range c.dirty {
		r := c.byID[id]
		if err := c.tx.Put(r); err != nil {
			return err
		}
		if r.Runtime.Terminated && c.stateDir != "" {
			DropPaneIndex(c.stateDir, r)
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

func (c *cycleTx) note(r *state.Record, tr *state.Transition) {
	c.dirty[r.ID] = true
	if tr != nil {
		c.history[r.ID] = append(c.history[r.ID], *tr)
	}
}

// errUnchanged rolls back a cycle's transaction that changed nothing.
var errUnchanged = errors.New("cycle changed nothing")

// startInFlight: a start younger than this is still in flight.
const startInFlight = 10 * time.Second
