package state

import (
	"errors"
	"time"
)

// StartWindow is how long a start or restart may stay in flight: a session
// `lanes new` wrote but tmux never showed is removed after it, and a restart
// whose pane kept its process gets its previous launch back
// (docs/design.md §5, starting).
const StartWindow = 30 * time.Second

// ErrStarting: lanes wrote the record, but no tmux read has shown its
// session yet, so there is no pane to act on (an interrupted `lanes new`
// leaves this until the session shows up or StartWindow passes).
var ErrStarting = errors.New("still starting (no tmux session seen yet)")

// Starting reports whether the session is live but lanes has not yet seen
// its tmux session: a start in flight, not a restart (which knows its
// session).
func (r *Record) Starting() bool {
	return r.Live() && r.Runtime.SessionID == "" && !r.Runtime.StartingAt.IsZero()
}

// Respawned ends a restart in flight whose new pane is running: the new
// launch holds alone.
func Respawned(r *Record) {
	r.Runtime.PrevLaunch, r.Runtime.PrevPID, r.Runtime.StartingAt = "", 0, time.Time{}
}

// NotRespawned ends a restart in flight that did not respawn the pane: the
// agent that runs is the previous launch's, so its launch comes back.
func NotRespawned(r *Record) {
	r.Runtime.Launch = r.Runtime.PrevLaunch
	Respawned(r)
}

// adopt settles a record `lanes new` wrote but never confirmed (no session
// id) from one answered read: a session carrying its @lanes_id is adopted,
// and after StartWindow without one the record is removed (ended, when it
// names a worktree). It reports
// whether the record now has a session to observe.
func (c *cycleTx) adopt(r *Record, seen map[string]*Observation, readStart time.Time) bool {
	o, ok := seen[r.ID]
	if !ok {
		switch {
		case readStart.Sub(r.Runtime.StartingAt) < StartWindow:
		case r.Git.Worktree != "":
			// Its worktree may be there (lanes new killed after making
			// it): the record stays, ended, and says where; `lanes rm
			// NAME --worktree` or doctor's commands remove it.
			c.note(r, Terminate(r, ReasonNeverStarted, "pane", readStart))
		default:
			c.remove(r)
		}
		return false
	}
	rt := &r.Runtime
	rt.SessionID, rt.PaneID = o.SessionID, o.PaneID
	rt.PaneStartedAt = rt.StartingAt
	if rt.PaneStartedAt.IsZero() {
		rt.PaneStartedAt = readStart
	}
	rt.StartingAt = time.Time{}
	return true
}

// settleRestart ends a restart in flight once a read shows its outcome: a
// new pane process means the respawn happened; the old one still there after
// StartWindow means it never will. (An event of the new launch settles it
// too: see Apply.)
func settleRestart(r *Record, o Observation, readStart time.Time) {
	switch {
	case r.Runtime.PrevLaunch == "":
	case o.PID != r.Runtime.PrevPID && r.Runtime.PrevPID != 0: // 0: the old pid was never read
		if o.SessionID != "" {
			// A restart that started the session again put it under new ids.
			r.Runtime.SessionID, r.Runtime.PaneID = o.SessionID, o.PaneID
		}
		Respawned(r)
	case readStart.Sub(r.Runtime.StartingAt) >= StartWindow:
		NotRespawned(r)
	}
}

// remove drops a record at the end of the cycle's transaction.
func (c *cycleTx) remove(r *Record) {
	c.removed = append(c.removed, r.ID)
	delete(c.dirty, r.ID)
}

// orphans are the sessions of a read whose @lanes_id no live record has:
// `lanes doctor` lists them.
func (c *cycleTx) findOrphans(seen map[string]*Observation) {
	for id, o := range seen {
		if r := c.byID[id]; r == nil || !r.Live() {
			c.orphans = append(c.orphans, *o)
		}
	}
}
