package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"lanes/state"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

var sizes = []struct{ w, h int }{{45, 20}, {80, 24}, {160, 48}, {200, 50}}

// TestGolden renders the board for dark × light × narrow × wide. Refresh
// with `go test ./tui -run TestGolden -update` and review the diff (`cat`
// the files to see the colours).
func TestGolden(t *testing.T) {
	for _, fx := range []struct {
		name string
		recs func() []*state.Record
	}{{"every-status", fixture}, {"empty-lane", emptyLaneFixture}} {
		for _, th := range []string{ThemeDark, ThemeLight} {
			for _, sz := range sizes {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", fx.name, th, sz.w, sz.h), func(t *testing.T) {
					m := loaded(fx.recs(), th, sz.w, sz.h)
					out := m.View().Content
					checkFrame(t, out, sz.w, sz.h)
					golden.RequireEqual(t, out)
				})
			}
		}
	}
}

// TestGoldenNarrowDone shows the lanes scrolled sideways at 80×24, with
// the selection in Done.
func TestGoldenNarrowDone(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	m = press(m, "l", "l", "l", "l")
	out := m.View().Content
	checkFrame(t, out, 80, 24)
	golden.RequireEqual(t, out)
}

// checkFrame asserts the view fills the terminal exactly: h lines, none
// wider than w, so nothing wraps.
func checkFrame(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide, want ≤ %d: %q", i, lw, w, ansi.Strip(l))
		}
	}
}

// TestGoldenStoreDamaged shows a board whose store went bad (dimmed
// records under the repair note) and one that started on a bad store.
func TestGoldenStoreDamaged(t *testing.T) {
	for name, recs := range map[string][]*state.Record{"stale": fixture(), "start": nil} {
		t.Run(name, func(t *testing.T) {
			m := loaded(recs, ThemeDark, 80, 24)
			m = failed(m, errDamaged, fixedNow.Add(2*time.Minute))
			m = step(m, clearStatusMsg{seq: m.status.seq})
			out := m.View().Content
			checkFrame(t, out, 80, 24)
			golden.RequireEqual(t, out)
		})
	}
}
