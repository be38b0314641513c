package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillAnswer: `lanes answer` on the fake Claude's recorded permission
// dialog in a real tmux pane (docs/design.md §15). yes presses Claude's
// own "1" and the card goes Working; a second answer finds the dialog gone
// and sends nothing; no presses "3" and the card goes idle.
func drillAnswer(w *world.World) (string, error) {
	// The tool must outlast the witness's confirmation (a capture every
	// ≤ 3 s, a second ≥ 1 s later), or the card goes from the dialog
	// straight to idle when the tool ends.
	runFor := 12 * time.Second
	if *quick {
		runFor = 8 * time.Second
	}
	var ev []string
	for _, c := range []struct{ name, answer, says, key, status string }{
		{"ay", "yes", "approved Bash: touch approved.txt && sleep 12 in ay", "31", "working"},
		{"an", "no", "denied Bash: touch approved.txt && sleep 12 in an", "33", "idle"},
	} {
		restore, err := witnessStart(w, c.name, "run the command", runFor)
		if err != nil {
			return strings.Join(ev, "; "), err
		}
		defer restore()
		if _, s := awaitLs(w, c.name, 10*time.Second, func(s lsOne) bool { return s.Dialog }); !s.Dialog {
			return strings.Join(ev, "; "), fmt.Errorf("no dialog after PermissionRequest: %+v", s)
		}
		r := w.Lanes("", "answer", c.name, c.answer)
		said := strings.TrimSpace(r.Stdout)
		took, s := awaitLs(w, c.name, 10*time.Second, func(s lsOne) bool { return s.Status == c.status })
		key, _ := os.ReadFile(filepath.Join(w.Root, "fake-claude", "answered"))
		again := w.Lanes("", "answer", c.name, c.answer)
		ev = append(ev, fmt.Sprintf("lanes answer %s %s: exit %d %q, the pane got 0x%s, ls says %s after %v; again: exit %d %q",
			c.name, c.answer, r.Code, said, strings.TrimSpace(string(key)), s.Status, took, again.Code, strings.TrimSpace(again.Stderr)))
		switch {
		case r.Code != 0 || said != c.says:
			return strings.Join(ev, "; "), fmt.Errorf("want exit 0 and %q", c.says)
		case strings.TrimSpace(string(key)) != c.key:
			return strings.Join(ev, "; "), fmt.Errorf("want the key 0x%s (Claude's own for %s)", c.key, c.answer)
		case took < 0:
			return strings.Join(ev, "; "), fmt.Errorf("want %s after the answer", c.status)
		case again.Code != 1 || !strings.Contains(again.Stderr, "no permission dialog") && !strings.Contains(again.Stderr, "dialog is gone"):
			return strings.Join(ev, "; "), fmt.Errorf("want the second answer refused: the dialog is gone")
		}
	}
	return strings.Join(ev, "; "), nil
}
