package state

import (
	"context"
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
