package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// BenchmarkWitnessCycle: a collector cycle with N sessions in a dialog
// (recorded real Claude screen). Captures per cycle stay ≤ 4 whatever N.
func BenchmarkWitnessCycle(b *testing.B) {
	screen := statetest.RealScreen(b, "claude", "permission-approve", "dialog")
	for _, n := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("dialogs=%d", n), func(b *testing.B) {
			f := &fakePanes{screens: map[string]string{}}
			clk := &clock{t: statetest.T0}
			col := &Collector{Store: New(filepath.Join(b.TempDir(), "state")), Panes: f, Now: clk.now}
			var recs []*state.Record
			for i := range n {
				r := statetest.Rec(state.ActivityBlocked)
				r.ID, r.Name = fmt.Sprintf("d%07d", i), fmt.Sprintf("d%d", i)
				r.Runtime.PaneID, r.Runtime.SessionID, r.Pane.PID = fmt.Sprintf("%%%d", i), fmt.Sprintf("$%d", i), i+1
				r.Activity.Dialog, r.Activity.Since = true, statetest.T0.Add(-time.Minute)
				recs = append(recs, r)
				f.obs = append(f.obs, state.Observation{LanesID: r.ID, SessionID: r.Runtime.SessionID, PaneID: r.Runtime.PaneID, PID: i + 1, WindowActivity: statetest.T0})
				f.screens[r.Runtime.PaneID] = screen
			}
			put(b, col.Store, recs...)
			most, cycles := 0, 0
			for b.Loop() {
				before := len(f.captured)
				clk.advance(time.Second)
				if _, err := col.Cycle(context.Background()); err != nil {
					b.Fatal(err)
				}
				most = max(most, len(f.captured)-before)
				cycles++
			}
			if most > state.WitnessMaxCaptures {
				b.Fatalf("%d captures in one cycle", most)
			}
			b.ReportMetric(float64(most), "max-captures/cycle")
			b.ReportMetric(float64(len(f.captured))/float64(cycles), "captures/cycle")
		})
	}
}
