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
// the view changed (or output was queued) and at paceSlow otherwise: a
// change is on screen within paceFast, and an idle board's renderer wakes
// once a second.
const (
	// FPS is the renderer's own rate; the pacer takes over its ticker as
	// soon as the program runs.
	FPS      = 60
	paceFast = 8 * time.Millisecond  // tick period right after a change
	paceHold = 40 * time.Millisecond // how long ticks stay fast after it
	paceSlow = time.Second           // tick period while nothing changes
	// paceRestate: how often an unchanged view sets the slow period again,
	// which Bubble Tea replaces with its own rate when it restarts its
	// renderer (after an attach). Rarely, since setting it restarts the
	// period: a board renders twice a second, and setting it each time
	// would keep the slow tick from ever coming.
	paceRestate = 3 * time.Second
	// paceFallbackFPS is the program's rate when the pacer cannot reach
	// the renderer's ticker (a Bubble Tea whose insides moved): fixed, as
	// before the pacer, trading idle CPU for a frame of latency.
	paceFallbackFPS = 15
)

// paced is a model whose every view its pacer sees. Bubble Tea renders
// a view after each update, so this is where a change is first known; the
// wrapped model's View only renders. A test fails when Bubble Tea moves
// its ticker (TestPacerDrivesTheRenderer), and the board says so on its
// bottom line when it runs without a pacer.
type paced struct {
	tea.Model
	pc *pacer
}

func (p paced) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := p.Model.Update(msg)
	return paced{m, p.pc}, cmd
}

func (p paced) View() tea.View {
	v := p.Model.View()
	p.pc.saw(v.Content)
	return v
}

// pacer drives the renderer's ticker. Its methods are safe on nil (tests
// and goldens render without a program).
type pacer struct {
	mu       sync.Mutex
	prog     *tea.Program
	last     string
	fast     bool
	fastTill time.Time // a change or kick keeps the ticks fast until then
	restated time.Time // when the slow period was last set
	hold     *time.Timer
}

var tickerType = reflect.TypeFor[*time.Ticker]()

// newPacer returns a pacer for the program about to be made, or nil when
// Bubble Tea keeps no ticker the pacer can reach; then the program keeps
// the fallback rate. Its program is set once made, before it runs.
func newPacer() *pacer {
	if f, ok := reflect.TypeFor[tea.Program]().FieldByName("ticker"); !ok || f.Type != tickerType {
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

// ticker is the program's renderer ticker, nil until the renderer started.
// It reads an unexported field (newPacer checked its type), each time: a
// Bubble Tea that made a new ticker on a restart would otherwise be left
// at its own rate. Called from View, on the program's goroutine, where Run
// sets the field.
func (pc *pacer) ticker() *time.Ticker {
	f := reflect.ValueOf(pc.prog).Elem().FieldByName("ticker")
	return *(**time.Ticker)(unsafe.Pointer(f.UnsafeAddr()))
}

// saw is told every view the model renders: a changed one makes the ticks
// fast for paceHold; an unchanged one outside that window states the slow
// period again now and then (Bubble Tea restarts its renderer at its own
// rate when the terminal comes back from an attach).
func (pc *pacer) saw(content string) {
	if pc == nil {
		return
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	t := pc.ticker()
	if t == nil {
		return
	}
	now := time.Now()
	switch {
	case content != pc.last:
		pc.last = content
		pc.speedUp(t, now)
	case !pc.fast && now.Sub(pc.restated) >= paceRestate:
		pc.restated = now
		t.Reset(paceSlow)
	}
}

// kick makes the ticks fast for a moment without a new view: output queued
// for the terminal (a notification) is written on a tick.
func (pc *pacer) kick() {
	if pc == nil || pc.prog == nil {
		return
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if t := pc.ticker(); t != nil {
		pc.speedUp(t, time.Now())
	}
}

func (pc *pacer) speedUp(t *time.Ticker, now time.Time) {
	if !pc.fast {
		pc.fast = true
		t.Reset(paceFast)
	}
	pc.fastTill = now.Add(paceHold)
	if pc.hold == nil {
		pc.hold = time.AfterFunc(paceHold, pc.settle)
	} else {
		pc.hold.Reset(paceHold)
	}
}

// settle slows the ticks once paceHold passed without a change; one that
// came while it waited for the lock keeps them fast.
func (pc *pacer) settle() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if wait := time.Until(pc.fastTill); wait > 0 {
		pc.hold.Reset(wait)
		return
	}
	pc.fast = false
	pc.restated = time.Now()
	pc.ticker().Reset(paceSlow)
}
