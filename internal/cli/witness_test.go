package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux/tmuxtest"
)

// The witness against a real tmux pane: a fake agent prints the recorded
// real Claude dialog, and on Enter the recorded screen of the approved tool
// running, redrawn like its spinner. The collector, reading the pane
// through tmux, turns the card from Needs input to Working with no hook.
func TestWitnessRealPaneApprove(t *testing.T) {
	t.Parallel()
	tc := tmuxtest.Server(t)
	dir := t.TempDir()
	for _, step := range []string{"dialog", "running"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "claude", "permission-approve", step+".screen"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, step), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	agent := `clear; cat dialog; read x; while :; do clear; cat running; sleep 0.3; done`
	ctx := context.Background()
	if _, err := tc.Run(ctx, "new-session", "-d", "-s", "lanes-w", "-x", "200", "-y", "50", "-c", dir, "sh", "-c", agent); err != nil {
		t.Fatal(err)
	}
	out, err := tc.Run(ctx, "display-message", "-p", "-t", "lanes-w", "#{session_id} #{pane_id} #{pane_pid}")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(out))
	pid, _ := strconv.Atoi(f[2])
	if _, err := tc.Run(ctx, "set-option", "-t", f[0], "@lanes_id", "abcd1234"); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	r := &state.Record{ID: "abcd1234", Name: "w", Agent: state.AgentClaude, Command: []string{"claude"}, CreatedAt: now,
		Runtime:  state.Runtime{Socket: tc.Socket, TmuxSession: "lanes-w", SessionID: f[0], PaneID: f[1], Launch: "L1", PaneStartedAt: now},
		Pane:     state.Pane{PID: pid},
		Activity: state.ActivityFacts{State: state.ActivityBlocked, Since: now, Source: "hook:claude", FirstSignalAt: now, LastEventAt: now, HooksReport: true, Dialog: true}}
	st := store.New(filepath.Join(t.TempDir(), "state"))
	if err := st.Update(func(tx *store.Tx) error { return tx.Put(r) }); err != nil {
		t.Fatal(err)
	}
	col := &store.Collector{Store: st, Panes: session.Panes{Client: tc}, Socket: tc.Socket}
	activity := func() state.ActivityFacts {
		res, err := col.Cycle(ctx)
		if err != nil || res.TmuxErr != nil || len(res.Records) != 1 {
			t.Fatalf("cycle: %v %v %d records", err, res.TmuxErr, len(res.Records))
		}
		return res.Records[0].Activity
	}
	// The dialog shows: it stays a dialog through captures.
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if a := activity(); a.State != state.ActivityBlocked || !a.Dialog {
			t.Fatalf("dialog showing: activity %s dialog %v", a.State, a.Dialog)
		}
	}
	if _, err := tc.Run(ctx, "send-keys", "-t", f[1], "Enter"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for {
		a := activity()
		if a.State == state.ActivityActive {
			if a.Dialog || a.Source != "witness" {
				t.Fatalf("approved: dialog %v source %s", a.Dialog, a.Source)
			}
			t.Logf("approve → active in %v", time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("approved 10 s ago: activity %s dialog %v", a.State, a.Dialog)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
