package state

import (
	"fmt"
	"time"
)

// observe applies one tmux read to the live records of that server and
// returns the tmux sessions to close after the transaction commits.
func (c *cycleTx) observe(socket string, obs []Observation, tmuxErr error, rd read) []string {
	readStart := rd.start
	byLanesID := make(map[string]*Observation, len(obs))
	byPane := make(map[string]*Observation, len(obs)) // every pane, by id: adopted sessions'
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
		if r.Pane.Dead && r.Pane.awaitingReap() {
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
func (c *cycleTx) older(rd read, p Pane) bool {
	if p.ObservedBy == rd.by {
		return rd.seq < p.ObservedSeq
	}
	return rd.start.Before(p.ObservedAt) && p.ObservedAt.Sub(c.now) <= ClockStepTolerance
}

// observeOne applies one answered read to one live record and reports
// whether its session must be closed.
func (c *cycleTx) observeOne(r *Record, byLanesID map[string]*Observation, readStart time.Time) bool {
	o, ok := byLanesID[r.ID]
	if !ok {
		c.gone(r, readStart)
		return false
	}
	r.Runtime.GoneSeenAt, r.Runtime.ServerPID = time.Time{}, o.ServerPID
	stillThere(r, readStart)
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
func (p *Pane) awaitingReap() bool { return p.DeadTime.IsZero() && p.NoTimeReads < NoTimeReadLimit }

// samePane compares observations, ignoring when they were read.
func samePane(a, b Pane) bool {
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
func (c *cycleTx) gone(r *Record, readStart time.Time) {
	// A first sighting in the future: the clock stepped back since, so
	// the gap starts again.
	if r.Runtime.GoneSeenAt.IsZero() || r.Runtime.GoneSeenAt.After(readStart) {
		r.Runtime.GoneSeenAt = readStart
		return
	}
	if readStart.Sub(r.Runtime.GoneSeenAt) >= ConfirmGap {
		reason, source := endedBy(r, ReasonGone, "pane")
		c.note(r, Terminate(r, reason, source, readStart))
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
		if p.ActivityBase.IsZero() {
			p.ActivityBase = o.WindowActivity
		}
		c.paneActivity(r, readStart)
		return false
	}
	same := p.Dead && p.PID == o.PID
	if !same || !p.exitRead() {
		readExit(p, o, same, readStart)
	}
	if p.Confirmations < 2 || p.awaitingReap() {
		return false
	}
	// Whatever the activity already says: an agent that sent SessionEnd on
	// /exit and then exits 0 is closed like any other (docs/design.md §5).
	if c.cleanExit(r, readStart) {
		c.note(r, Terminate(r, ReasonCleanExit, "pane", readStart))
		return true
	}
	r.Activity.clearTurn()
	// Dated by the death, not by the read that confirmed it: ages then
	// agree with what happened, whenever a cycle got round to it.
	c.note(r, r.Activity.move(ActivityExited, diedAt(r.Pane), "pane", ExitDetail(r)))
	return false
}

// readExit takes one read of a dead pane (same: the one p saw dead
// already): its status, signal and time, and how far they are confirmed.
func readExit(p *Pane, o Observation, same bool, readStart time.Time) {
	agree := same && eqStatus(p.ExitStatus, o.DeadStatus) && p.ExitSignal == o.DeadSignal
	switch {
	case !same:
		*p = Pane{PID: o.PID, Dead: true, DeadSeenAt: readStart, Confirmations: 1, ConfirmedAt: readStart,
			WindowActivity: o.WindowActivity}
	case !agree: // the reaped status arrived: a new first reading
		p.Confirmations, p.ConfirmedAt = 1, readStart
	case p.ConfirmedAt.After(readStart): // the clock stepped back: the gap starts again
		p.ConfirmedAt = readStart
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
}

// exitRead: lanes has read the dead pane's exit, a status or a signal,
// confirmed (docs/design.md §5). Later reads of the same dead pane do not
// change it: tmux 3.3 takes a later child with the dead pane's pid, reaped
// by the server, for the pane, and its pane_dead_signal then changes.
func (p *Pane) exitRead() bool {
	return p.Dead && p.Confirmations >= 2 && !p.awaitingReap() && (p.ExitStatus != nil || p.ExitSignal != "")
}

func (c *cycleTx) cleanExit(r *Record, readStart time.Time) bool {
	p := r.Pane
	if p.ExitStatus == nil || *p.ExitStatus != 0 || p.ExitSignal != "" || p.DeadTime.IsZero() {
		return false
	}
	if !r.Runtime.StartingAt.IsZero() && readStart.Sub(r.Runtime.StartingAt) < startInFlight {
		return false
	}
	return diedAt(p).Sub(r.Runtime.PaneStartedAt) >= CleanLifetime
}

// paneActivity drives activity from output for agents without hooks, until
// their first hook signal (docs/design.md §4). A dialog the witness sees
// (a question asked before the start) holds until the witness sees it
// gone: output there is the dialog redrawing, silence is the agent
// waiting, and neither answers it.
func (c *cycleTx) paneActivity(r *Record, readStart time.Time) {
	a := &r.Activity
	if a.HooksReport || !a.FirstSignalAt.IsZero() || a.State == ActivityExited || a.Dialog {
		return
	}
	// tmux sets window_activity at creation, which may fall in a later
	// second than lanes' own start stamp: only a change since the first
	// read of the pane is output.
	out := r.Pane.WindowActivity.After(r.Pane.ActivityBase) &&
		readStart.Sub(r.Pane.WindowActivity) <= PaneActiveWindow
	next := ActivityIdle
	if out {
		next = ActivityActive
	}
	if tr := a.move(next, readStart, "pane", "output"); tr != nil {
		c.note(r, tr)
	}
}

// diedAt is the earlier of tmux's pane_dead_time and the first read that
// saw the pane dead.
func diedAt(p Pane) time.Time {
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

// Detail is what a surface shows in place of the status's own label, or ""
// when the label says it all: an exited agent's exit, "exited (3)".
func Detail(r *Record, d Derivation) string {
	if d.Status == StatusExited {
		return ExitDetail(r)
	}
	return ""
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
