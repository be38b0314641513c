package cli

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// BenchmarkWitness is the board's collector cycle at 50 Claude sessions
// whose panes show the recorded real permission dialog, with none of them
// in a dialog (sessions=50/dialogs=0) and all of them (dialogs=50), one
// cycle a second of the collector's clock as on the board, and the
// witness's captures beside the cycles as the board takes them: waited for
// between cycles and applied by a hook-only cycle, off the clock (a second
// apart, the board's are long done; apply-ms/op is that cycle's time).
// It reports the tmux captures per cycle (mean and most); scripts/bench
// compares the two wall times (budget: ≤ 4 captures, ≤ +20 %).
func BenchmarkWitness(b *testing.B) {
	const n = 50
	screen, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(b.TempDir(), "dialog")
	if err := os.WriteFile(file, screen, 0o600); err != nil {
		b.Fatal(err)
	}
	tc := tmuxtest.Server(b)
	dir := benchSessionsOn(b, tc, n, "cat '"+file+"'; exec sleep 3600", state.AgentCustom)
	var captures atomic.Int64
	counting := &tmux.Client{Socket: tc.Socket, Config: tc.Config, Run: func(ctx context.Context, args ...string) ([]byte, error) {
		if len(args) > 0 && args[0] == "capture-pane" {
			captures.Add(1)
		}
		return tc.Run(ctx, args...)
	}}
	for _, dialogs := range []int{0, n} {
		b.Run("sessions=50/dialogs="+map[int]string{0: "0", n: "50"}[dialogs], func(b *testing.B) {
			st := store.New(dir)
			now := time.Now().UTC()
			setClaudeDialogs(b, st, now, dialogs)
			col := &store.Collector{Store: st, Panes: session.Panes{Client: counting}, Socket: tc.Socket,
				Now: func() time.Time { return now }, Witness: store.NewWitnessRunner()}
			ingest := ingest{col}
			var applied time.Duration
			cycle := func() int64 {
				now = now.Add(time.Second) // the board's pace
				captures.Store(0)
				res, err := col.Cycle(context.Background())
				if err != nil || res.TmuxErr != nil || len(res.Records) != n {
					b.Fatal(err, res.TmuxErr, len(res.Records))
				}
				b.StopTimer()
				col.Witness.Wait()
				// The board's next hook-only cycle (woken by Ready) applies
				// them: timed on its own.
				t := time.Now()
				if _, err := ingest.Cycle(context.Background()); err != nil {
					b.Fatal(err)
				}
				applied += time.Since(t)
				b.StartTimer()
				return captures.Load()
			}
			for range 5 { // past the dialogs' first looks
				cycle()
			}
			var total, most int64
			applied = 0
			b.ResetTimer()
			for b.Loop() {
				c := cycle()
				total, most = total+c, max(most, c)
			}
			b.ReportMetric(float64(total)/float64(b.N), "captures/op")
			b.ReportMetric(float64(most), "max-captures/op")
			b.ReportMetric(float64(applied.Microseconds())/1000/float64(b.N), "apply-ms/op")
		})
	}
}

// setClaudeDialogs makes every stored record a Claude session, idle since
// now but for the first dialogs records, which are in a dialog. Claude has
// witness markers; a first signal already came, so no session gets a
// launch look.
func setClaudeDialogs(b *testing.B, st *store.Store, now time.Time, dialogs int) {
	b.Helper()
	if err := st.Update(func(tx *store.Tx) error {
		recs, err := tx.All()
		if err != nil {
			return err
		}
		for i, r := range recs {
			r.Agent = state.AgentClaude
			r.Activity = state.ActivityFacts{State: state.ActivityIdle, Since: now, Source: "hook:claude",
				FirstSignalAt: now, LastEventAt: now, HooksReport: true}
			if i < dialogs {
				r.Activity.State, r.Activity.Dialog = state.ActivityBlocked, true
			}
			if err := tx.Put(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
}
