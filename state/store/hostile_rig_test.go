package store

import (
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// A hostile re-run: Gemini CLI fires no hook when its dialog is refused with Esc; the
// witness ends the dialog once the screen shows none of its Dialog words
// — anywhere. A command whose own text says one of them ("Enter to
// select") stays on screen as the cancelled call's line: the card stays
// Needs you, a dialog open, send refused, after the human said no.
func TestRejectedCallSaysDialogWords(t *testing.T) {
	for _, c := range []struct {
		agent    state.Agent
		lines    int
		from, to string
	}{
		{state.AgentGemini, 5, "Shell touch rejected.txt", "Shell touch rejected.txt # Enter to select"},
		{state.AgentClaude, 3, "Bash(touch rejected.txt)", "Bash(touch rejected.txt # Esc to cancel)"},
		{state.AgentCodex, 3, "run touch rejected.txt", "run touch rejected.txt # Press enter to confirm or esc to cancel"},
	} {
		w := newWitnessRig(t, c.agent, "permission-reject", c.lines)
		w.show(c.agent, "permission-reject", "dialog", true)
		w.cycle(time.Second, false)
		w.show(c.agent, "permission-reject", "rejected", true)
		w.panes.screens["%1"] = strings.Replace(w.panes.screens["%1"], c.from, c.to, 1)
		if !strings.Contains(w.panes.screens["%1"], c.to) {
			t.Fatal("not placed")
		}
		_, r := w.until(60*time.Second, false, func(r *state.Record) bool { return !r.Activity.Dialog })
		if r.Activity.Dialog {
			t.Errorf("%s, 60 s after Esc refused %q: status %s dialog %v send %v", c.agent, c.to, state.Derive(r, w.clk.t).Status, r.Activity.Dialog, state.CanSend(r, false))
		}
	}
}
