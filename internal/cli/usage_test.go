package cli

import (
	"strings"
	"testing"
)

// Small usage mistakes get the right words and exit 2 (trial item 13).
func TestUsageMessages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, errs, code := e.run("hooks", "install", "claude", "--project", "/nonexistent", "--dry-run")
	if code == exitOK || !strings.Contains(errs, "--project /nonexistent") || strings.Contains(errs, "--dir") {
		t.Errorf("hooks install --project /nonexistent: exit %d, %q", code, errs)
	}
	_, errs, code = e.run("new")
	if code != exitUsage || strings.Contains(errs, "before --") || !strings.Contains(errs, "new needs a NAME") {
		t.Errorf("lanes new alone: exit %d, %q", code, errs)
	}
	for _, name := range []string{"a.b", "x:y", strings.Repeat("n", 41), "ü", "lanes-c"} {
		if _, errs, code := e.run("new", name, "--", "cat"); code != exitUsage || !strings.Contains(errs, "invalid session name") {
			t.Errorf("lanes new %q: exit %d, %q; want exit %d", name, code, errs, exitUsage)
		}
	}
	if out := e.must("version", "--help"); strings.Contains(out, "version \n") {
		t.Errorf("version --help has a trailing space: %q", out)
	}
}
