package state

import (
	"slices"
	"testing"
	"time"
)

// Issue 32, item 3: while Claude Code retried a 429 by itself (no hook
// for over 30 s) the card said Working and nothing more. A look at the
// recorded real screens keeps what it says, the card marks it, and the
// next event clears it.
func TestWitnessSeesARetry(t *testing.T) {
	screen := func(name string) string { return realScreen(t, "harness/claude", "retry", name) }
	r := rec(ActivityActive)
	// Its spinner draws all along: no silence to look at.
	r.Runtime.PaneID, r.Pane.WindowActivity = "%1", time.Time{}
	if at, ok := WitnessDue(r); !ok || !at.Equal(t0.Add(WitnessRetryQuiet)) {
		t.Fatalf("a working pane with no event: look due %v %v, want %v", at, ok, t0.Add(WitnessRetryQuiet))
	}
	SeeScreen(r, screen("retrying"), t0.Add(12*time.Second))
	if r.Activity.Retry != "rate limited, attempt 5/6" || r.Activity.State != ActivityActive {
		t.Fatalf("retry screen: %s %q, want active, rate limited, attempt 5/6", r.Activity.State, r.Activity.Retry)
	}
	if d := Derive(r, t0.Add(13*time.Second)); d.Status != StatusWorking || !slices.Contains(d.Marks, MarkRetrying) {
		t.Errorf("card: %+v, want working + retrying", d)
	}
	if at, _ := WitnessDue(r); !at.Equal(t0.Add(12*time.Second + WitnessRetryEvery)) {
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
		// A pane's text: nothing of it but the attempt's digits is kept.
		"✻ 429 rate limit · retrying in 19s · attempt \u202e1/6#[fg=red]#(touch x)\u200b": "rate limited",
		"✻ retrying in 1s · attempt 3/":   "",
		"✻ retrying in 1s · attempt 3/4 ": "attempt 3/4",
		// Qwen Code 0.24.4's quota retry, on the error's own line.
		"✕ [API Error: 429 modelserver: scripted quota exceeded] (Retrying in 59s… (attempt 1/10))": "usage limit, attempt 1/10",
		"✕ [API Error: 429 quota] (Retrying in 59s… (attempt 1/10)x)":                               "usage limit",
	} {
		if got := retrySays(line); got != want {
			t.Errorf("retrySays(%q) = %q, want %q", line, got, want)
		}
	}
}

// A usage limit is said as such, with when it resets where the agent says
// (Codex 0.171.0's line, testdata/real/harness/codex/usage_limit; Claude
// Code's subscription form, from its binary's words).
func TestWhyFailedUsageLimit(t *testing.T) {
	for line, want := range map[string]string{
		"■ You’ve hit your usage limit. Visit https://chatgpt.com/settings/usage to purchase more credits or try again at 10:04 PM.": "usage limit, resets 10:04 PM",
		"■ You've hit your usage limit. Try again later.":                    "usage limit",
		"⎿  You've hit your limit · resets 7pm (Europe/Paris)":               "usage limit, resets 7pm (Europe/Paris)",
		"■ You’ve hit your usage limit. Try again at Dec 3rd, 2026 9:05 AM.": "usage limit, resets Dec 3rd, 2026 9:05 AM",
		"■ exceeded retry limit, last status: 429 Too Many Requests":         "rate limited",
		"✕ [API Error: You have exhausted your daily quota on this model.]":  "usage limit",
		"usage limit · resets \u202e#[fg=red]#(touch x)\u200b":               "usage limit",
		"⎿  You've hit your limit · resets 7pm (América/São_Paulo)":          "usage limit, resets 7pm (América/São_Paulo)",
	} {
		if got := whyFailed(line); got != want {
			t.Errorf("whyFailed(%q) = %q, want %q", line, got, want)
		}
	}
}

// Gemini CLI 0.61.0 over its usage limit asks in a box whether to keep
// trying, and no hook fires: the card said Working for as long as it
// asked. A look at the recorded screens makes it Needs you, the box's
// line the question (send refuses: Asks), until the box goes.
func TestWitnessSeesGeminisUsageLimitBox(t *testing.T) {
	screen := func(name string) string { return realScreen(t, "harness/gemini", "usage_limit", name) }
	r := rec(ActivityActive)
	r.Agent = AgentGemini
	SeeScreen(r, screen("halt"), t0.Add(3*time.Second))
	want := "Usage limit reached for gemini-2.5-flash."
	if a := r.Activity; a.State != ActivityWaitingInput || !a.Dialog || a.Question != want {
		t.Fatalf("the box: %s dialog=%v %q, want waiting_input, a dialog, %q", a.State, a.Dialog, a.Question, want)
	}
	if d := Derive(r, t0.Add(4*time.Second)); d.Status != StatusNeedsInput {
		t.Errorf("card %s, want needs_input", d.Status)
	}
	if !geminiMarkers.Asks(Screen(screen("halt"))) {
		t.Error("Asks: false on the box, so send would type into it")
	}
	said := "✦ Usage limit reached for the tests, I read.\n >   Type your message"
	if q := geminiMarkers.halt(Screen(said)); q != "" {
		t.Errorf("a model's answer saying the words: halt %q, want none", q)
	}
	SeeScreen(r, screen("halt"), t0.Add(6*time.Second))
	if r.Activity.State != ActivityWaitingInput {
		t.Fatalf("the box still shown: %s, want waiting_input", r.Activity.State)
	}
	SeeScreen(r, screen("stopped"), t0.Add(9*time.Second))
	SeeScreen(r, screen("stopped"), t0.Add(11*time.Second))
	if a := r.Activity; a.State != ActivityIdle || a.Dialog {
		t.Errorf("Stop picked: %s dialog=%v, want idle", a.State, a.Dialog)
	}
}

// A failed request's HTTP status, as a card says it: a 400 said nothing
// (a pi trial's card read only "Failed"); a status that is not three
// digits (a hook line's field) says nothing.
func TestHTTPFailure(t *testing.T) {
	for status, want := range map[string]string{
		"429": "rate limited", "529": "server overloaded", "500": "server error", "400": "request refused (400)",
		"401": "not authorized (401)", "404": "request refused (404)", "200": "", "": "", "4x0": "", "4000": "", "\x1b[0": "",
	} {
		if got := httpFailure(status); got != want {
			t.Errorf("httpFailure(%q) = %q, want %q", status, got, want)
		}
	}
}
