package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/scripts/internal/world"
)

// drillDryRunDiff: `lanes hooks install claude --dry-run` over a long
// settings file shows the change as a unified hunk with a little context
// under headers naming the file, writes nothing, shows a file not there
// yet as all added, and says nothing would change once hooks are in.
func drillDryRunDiff(w *world.World) (string, error) {
	keys := 400
	if *quick {
		keys = 40
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i := range keys {
		fmt.Fprintf(&b, "  \"setting-%03d\": %d,\n", i, i)
	}
	b.WriteString("  \"model\": \"opus\"\n}\n")
	settings := filepath.Join(w.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(settings, []byte(b.String()), 0o600); err != nil {
		return "", err
	}
	r := w.Lanes("", "hooks", "install", "claude", "--dry-run")
	after, _ := os.ReadFile(settings)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	var hunks, context, added int
	for _, l := range lines[min(2, len(lines)):] {
		switch l[:1] {
		case "@":
			hunks++
		case " ":
			context++
		case "+":
			added++
		}
	}
	evidence := fmt.Sprintf("%d-line settings.json: dry run exit %d printed %d lines (%d hunk, %d context, %d added), file unchanged %v",
		keys+3, r.Code, len(lines), hunks, context, added, string(after) == b.String())
	switch {
	case r.Code != 0:
		return evidence, fmt.Errorf("dry run failed: %s", r.Stderr)
	case string(after) != b.String():
		return evidence, fmt.Errorf("the dry run changed settings.json")
	case lines[0] != "--- "+settings || !strings.HasPrefix(lines[1], "+++ "+settings+" "):
		return evidence, fmt.Errorf("the headers do not name the file: %q, %q", lines[0], lines[1])
	case hunks != 1 || context > 2*3 || strings.Contains(r.Stdout, "setting-000"):
		return evidence, fmt.Errorf("want one hunk with at most 3 lines of context each side, not the whole file")
	}

	project := filepath.Join(w.Root, "project")
	if err := os.MkdirAll(project, 0o700); err != nil {
		return evidence, err
	}
	r = w.Lanes("", "hooks", "install", "claude", "--project", project, "--dry-run")
	newLines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	allAdded := len(newLines) > 3 && newLines[0] == "--- /dev/null"
	for _, l := range newLines[min(3, len(newLines)):] {
		allAdded = allAdded && strings.HasPrefix(l, "+")
	}
	_, statErr := os.Stat(filepath.Join(project, ".claude", "settings.json"))
	evidence += fmt.Sprintf("; new project file: %d lines all added %v, written %v", len(newLines)-3, allAdded, statErr == nil)
	if r.Code != 0 || !allAdded || statErr == nil {
		return evidence, fmt.Errorf("a new file's dry run: exit %d, written %v:\n%s", r.Code, statErr == nil, r.Stdout)
	}

	if r = w.Lanes("", "hooks", "install", "claude"); r.Code != 0 {
		return evidence, fmt.Errorf("install failed: %s", r.Stderr)
	}
	r = w.Lanes("", "hooks", "install", "claude", "--dry-run")
	evidence += fmt.Sprintf("; installed, then dry run: %q", strings.TrimSpace(r.Stdout))
	if r.Code != 0 || !strings.HasSuffix(r.Stdout, ": nothing would change\n") {
		return evidence, fmt.Errorf("a dry run over installed hooks does not say nothing would change")
	}
	return evidence, nil
}
