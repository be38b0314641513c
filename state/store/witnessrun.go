package store

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"lanes/state"
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
	return state.WitnessMaxCaptures - len(w.inFlight), func(id string) bool { return pending[id] }
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
	cp.screen, cp.ok = state.Screen(text), err == nil
}

// witnessCapture is one capture the witness asked for: which pane, what the
// record said when it was chosen (a hook event since wins), and the result.
type witnessCapture struct {
	id, pane string
	launch   string // the run it looked at: a restart since makes it another's
	basis    state.ActivityFacts
	due      time.Time
	at       time.Time
	screen   state.Screen
	ok       bool
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
		if at, ok := state.WitnessDue(r); ok && !at.After(now) {
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
		see := state.WitnessSees
		if !cp.ok {
			see = func(r *state.Record, _ state.Screen, at time.Time) (state.Event, bool) {
				return state.HeldEndUnread(r, at)
			}
		}
		c.dirty[r.ID] = true
		if e, ok := see(r, cp.screen, cp.at); ok {
			tr, _ := state.Apply(r, e)
			c.note(r, tr)
		}
	}
}

// sameBasis: nothing was applied to the activity since the capture was
// chosen.
func sameBasis(a, b state.ActivityFacts) bool {
	return a.State == b.State && a.Dialog == b.Dialog && a.LastEventAt.Equal(b.LastEventAt) &&
		a.WitnessAt.Equal(b.WitnessAt) && a.DialogGoneAt.Equal(b.DialogGoneAt)
}
