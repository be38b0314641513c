package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/scripts/internal/world"
	"lanes/state/store"
)

// drillOneParser: the hook reads its command line by the rules every
// command follows — --session=NAME is --session NAME, and a mistyped flag
// is logged (exit 0, silent) instead of being recorded as an event — and
// `lanes new -- CMD` without a NAME is a usage error.
func drillOneParser(w *world.World) (string, error) {
	s, err := newSession(w, "argv")
	if err != nil {
		return "", err
	}
	spooled := func() []string { // the spool's lines (a cycle may have taken the earlier ones)
		b, _ := os.ReadFile(store.SpoolPath(w.State, s.ID))
		return strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' })
	}
	before := len(spooled())
	var lines []string
	r := w.Lanes("", "hook", "generic", "waiting_input", "--session=argv")
	after := spooled()
	lines = append(lines, fmt.Sprintf("hook generic waiting_input --session=argv: exit %d, spool lines %d → %d", r.Code, before, len(after)))
	if r.Code != 0 || len(after) != before+1 || !strings.Contains(after[len(after)-1], `"waiting_input"`) {
		return strings.Join(lines, "\n"), fmt.Errorf("--session=NAME did not reach the session's spool")
	}
	r = w.Lanes("", "hook", "generic", "idle", "--sesion", "argv")
	log, _ := os.ReadFile(filepath.Join(w.State, "hook-errors.log"))
	lines = append(lines, fmt.Sprintf("hook generic idle --sesion argv: exit %d, printed %q, spool lines %d, log %q",
		r.Code, r.Stdout+r.Stderr, len(spooled()), firstLine(strings.TrimSpace(string(log)))))
	if r.Code != 0 || r.Stdout+r.Stderr != "" || len(spooled()) != len(after) || !strings.Contains(string(log), "-sesion") {
		return strings.Join(lines, "\n"), fmt.Errorf("a mistyped hook flag must be logged, silent, and record nothing")
	}
	r = w.Lanes("", "new", "--", "sh")
	lines = append(lines, fmt.Sprintf("new -- sh: exit %d, %q", r.Code, firstLine(r.Stderr)))
	if r.Code != 2 || !strings.Contains(r.Stderr, "new needs a NAME before --") {
		return strings.Join(lines, "\n"), fmt.Errorf("new -- sh must ask for a NAME")
	}
	return strings.Join(lines, "\n"), nil
}
