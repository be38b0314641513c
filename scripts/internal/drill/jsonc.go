package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/scripts/internal/world"
)

// drillJSONCSettings: `lanes hooks install gemini` over a settings.json
// with comments, a \u escape, a one-line object and a trailing comma (as
// Gemini's settings allow) adds only lanes' hooks: every line the user
// wrote is still there byte for byte; a second install changes nothing; a
// settings file that is not JSON is refused, named, and left alone.
func drillJSONCSettings(w *world.World) (string, error) {
	const user = `{
  // my theme, do not touch
  "ui": {"theme": "caf\u00e9"}, /* kept */
  "general": {
    "vimMode": true,
  },
}
`
	settings := filepath.Join(w.Home, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(settings, []byte(user), 0o600); err != nil {
		return "", err
	}
	r := w.Lanes("", "hooks", "install", "gemini")
	after, _ := os.ReadFile(settings)
	lines := strings.Split(strings.TrimSuffix(user, "\n}\n"), "\n")
	kept := 0
	for _, l := range lines {
		if strings.Contains(string(after), l+"\n") {
			kept++
		}
	}
	evidence := fmt.Sprintf("JSONC settings.json: install exit %d, %d of %d user lines kept byte for byte, still ends %q, %d lines added",
		r.Code, kept, len(lines), string(after[max(0, len(after)-6):]), strings.Count(string(after), "\n")-strings.Count(user, "\n"))
	switch {
	case r.Code != 0:
		return evidence, fmt.Errorf("install refused JSONC: %s", r.Stderr)
	case !strings.HasPrefix(string(after), strings.Join(lines, "\n")+"\n") || kept != len(lines):
		return evidence, fmt.Errorf("the user's lines were rewritten:\n%s", after)
	case !strings.HasSuffix(string(after), "  },\n}\n"):
		return evidence, fmt.Errorf("the trailing comma or layout of the end was lost:\n%s", after)
	}
	r = w.Lanes("", "hooks", "install", "gemini")
	again, _ := os.ReadFile(settings)
	evidence += fmt.Sprintf("; again: %q, unchanged %v", strings.TrimSpace(r.Stdout), string(again) == string(after))
	if r.Code != 0 || string(again) != string(after) || !strings.Contains(r.Stdout, "already installed") {
		return evidence, fmt.Errorf("a second install changed the file")
	}

	const notJSON = "theme = \"dark\"\n"
	if err := os.WriteFile(settings, []byte(notJSON), 0o600); err != nil {
		return evidence, err
	}
	r = w.Lanes("", "hooks", "install", "gemini")
	left, _ := os.ReadFile(settings)
	evidence += fmt.Sprintf("; not JSON: exit %d, %q, file unchanged %v", r.Code, firstLine(r.Stderr), string(left) == notJSON)
	if r.Code == 0 || !strings.Contains(r.Stderr, settings) || !strings.Contains(r.Stderr, "not JSON") || string(left) != notJSON {
		return evidence, fmt.Errorf("a settings file that is not JSON was not refused cleanly")
	}
	return evidence, nil
}
