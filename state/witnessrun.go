package state

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// WitnessRunner takes the witness's captures beside the board's cycles
// instead of inside them: each is a tmux call of its own, and 50 sessions in
// a dialog would otherwise add up to WitnessMaxCaptures of them to every
// cycle's wall time. A cycle picks the due captures inside its transaction
// (never one already in flight, never more than WitnessMaxCaptures in flight
// in all), starts them after it, and returns; when one is taken, Ready
// signals, and the next cycle of either kind applies it in its transaction,
// with the same guard as before: a record whose activity moved since the
// capture was chosen keeps what it has. Commands that run one cycle and
// exit have no later cycle: without a runner, a cycle takes its captures
// itself, between two transactions.
type WitnessRunner struct {
	mu       sync.Mutex
	inFlight map[string]bool // ids being captured
	done     []witnessCapture
	ready    chan struct{}
	wg       sync.WaitGroup
}

// NewWitnessRunner returns a runner with nothing in flight.
func NewWitnessRunner() *WitnessRunner {
	return &WitnessRunner{inFlight: map[string]bool{}, ready: make(chan struct{}, 1)}
}

// Ready signals (never blocking the runner) when a capture was taken and
// waits for a cycle to apply it.
func (w *WitnessRunner) Ready() <-chan struct{} { return w.ready }

// room is how many captures may start now, and whether id is in flight or
// taken and not applied yet (then it is not chosen again).
func (w *WitnessRunner) room() (int, func(id string) bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	pending := map[string]bool{}
	for id := range w.inFlight {
		pending[id] = true
	}
	for _, cp := range w.done {
		pending[cp.id] = true
	}
	return WitnessMaxCaptures - len(w.inFlight), func(id string) bool { return pending[id] }
}

// start takes caps beside the caller, each in its own goroutine.
func (w *WitnessRunner) start(ctx context.Context, caps []witnessCapture, panes PaneSource, now func() time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, cp := range caps {
		if w.inFlight[cp.id] {
			continue
		}
		w.inFlight[cp.id] = true
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			capture(ctx, &cp, panes, now)
			w.mu.Lock()
			delete(w.inFlight, cp.id)
			w.done = append(w.done, cp)
			w.mu.Unlock()
			select {
			case w.ready <- struct{}{}:
			default:
			}
		}()
	}
}

// take hands over the captures taken since the last call.
func (w *WitnessRunner) take() []witnessCapture {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.done
	w.done = nil
	return d
}

// Wait waits for the captures in flight (tests and benchmarks).
func (w *WitnessRunner) Wait() { w.wg.Wait() }

// capture takes cp's pane now.
func capture(ctx context.Context, cp *witnessCapture, panes PaneSource, now func() time.Time) {
	cp.at = now().UTC().Round(0)
	text, err := panes.CapturePane(ctx, cp.pane)
	cp.screen, cp.ok = Screen(text), err == nil
}

// witnessCapture is one capture the witness asked for: which pane, what the
// record said when it was chosen (a hook event since wins), and the result.
type witnessCapture struct {
	id, pane string
	launch   string // the run it looked at: a restart since makes it another's
	basis    ActivityFacts
	due      time.Time
	at       time.Time
	screen   Screen
	ok       bool
}

// witnessDue reports when r's pane is next due a capture, if ever.
func witnessDue(r *Record) (time.Time, bool) {
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

// witnessDue picks this cycle's captures: the sessions of socket due by
// now and not pending (in flight beside the cycles), oldest-due first, at
// most room.
func (c *cycleTx) witnessDue(socket string, now time.Time, room int, pending func(id string) bool) []witnessCapture {
	var due []witnessCapture
	for _, r := range c.records {
		if r.Runtime.Socket != socket || pending(r.ID) {
			continue
		}
		if at, ok := witnessDue(r); ok && !at.After(now) {
			due = append(due, witnessCapture{id: r.ID, pane: r.Runtime.PaneID, launch: r.Runtime.Launch, basis: r.Activity, due: at})
		}
	}
	slices.SortFunc(due, func(x, y witnessCapture) int { return cmp.Or(x.due.Compare(y.due), strings.Compare(x.id, y.id)) })
	return due[:max(0, min(len(due), room))]
}

// witness applies captures taken since witnessDue chose them. A record
// whose activity changed meanwhile (a hook event, another process's
// capture) keeps what it has: the capture says nothing of the new state.
func (c *cycleTx) witness(caps []witnessCapture) {
	for _, cp := range caps {
		r := c.record(cp.id)
		if r == nil || !r.Live() || !sameBasis(r.Activity, cp.basis) ||
			r.Runtime.Launch != cp.launch || r.Runtime.PaneID != cp.pane {
			continue
		}
		see := witnessSees
		if !cp.ok {
			see = func(r *Record, _ Screen, at time.Time) (Event, bool) { return heldEndUnread(r, at) }
		}
		c.dirty[r.ID] = true
		if e, ok := see(r, cp.screen, cp.at); ok {
			tr, _ := Apply(r, e)
			c.note(r, tr)
		}
	}
}

// sameBasis: nothing was applied to the activity since the capture was
// chosen.
func sameBasis(a, b ActivityFacts) bool {
	return a.State == b.State && a.Dialog == b.Dialog && a.LastEventAt.Equal(b.LastEventAt) &&
		a.WitnessAt.Equal(b.WitnessAt) && a.DialogGoneAt.Equal(b.DialogGoneAt)
}
