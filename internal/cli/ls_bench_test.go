package cli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
)

// BenchmarkLsJSON500 is `lanes ls --json` over 500 stored sessions, in
// process: one cycle (spool ingest, a tmux read that finds no server) plus
// Derive and JSON for every record.
func BenchmarkLsJSON500(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "state")
	st := store.New(dir)
	now := time.Now().UTC()
	if err := st.Update(func(tx *store.Tx) error {
		for i := range 500 {
			r := &state.Record{ID: fmt.Sprintf("bench%03d", i), Name: fmt.Sprintf("s%d", i), Agent: state.AgentClaude,
				Runtime:  state.Runtime{Socket: "elsewhere", SessionID: fmt.Sprintf("$%d", i), PaneID: fmt.Sprintf("%%%d", i), Launch: "L", PaneStartedAt: now},
				Activity: state.ActivityFacts{State: state.Activities[i%5], Since: now, HooksReport: true, FirstSignalAt: now},
			}
			if i%3 == 0 {
				r.PRs = []state.PR{{Number: i, State: state.PRStateOpen, Review: state.ReviewPending, CI: state.CIPassing, Mergeable: state.MergeableUnknown}}
			}
			if err := tx.Put(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	vars := map[string]string{"LANES_STATE_DIR": dir, "LANES_TMUX_SOCKET": "lanes-bench-nosuch", "HOME": b.TempDir()}
	b.ResetTimer()
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := newApp(strings.NewReader(""), &out, &errb, func(k string) string { return vars[k] }).main(context.Background(), []string{"ls", "--json"}); code != 0 {
			b.Fatal(errb.String())
		}
	}
}
