package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hook reads its arguments by the same rules as every other command:
// --session=NAME and -session NAME are --session NAME, --help anywhere is
// help, and a flag it does not know is logged, never recorded as an event.
func TestHookArgumentsFollowTheOneParser(t *testing.T) {
	e := hookEnv(t)
	delete(e.vars, "LANES_SESSION")
	delete(e.vars, "LANES_LAUNCH")
	os.MkdirAll(filepath.Join(e.state, "names"), 0o700)
	os.WriteFile(filepath.Join(e.state, "names", "api"), []byte("name0001\n"), 0o600)

	e.must("hook", "generic", "idle", "--session=api")
	e.must("hook", "generic", "-session", "api", "blocked")
	e.must("hook", "--session", "api", "generic", "active")
	if l := spoolLines(t, e.state, "name0001"); len(l) != 3 || l[0].Event != "idle" || l[1].Event != "blocked" || l[2].Event != "active" {
		t.Fatalf("--session in its three spellings: %+v", l)
	}
	if out := e.must("hook", "generic", "--help"); !strings.Contains(out, "Usage: lanes hook AGENT") {
		t.Errorf("hook generic --help printed %q, want the hook's help", out)
	}
	out, errs, code := e.run("hook", "generic", "idle", "--sesion", "api")
	if code != exitOK || out != "" || errs != "" {
		t.Fatalf("a mistyped flag: exit %d %q %q; a hook exits 0 silently", code, out, errs)
	}
	if log, _ := os.ReadFile(filepath.Join(e.state, "hook-errors.log")); !strings.Contains(string(log), "-sesion") {
		t.Errorf("a mistyped flag is not in the hook's log:\n%s", log)
	}
	if l := spoolLines(t, e.state, "name0001"); len(l) != 3 {
		t.Errorf("a mistyped flag recorded an event: %+v", l[3:])
	}
}

// BenchmarkHookArgs: what reading the hook's command line costs, beside
// the ~2 ms a process takes to start (agents wait on the hook).
func BenchmarkHookArgs(b *testing.B) {
	args := []string{"claude", "--session", "s0", "--installed"}
	for b.Loop() {
		if _, err := parseHookArgs(args); err != nil {
			b.Fatal(err)
		}
	}
}
