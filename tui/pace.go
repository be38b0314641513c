package tui

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// Frame pacing. Bubble Tea draws a new view only on its renderer's ticks,
// at a fixed rate whether or not anything changed, and on this kind of
// machine each wakeup costs about a tenth of a millisecond: 15 ticks a
// second were half the idle board's CPU, and still kept a hook line up to
// 67 ms from the screen. The pacer runs the ticks fast for a moment after
// the view changed and slow otherwise: a change is on screen within
// paceFast, and an idle board wakes about once a second.
const (
	// FPS is the renderer's own rate; the pacer takes over its ticker as
	// soon as the program runs.
	FPS      = 60
	paceFast = 8 * time.Millisecond  // tick period right after a change
	paceHold = 40 * time.Millisecond // how long ticks stay fast after it
	paceSlow = time.Second           // tick period while nothing changes
	// paceFallbackFPS is the program's rate when the pacer cannot reach
	// the renderer's ticker (a Bubble Tea whose insides moved): fixed, as
	// before the pacer, trading idle CPU for a frame of latency.
	paceFallbackFPS = 15
)

// pacer drives the renderer's ticker. Its methods are safe on nil (tests
// and goldens render without a program).
type pacer struct {
	mu     sync.Mutex
	prog   *tea.Program
	ticker *time.Ticker
	last   string
	fast   bool
	hold   *time.Timer
}

// newPacer returns a pacer for the program about to be made, or nil when
// Bubble Tea keeps no ticker the pacer can reach; then the program keeps
// the fallback rate. Its program is set once made, before it runs.
func newPacer() *pacer {
	if _, ok := reflect.TypeFor[tea.Program]().FieldByName("ticker"); !ok {
		return nil
	}
	return &pacer{}
}

// fps is the rate to ask of the program pc drives (or of one no pacer
// drives).
func (pc *pacer) fps() int {
	if pc == nil {
		return paceFallbackFPS
	}
	return FPS
}

// programTicker is p's renderer ticker, nil until the renderer started or
// when Bubble Tea keeps it elsewhere. It reads an unexported field, on the
// program's own goroutine (View is called there), where Run set it.
func programTicker(p *tea.Program) *time.Ticker {
	f := reflect.ValueOf(p).Elem().FieldByName("ticker")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*time.Ticker]() {
		return nil
	}
	return *(**time.Ticker)(unsafe.Pointer(f.UnsafeAddr()))
}

// saw is told every view the model renders: a changed one makes the ticks
// fast for paceHold, an unchanged one outside that window keeps them slow
// (also after Bubble Tea restarted its renderer at its own rate, as it does
// when the terminal comes back from an attach).
func (pc *pacer) saw(content string) {
	if pc == nil {
		return
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.ticker == nil {
		if pc.ticker = programTicker(pc.prog); pc.ticker == nil {
			return
		}
		pc.hold = time.AfterFunc(time.Hour, pc.settle)
		pc.hold.Stop()
	}
	switch {
	case content != pc.last:
		pc.last = content
		if !pc.fast {
			pc.fast = true
			pc.ticker.Reset(paceFast)
		}
		pc.hold.Reset(paceHold)
	case !pc.fast:
		pc.ticker.Reset(paceSlow)
	}
}

// settle slows the ticks once paceHold passed without a change.
func (pc *pacer) settle() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.fast = false
	pc.ticker.Reset(paceSlow)
}
