package state

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Issue 32, item 3: while Claude Code retried a 429 by itself (no hook
// for over 30 s) the card said Working and nothing more. A look at the
// recorded real screens keeps what it says, the card marks it, and the
// next event clears it.
func TestWitnessSeesARetry(t *testing.T) {
	screen := func(name string) string {
		b, err := os.ReadFile(filepath.Join(realDir, "harness", "claude", "retry", name+".screen"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	r := rec(ActivityActive)
	// Its spinner draws all along: no silence to look at.
	r.Runtime.PaneID, r.Pane.WindowActivity = "%1", time.Time{}
	if at, ok := witnessDue(r); !ok || !at.Equal(t0.Add(WitnessRetryQuiet)) {
		t.Fatalf("a working pane with no event: look due %v %v, want %v", at, ok, t0.Add(WitnessRetryQuiet))
	}
	SeeScreen(r, screen("retrying"), t0.Add(12*time.Second))
	if r.Activity.Retry != "rate limited, attempt 5/6" || r.Activity.State != ActivityActive {
		t.Fatalf("retry screen: %s %q, want active, rate limited, attempt 5/6", r.Activity.State, r.Activity.Retry)
	}
	if d := Derive(r, t0.Add(13*time.Second)); d.Status != StatusWorking || !slices.Contains(d.Marks, MarkRetrying) {
		t.Errorf("card: %+v, want working + retrying", d)
	}
	if at, _ := witnessDue(r); !at.Equal(t0.Add(12*time.Second + WitnessRetryEvery)) {
		t.Errorf("next look %v, want %v after the last", at, WitnessRetryEvery)
	}
	applyAll(t, r, ev(KindTurnEnd, outc(OutcomeFailure), after(40*time.Second)))
	if r.Activity.Retry != "" {
		t.Errorf("after the turn's end: retry %q, want none", r.Activity.Retry)
	}
}

func TestRetrySays(t *testing.T) {
	for line, want := range map[string]string{
		"✻ 429 modelserver: scripted rate_limit_error · retrying in 19s · attempt 6/6": "rate limited, attempt 6/6",
		"✻ API error · retrying in 1s · attempt 2/6":                                   "API error, attempt 2/6",
		"✻ 529 Overloaded · retrying in 12s · attempt 6/10":                            "server overloaded, attempt 6/10",
	} {
		if got := retrySays(line); got != want {
			t.Errorf("retrySays(%q) = %q, want %q", line, got, want)
		}
	}
}
