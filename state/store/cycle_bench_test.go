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

// BenchmarkCycleIdle is the collector's own share of an idle board's cycle
// (the read handed in, no tmux): the transaction that applies a read of N
// panes that changed nothing, which an idle board runs every second.
func BenchmarkCycleIdle(b *testing.B) {
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			f := &fakePanes{}
			clk := &clock{t: statetest.T0}
			col := &Collector{Store: New(filepath.Join(b.TempDir(), "state")), Panes: f, Now: clk.now}
			var recs []*state.Record
			for i := range n {
				r := statetest.Rec(state.ActivityIdle)
				r.ID, r.Name = fmt.Sprintf("i%07d", i), fmt.Sprintf("i%d", i)
				r.Runtime.PaneID, r.Runtime.SessionID, r.Pane.PID = fmt.Sprintf("%%%d", i), fmt.Sprintf("$%d", i), i+1
				recs = append(recs, r)
				f.obs = append(f.obs, state.Observation{LanesID: r.ID, SessionID: r.Runtime.SessionID, PaneID: r.Runtime.PaneID, PID: i + 1, WindowActivity: statetest.T0})
			}
			put(b, col.Store, recs...)
			clk.advance(time.Second)
			if _, err := col.Cycle(context.Background()); err != nil { // the first read is a change
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				clk.advance(time.Second)
				if _, err := col.Cycle(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
