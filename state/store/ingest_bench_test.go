package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state"
	"lanes/state/statetest"
)

// BenchmarkIngest measures spool ingest into the store: 20 000 hook lines
// over 10 sessions, applied in one cycle's transaction. It reports events/s.
func BenchmarkIngest(b *testing.B) {
	const sessions, perSession = 10, 2000
	kinds := []string{"UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}
	var files [sessions]string
	for s := range sessions {
		var sb strings.Builder
		for i := range perSession {
			fmt.Fprintf(&sb, `{"v":1,"at":"2026-11-29T12:00:00Z","session":"sess%04d","launch":"L1","agent":"claude","event":"%s","tool_name":"Bash","tool_use_id":"toolu_%d"}`+"\n", s, kinds[i%4], i/4)
		}
		files[s] = sb.String()
	}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dir := filepath.Join(b.TempDir(), "state")
		st := New(dir)
		col := &Collector{Store: st}
		for s := range sessions {
			r := statetest.Rec(state.ActivityIdle)
			r.ID = fmt.Sprintf("sess%04d", s)
			put(b, st, r)
			os.MkdirAll(SpoolDir(dir), 0o700)
			os.WriteFile(SpoolPath(dir, r.ID), []byte(files[s]), 0o600)
		}
		b.StartTimer()
		res, err := col.Cycle(context.Background())
		if err != nil || res.Ingested != sessions*perSession {
			b.Fatalf("ingested %d, err %v", res.Ingested, err)
		}
	}
	b.ReportMetric(float64(sessions*perSession*b.N)/b.Elapsed().Seconds(), "events/s")
}
