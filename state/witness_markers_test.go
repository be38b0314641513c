package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each agent's markers tell its recorded real screens apart: the dialog
// markers show only on dialog screens, the busy indicator never on a
// screen where the agent waits for the human, and the idle prompt on every
// screen where it does. A marker that also showed in another state would
// make the witness settle a session wrongly.
func TestMarkersTellTheRecordedScreensApart(t *testing.T) {
	for _, ag := range CodingAgents() {
		m, ok := MarkersOf(ag)
		if !ok {
			continue
		}
		files, err := filepath.Glob(filepath.Join(realDir, string(ag), "*", "*.screen"))
		// The harness's full recordings too: every dialog the agent shows
		// (a question is one) must carry a dialog marker, or the witness
		// would read it as answered.
		more, _ := filepath.Glob(filepath.Join(realDir, "harness", string(ag), "*", "*.screen"))
		files = append(files, more...)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no recorded screens (%v)", ag, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, name := Screen(b), strings.TrimPrefix(f, realDir+"/")
			step := strings.TrimSuffix(filepath.Base(f), ".screen")
			// (ready: the prompt as the harness first met it, in whatever
			// mode it started: manual, auto, plan.)
			waiting := step == "idle" || step == "rejected" || step == "interrupted" || step == "idle-background" || step == "ready"
			switch {
			// (A question above the prompt was answered: Gemini restarts
			// under it.)
			case (step == "trust") != (m.startAsks(sc) == TrustQuestion):
				t.Errorf("%s: trust markers %q asking: %q", name, m.Trust, m.startAsks(sc))
			case (step == "hooks") != (m.startAsks(sc) == HookReviewQuestion):
				t.Errorf("%s: hook review markers %q asking: %q", name, m.HookReview, m.startAsks(sc))
			case step == "hooks":
			case step == "trust":
				// Claude's trust question ends "Enter to confirm · Esc
				// to cancel", its dialog marker too; either way it is
				// no prompt.
				if sc.Shows(m.Idle) {
					t.Errorf("%s: the trust question shows the idle prompt %q", name, m.Idle)
				}
			case (step == "halt") != (m.halt(sc) != ""):
				t.Errorf("%s: halt markers %q asking: %q", name, m.Halts, m.halt(sc))
			case step == "halt":
			case step == "menu":
				// A menu may end like a dialog (Claude Code's /model "Esc
				// to cancel"): menus.go reads it, at an idle prompt only.
			case (step == "dialog" || step == "question") != sc.Shows(m.Dialog):
				t.Errorf("%s: dialog markers %q shown: %v", name, m.Dialog, sc.Shows(m.Dialog))
			case waiting && (sc.Shows(m.Busy) || !sc.Shows(m.Idle)):
				t.Errorf("%s: waiting for the human, but busy %v, idle prompt %v", name, sc.Shows(m.Busy), sc.Shows(m.Idle))
			case step == "running" && !sc.Shows(m.Busy):
				t.Errorf("%s: the approved tool runs, but no busy marker %q", name, m.Busy)
			}
		}
	}
}
