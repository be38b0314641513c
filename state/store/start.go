package store

import (
	"time"

	"lanes/state"
)

// NotRespawned ends a restart in flight that did not respawn the pane: the
// agent that runs is the previous launch's, so its launch comes back.
func NotRespawned(r *state.Record) {
	r.Runtime.Launch = r.Runtime.PrevLaunch
	state.Respawned(r)
}

// adopt settles a record `lanes new` wrote but never confirmed (no session
// id) from one answered read: a session carrying its @lanes_id is adopted,
// and after StartWindow without one the record is removed (ended, when it
// names a worktree). It reports
// whether the record now has a session to observe.
func (c *cycleTx) adopt(r *state.Record, seen map[string]*state.Observation, readStart time.Time) bool {
	o, ok := seen[r.ID]
	if !ok {
		switch {
		case readStart.Sub(r.Runtime.StartingAt) < state.StartWindow:
		case r.Git.Worktree != "":
			// Its worktree may be there (lanes new killed after making
			// it): the record stays, ended, and says where; `lanes rm
			// NAME --worktree` or doctor's commands remove it.
			c.note(r, state.Terminate(r, state.ReasonNeverStarted, "pane", readStart))
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
func settleRestart(r *state.Record, o state.Observation, readStart time.Time) {
	switch {
	case r.Runtime.PrevLaunch == "":
	case o.PID != r.Runtime.PrevPID && r.Runtime.PrevPID != 0: // 0: the old pid was never read
		if o.SessionID != "" {
			// A restart that started the session again put it under new ids.
			r.Runtime.SessionID, r.Runtime.PaneID = o.SessionID, o.PaneID
		}
		state.Respawned(r)
	case readStart.Sub(r.Runtime.StartingAt) >= state.StartWindow:
		NotRespawned(r)
	}
}

// remove drops a record at the end of the cycle's transaction.
func (c *cycleTx) remove(r *state.Record) {
	c.removed = append(c.removed, r.ID)
	delete(c.dirty, r.ID)
}

// orphans are the sessions of a read whose @lanes_id no live record has:
// `lanes doctor` lists them.
func (c *cycleTx) findOrphans(seen map[string]*state.Observation) {
	for id, o := range seen {
		if r := c.byID[id]; r == nil || !r.Live() {
			c.orphans = append(c.orphans, *o)
		}
	}
}
