package state

import "time"

// When the witness next looks at a pane (docs/design.md §11): the rules;
// the store's cycle takes the captures they ask for.

// WitnessDue reports when r's pane is next due a capture, if ever.
func WitnessDue(r *Record) (time.Time, bool) {
	if !r.Live() || r.Starting() || r.Pane.Dead || r.Runtime.PaneID == "" || !r.Runtime.UnreachableSince.IsZero() {
		return time.Time{}, false
	}
	at, ok := markersDue(r)
	if idle, look := idleLook(r); look && (!ok || idle.Before(at)) {
		return idle, true
	}
	return at, ok
}

// markersDue is when r's pane is next due a look for what its markers
// tell (a dialog answered, a question before the start, an interrupt, a
// retry), if ever.
func markersDue(r *Record) (time.Time, bool) {
	a := &r.Activity
	m, ok := MarkersOf(r.Agent)
	if !ok {
		return time.Time{}, false
	}
	switch {
	case !a.HeldEnd.IsZero() && a.State == ActivityActive:
		return heldEndLook(a), true
	case a.Dialog && !a.DialogGoneAt.IsZero():
		return a.DialogGoneAt.Add(WitnessConfirmGap), true
	case a.Dialog && a.WitnessAt.IsZero():
		return a.Since, true
	case a.Dialog:
		return a.WitnessAt.Add(WitnessDialogEvery), true
	case !a.Dialog && a.FirstSignalAt.IsZero() && len(m.Trust)+len(m.HookReview) > 0 && !r.Runtime.PaneStartedAt.IsZero():
		// A launch no event spoke for yet: the agent may be asking
		// whether to trust its folder, which fires no hook. Looks back
		// off, from the draw grace after the start, each twice as far
		// out, until the no-signal grace (4 or 5 looks in all).
		// (From the last change: a question answered may be followed by
		// another, as Codex's hook review follows its folder trust.)
		start := r.Runtime.PaneStartedAt
		if a.Since.After(start) {
			start = a.Since
		}
		next := start.Add(WitnessDrawGrace)
		if a.WitnessAt.After(start) {
			next = a.WitnessAt.Add(max(a.WitnessAt.Sub(start), WitnessDrawGrace))
		}
		return next, next.Sub(start) <= NoSignalGrace
	case a.State == ActivityActive && a.HooksReport:
		return activeLook(r, m)
	}
	return time.Time{}, false
}

// activeLook is when a working pane is next looked at: once in each
// silence (an interrupt), and, no hook having spoken for a while, every
// WitnessRetryEvery (a retry); the sooner of the two.
func activeLook(r *Record, m Markers) (time.Time, bool) {
	var at time.Time
	ok := false
	if m.Animates && !r.Pane.WindowActivity.IsZero() && !r.Activity.WitnessAt.After(quietSince(r)) {
		at, ok = quietSince(r).Add(WitnessSilence), true
	}
	if retry := retryLook(&r.Activity); len(m.Retrying) > 0 && (!ok || retry.Before(at)) {
		at, ok = retry, true
	}
	return at, ok
}

// idleLook is when r's idle pane is next looked at for a menu: once its
// output settles after it last drew (a menu opening or closing draws),
// if lanes knows its menus; and, for an agent whose hooks end an
// interrupted turn like any other, a second after the turn's end.
func idleLook(r *Record) (time.Time, bool) {
	a := &r.Activity
	if _, ok := MenusOf(r.Agent); !ok || a.State != ActivityIdle || a.Dialog || r.Pane.WindowActivity.IsZero() ||
		a.WitnessAt.After(quietSince(r)) {
		return time.Time{}, false
	}
	due := quietSince(r).Add(WitnessSilence)
	if m, ok := MarkersOf(r.Agent); ok && len(m.Said) > 0 && !a.WitnessAt.After(a.Since) {
		// A second after a turn's end, whatever the pane still draws:
		// did it end interrupted (witness.go)?
		if end := a.Since.Add(WitnessConfirmGap); end.Before(due) {
			due = end
		}
	}
	return due, true
}

// quietSince is when r's pane and hooks last said anything. (tmux dates
// window_activity to the second: output may have come up to its end.)
func quietSince(r *Record) time.Time {
	quiet := r.Pane.WindowActivity.Add(time.Second)
	if r.Activity.LastEventAt.After(quiet) {
		quiet = r.Activity.LastEventAt
	}
	return quiet
}
