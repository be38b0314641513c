package store

import (
	"time"

	"lanes/state"
)

// observe applies one tmux read to the live records of that server and
// returns the tmux sessions to close after the transaction commits.
func (c *cycleTx) observe(socket string, obs []state.Observation, tmuxErr error, rd read) []string {
	readStart := rd.start
	byLanesID := make(map[string]*state.Observation, len(obs))
	byPane := make(map[string]*state.Observation, len(obs)) // every pane, by id: adopted sessions'
	for i := range obs {
		o := &obs[i]
		o.DeadTime, o.WindowActivity = utc(o.DeadTime), utc(o.WindowActivity)
		byPane[o.PaneID] = o // an adopted agent may run in any pane, a lanes session's too
		if o.LanesID == "" {
			continue
		}
		if prev, ok := byLanesID[o.LanesID]; ok && prev.PaneID == c.paneOf(o.LanesID) {
			continue
		}
		byLanesID[o.LanesID] = o
	}
	var closing []string
	server := serverOf(obs)
	for _, r := range c.records {
		if !r.Live() || r.Runtime.Socket != socket || c.older(rd, r.Pane) || r.Adopted && r.Runtime.PaneID == "" {
			continue // (an adopted session outside tmux: its hooks are all lanes knows)
		}
		pane, rt, act := r.Pane, r.Runtime, r.Activity.State
		if _, found := byLanesID[r.ID]; c.lostServer(r, tmuxErr, server, found) {
			c.serverExited(r, readStart)
		} else if tmuxErr != nil {
			// Every session of a silent server is unreachable, a start in
			// flight too (its start window counts answered reads only).
			if r.Runtime.UnreachableSince.IsZero() {
				r.Runtime.UnreachableSince = readStart
			}
		} else {
			r.Runtime.UnreachableSince = time.Time{}
			removed := len(c.removed)
			if r.Adopted {
				c.observeAdopted(r, byPane, readStart)
			} else if r.Runtime.SessionID != "" || c.adopt(r, byLanesID, readStart) {
				if c.observeOne(r, byLanesID, readStart) {
					closing = append(closing, r.Runtime.SessionID)
				}
			}
			if len(c.removed) > removed {
				continue // a start that never appeared: nothing left to write
			}
		}
		// Only a read that changed something is written: an idle board's
		// cycles then cost no store write at all.
		changed := !samePane(pane, r.Pane) || rt != r.Runtime || act != r.Activity.State
		r.Pane.ObservedAt = pane.ObservedAt
		if changed && tmuxErr == nil { // a failed read is no observation
			r.Pane.ObservedAt, r.Pane.ObservedBy, r.Pane.ObservedSeq = readStart, rd.by, rd.seq
		}
		if changed {
			c.dirty[r.ID] = true
		}
		if r.Pane.Dead && awaitingReap(&r.Pane) {
			c.reapNext = true
		}
	}
	if tmuxErr == nil {
		c.findOrphans(byLanesID)
	}
	return closing
}

// older reports whether rd began before the read that produced p: by the
// sequence when one collector made both, else by the wall clock — unless p's
// stamp lies in the future, which means the clock stepped back since.
func (c *cycleTx) older(rd read, p state.Pane) bool {
	if p.ObservedBy == rd.by {
		return rd.seq < p.ObservedSeq
	}
	return rd.start.Before(p.ObservedAt) && p.ObservedAt.Sub(c.now) <= state.ClockStepTolerance
}

// observeOne applies one answered read to one live record and reports
// whether its session must be closed.
func (c *cycleTx) observeOne(r *state.Record, byLanesID map[string]*state.Observation, readStart time.Time) bool {
	o, ok := byLanesID[r.ID]
	if !ok {
		c.gone(r, readStart)
		return false
	}
	r.Runtime.GoneSeenAt, r.Runtime.ServerPID = time.Time{}, o.ServerPID
	state.StillThere(r, readStart)
	settleRestart(r, *o, readStart)
	return c.applyPane(r, *o, readStart)
}

// utc is t as a decoded store value: UTC (zero stays zero), so comparing
// facts with == does not trip over locations.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// awaitingReap: tmux has not said when the pane died, and it may still (a
// pane reads dead before its server reaps it); past NoTimeReadLimit such
// reads the exit is taken as it stands.
func awaitingReap(p *state.Pane) bool {
	return p.DeadTime.IsZero() && p.NoTimeReads < state.NoTimeReadLimit
}

