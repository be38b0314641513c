package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"lanes/state"
)

// A store the first release wrote (testdata/store/schema1.db: schema 1,
// JSON records) opens with this build: migrated to the current schema,
// every record as it was written, and it opens again after.
func TestStoredSchema1Opens(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "store", "schema1.db"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lanes.db"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 { // migrated, then as it is
		s := New(dir)
		var all []*state.Record
		var schema int
		if err := s.View(func(tx *Tx) (err error) {
			all, err = tx.All()
			schema = tx.Schema()
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if schema != SchemaVersion || len(all) != 2 {
			t.Fatalf("schema %d, %d records; want %d and 2", schema, len(all), SchemaVersion)
		}
		by := map[string]*state.Record{}
		for _, r := range all {
			by[r.ID] = r
		}
		api, old := by["k3v9x2ab"], by["done0001"]
		if api == nil || old == nil {
			t.Fatalf("records %v", by)
		}
		created := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
		if api.Name != "api" || api.Agent != state.AgentClaude || len(api.Command) != 3 || !api.CreatedAt.Equal(created) ||
			api.Runtime.PaneID != "%7" || api.Runtime.Launch != "L1a2b3c4" || api.Pane.PID != 4242 ||
			api.Activity.State != state.ActivityIdle || api.Activity.ProviderSessionID != "656a347d-113d-4d69-b757-86cf3e349c34" ||
			len(api.PRs) != 1 || api.PRs[0].Number != 12 || api.PRs[0].Review != state.ReviewPending || api.EventsApplied != 41 ||
			!api.Activity.HooksReport { // stored as "hooks_injected"
			t.Errorf("api read back as %+v", api)
		}
		if !old.Runtime.Terminated || old.Runtime.TerminatedReason != "killed by user" || old.Agent != state.AgentCodex {
			t.Errorf("old read back as %+v", old.Runtime)
		}
		if d := state.Derive(api, created.Add(time.Hour)); d.Status != state.StatusReviewPending {
			t.Errorf("api derives %s, want review_pending", d.Status)
		}
	}
}
