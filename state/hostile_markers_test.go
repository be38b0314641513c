package state

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// A hostile re-run: pi's menu words are matched anywhere on the screen. A model's
// answer (indented one column, as pi draws it) that quotes its /tree
// picker's "Type to search:" puts the idle card "in a menu" and send
// refuses, for as long as the answer is on screen.
func TestPiMenuQuotedInAnAnswer(t *testing.T) {
	idle := realScreen(t, "harness/pi", "tool", "idle")
	if InMenu(AgentPi, Screen(idle)) {
		t.Fatal("the real idle screen already reads as a menu")
	}
	for _, quote := range []string{
		" In /tree the top says:\n  Type to search:\n",                               // a quote, indented once more
		" Open /settings; its footer reads Enter/Space to change · Esc to cancel.\n", // inline
	} {
		hostile := strings.Replace(idle, " Done.", " Done.\n"+strings.TrimSuffix(quote, "\n"), 1)
		if !strings.Contains(hostile, strings.TrimSuffix(quote, "\n")) {
			t.Fatal("the answer was not placed")
		}
		if InMenu(AgentPi, Screen(hostile)) {
			t.Errorf("pi idle at its prompt, a model's answer quoting %q: read as in a menu", quote)
		}
		// As the witness applies it to an idle record.
		r := rec(ActivityIdle)
		r.Agent, r.Runtime.PaneID = AgentPi, "%1"
		SeeScreen(r, hostile, t0.Add(time.Minute))
		if r.Activity.Menu || errors.Is(CanSend(r, false), ErrInMenu) {
			t.Errorf("witness: menu %v, send %v (marks %v)", r.Activity.Menu, CanSend(r, false), Derive(r, t0.Add(time.Minute)).Marks)
		}
	}
}

// A hostile re-run: Gemini CLI's held end (new) then reads its howEnded markers
// anywhere below the last "✦ ": a model's answer that quotes an API error
// line (or "Request cancelled.") turns a turn that ended well into a
// failed one, Needs you (or interrupted).
func TestGeminiAnswerQuotesAnEnd(t *testing.T) {
	idle := realScreen(t, "harness/gemini", "tool", "idle")
	for quote, want := range map[string]Mark{
		"✦ Done. The README says that when you see\n  ✕ [API Error: quota exceeded] you should wait.\n": MarkFailed,
		"✦ Done. The log ends with:\n  ℹ Request cancelled.\n":                                          MarkInterrupted,
	} {
		hostile := strings.Replace(idle, "✦ Done.\n", quote, 1)
		r := geminiTurn(t, 8*time.Second) // AfterAgent, nothing failed
		s := looks(t, r, hostile, 8*time.Second+HeldEndQuiet)
		d := Derive(r, t0.Add(9*time.Second))
		if slices.Contains(d.Marks, want) {
			t.Errorf("a turn that ended well, its answer quoting %q: %s zone %s marks %v failure %q",
				strings.Split(quote, "\n")[1], s, d.Zone, d.Marks, r.Activity.Failure)
		}
	}
}

// A hostile re-run: Gemini CLI's halt (its usage-limit box) matched anywhere: a model's
// answer that says its title and then its first option opens a
// "dialog" on an idle card, Needs you, which stays while the text shows.
func TestGeminiAnswerQuotesItsHalt(t *testing.T) {
	idle := realScreen(t, "harness/gemini", "tool", "idle")
	hostile := strings.Replace(idle, "✦ Done.\n", "✦ Done. Note: Usage limit reached for the free tier;\n  1. Keep trying is what the docs suggest.\n", 1)
	r := geminiTurn(t, 8*time.Second)
	looks(t, r, idle, 8*time.Second+HeldEndQuiet)
	if d := Derive(r, t0.Add(9*time.Second)); d.Status != StatusIdle {
		t.Fatalf("setup: %s", d.Status)
	}
	SeeScreen(r, hostile, t0.Add(20*time.Second))
	SeeScreen(r, hostile, t0.Add(60*time.Second))
	if d := Derive(r, t0.Add(60*time.Second)); d.Status == StatusNeedsInput {
		t.Errorf("idle, a model's answer quoting the halt: %s zone %s question %q (40 s later still)", d.Status, d.Zone, r.Activity.Question)
	}
}

// A hostile re-run: pi's input box is what the last two lines starting "───" enclose;
// a draft whose last line is itself a run of "─" (a markdown rule typed
// as box-drawing characters) is taken for the box's top rule, and the
// text above it for the conversation: send types after a held draft.
func TestPiDraftEndingInARule(t *testing.T) {
	holds := realScreen(t, "pi/input", "", "holds")
	rule := strings.Repeat("─", 100)
	hostile := strings.Replace(holds, "draft text", "draft text\n"+rule[:30], 1)
	if !strings.Contains(hostile, "draft text\n───") {
		t.Fatal("not placed")
	}
	if !InputHolds(AgentPi, Screen(hostile)) {
		t.Errorf("pi's input holding %q: read as empty", "draft text\\n"+rule[:30])
	}
}

// A hostile re-run: the same for Qwen Code's first idle look after a turn's end
// (Markers.Said, howEnded): its answer quoting an API error line.
func TestQwenAnswerQuotesAFailure(t *testing.T) {
	idle := realScreen(t, "harness/qwen", "approve", "idle")
	hostile := strings.Replace(idle, "◆︎ Done.", "◆︎ Done. The CI log says:\n    ✕ [API Error: 429 quota exceeded]", 1)
	r := rec(ActivityIdle)
	r.Agent, r.Runtime.PaneID = AgentQwen, "%1"
	applyAll(t, r, ev(KindTurnStart, after(time.Second)), ev(KindTurnEnd, after(8*time.Second)))
	SeeScreen(r, hostile, t0.Add(9*time.Second))
	if d := Derive(r, t0.Add(9*time.Second)); slices.Contains(d.Marks, MarkFailed) {
		t.Errorf("a Qwen turn that ended well, its answer quoting an API error: %s zone %s marks %v failure %q", d.Status, d.Zone, d.Marks, r.Activity.Failure)
	}
}