// samePane compares observations, ignoring when they were read.
func samePane(a, b state.Pane) bool {
	a.ObservedAt, b.ObservedAt = time.Time{}, time.Time{}
	a.ObservedBy, b.ObservedBy, a.ObservedSeq, b.ObservedSeq = "", "", 0, 0
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
func (c *cycleTx) gone(r *state.Record, readStart time.Time) {
	// A first sighting in the future: the clock stepped back since, so
	// the gap starts again.
	if r.Runtime.GoneSeenAt.IsZero() || r.Runtime.GoneSeenAt.After(readStart) {
		r.Runtime.GoneSeenAt = readStart
		return
	}
	if readStart.Sub(r.Runtime.GoneSeenAt) >= state.ConfirmGap {
		reason, source := state.EndedBy(r, state.ReasonGone, "pane")
		c.note(r, state.Terminate(r, reason, source, readStart))
	}
}

// applyPane records one observation and reports whether the session must be
// closed because its agent exited cleanly.
func (c *cycleTx) applyPane(r *state.Record, o state.Observation, readStart time.Time) bool {
	p := &r.Pane
	p.WindowActivity = o.WindowActivity
	if !o.Dead {
		if p.Dead || p.PID != o.PID {
			*p = state.Pane{PID: o.PID, WindowActivity: o.WindowActivity}
		}
		if p.ActivityBase.IsZero() {
			p.ActivityBase = o.WindowActivity
		}
		c.paneActivity(r, readStart)
		return false
	}
	same := p.Dead && p.PID == o.PID
	if !same || !exitRead(p) {
		readExit(p, o, same, readStart)
	}
	if p.Confirmations < 2 || awaitingReap(p) {
		return false
	}
	// Whatever the activity already says: an agent that sent SessionEnd on
	// /exit and then exits 0 is closed like any other (docs/design.md §5).
	if c.cleanExit(r, readStart) {
		c.note(r, state.Terminate(r, state.ReasonCleanExit, "pane", readStart))
		return true
	}
	r.Activity.ClearTurn()
	// Dated by the death, not by the read that confirmed it: ages then
	// agree with what happened, whenever a cycle got round to it.
	c.note(r, r.Activity.Move(state.ActivityExited, diedAt(r.Pane), "pane", state.ExitDetail(r)))
	return false
}

// readExit takes one read of a dead pane (same: the one p saw dead
// already): its status, signal and time, and how far they are confirmed.
func readExit(p *state.Pane, o state.Observation, same bool, readStart time.Time) {
	agree := same && eqStatus(p.ExitStatus, o.DeadStatus) && p.ExitSignal == o.DeadSignal
	switch {
	case !same:
		*p = state.Pane{PID: o.PID, Dead: true, DeadSeenAt: readStart, Confirmations: 1, ConfirmedAt: readStart,
			WindowActivity: o.WindowActivity}
	case !agree: // the reaped status arrived: a new first reading
		p.Confirmations, p.ConfirmedAt = 1, readStart
	case p.ConfirmedAt.After(readStart): // the clock stepped back: the gap starts again
		p.ConfirmedAt = readStart
	case readStart.Sub(p.ConfirmedAt) >= state.ConfirmGap:
		p.Confirmations++
		p.ConfirmedAt = readStart
	}
	p.ExitStatus, p.ExitSignal = o.DeadStatus, o.DeadSignal
	if !o.DeadTime.IsZero() {
		p.DeadTime = o.DeadTime
	} else if p.DeadTime.IsZero() {
		p.NoTimeReads++
	}
}

// exitRead: lanes has read the dead pane's exit, a status or a signal,
// confirmed (docs/design.md §5). Later reads of the same dead pane do not
// change it: tmux 3.3 takes a later child with the dead pane's pid, reaped
// by the server, for the pane, and its pane_dead_signal then changes.
func exitRead(p *state.Pane) bool {
	return p.Dead && p.Confirmations >= 2 && !awaitingReap(p) && (p.ExitStatus != nil || p.ExitSignal != "")
}

func (c *cycleTx) cleanExit(r *state.Record, readStart time.Time) bool {
	p := r.Pane
	if p.ExitStatus == nil || *p.ExitStatus != 0 || p.ExitSignal != "" || p.DeadTime.IsZero() {
		return false
	}
	if !r.Runtime.StartingAt.IsZero() && readStart.Sub(r.Runtime.StartingAt) < startInFlight {
		return false
	}
	return diedAt(p).Sub(r.Runtime.PaneStartedAt) >= state.CleanLifetime
}

// paneActivity drives activity from output for agents without hooks, until
// their first hook signal (docs/design.md §4). A dialog the witness sees
// (a question asked before the start) holds until the witness sees it
// gone: output there is the dialog redrawing, silence is the agent
// waiting, and neither answers it.
func (c *cycleTx) paneActivity(r *state.Record, readStart time.Time) {
	a := &r.Activity
	if a.HooksReport || !a.FirstSignalAt.IsZero() || a.State == state.ActivityExited || a.Dialog {
		return
	}
	// tmux sets window_activity at creation, which may fall in a later
	// second than lanes' own start stamp: only a change since the first
	// read of the pane is output.
	out := r.Pane.WindowActivity.After(r.Pane.ActivityBase) &&
		readStart.Sub(r.Pane.WindowActivity) <= state.PaneActiveWindow
	next := state.ActivityIdle
	if out {
		next = state.ActivityActive
	}
	if tr := a.Move(next, readStart, "pane", "output"); tr != nil {
		c.note(r, tr)
	}
}

// diedAt is the earlier of tmux's pane_dead_time and the first read that
// saw the pane dead.
func diedAt(p state.Pane) time.Time {
	if !p.DeadTime.IsZero() && (p.DeadSeenAt.IsZero() || p.DeadTime.Before(p.DeadSeenAt)) {
		return p.DeadTime
	}
	return p.DeadSeenAt
}

func eqStatus(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
