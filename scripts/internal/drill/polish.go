package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/scripts/internal/world"
)

// drillHooksUninstall: `lanes hooks uninstall claude` after an install
// gives back the user's settings.json byte for byte (comments, a trailing
// comma, their own Stop hook), says what it removed, and a second run says
// nothing is installed; `lanes doctor` names installed hooks whose lanes
// binary is gone, with the fix.
func drillHooksUninstall(w *world.World) (string, error) {
	const user = `{
  // my model
  "model": "opus", /* inline */
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}], // mine
  },
}
`
	settings := filepath.Join(w.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(settings, []byte(user), 0o600); err != nil {
		return "", err
	}
	if r := w.Lanes("", "hooks", "install", "claude"); r.Code != 0 {
		return "", fmt.Errorf("install: %s", r.Stderr)
	}
	r := w.Lanes("", "hooks", "uninstall", "claude")
	after, _ := os.ReadFile(settings)
	removed := ""
	for _, l := range strings.Split(r.Stdout, "\n") {
		if strings.HasPrefix(l, "removed") {
			removed = l
		}
	}
	again := w.Lanes("", "hooks", "uninstall", "claude")
	evidence := fmt.Sprintf("uninstall exit %d: %q; file back byte for byte %v; again: %q",
		r.Code, removed, string(after) == user, strings.TrimSpace(again.Stdout))
	if r.Code != 0 || string(after) != user || removed == "" || !strings.Contains(again.Stdout, "nothing to remove") {
		return evidence, fmt.Errorf("uninstall did not give back the user's file:\n%s%s", after, r.Stderr)
	}

	gone := filepath.Join(w.Home, "old-checkout", "bin", "lanes")
	gemini := filepath.Join(w.Home, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(gemini), 0o700); err != nil {
		return evidence, err
	}
	hook := `{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "'` + gone + `' hook gemini --installed"}]}]}}`
	if err := os.WriteFile(gemini, []byte(hook), 0o600); err != nil {
		return evidence, err
	}
	doc := w.Lanes("", "doctor")
	var line string
	for _, l := range strings.Split(doc.Stdout, "\n") {
		if strings.Contains(l, "gemini: its installed lanes hooks") {
			line = strings.TrimSpace(l)
		}
	}
	evidence += fmt.Sprintf("; doctor: %q", line)
	if !strings.Contains(line, "no longer exists") || !strings.Contains(doc.Stdout, "fix: lanes hooks install gemini") {
		return evidence, fmt.Errorf("doctor does not report the gone binary:\n%s", doc.Stdout)
	}
	return evidence, nil
}
