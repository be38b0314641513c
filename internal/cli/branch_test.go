package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"
	"lanes/state/statetest"
)

// The branch on the card is live: a `git checkout -b` in the session's
// directory shows in the next cycle, with no git process started by
// lanes (docs/design.md §12).
func TestBranchIsLive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := filepath.Join(t.TempDir(), "proj")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	git := gitIn(t, dir)
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "first")
	e.must("new", "api", "--dir", dir, "--", "sleep", "600")
	if b := e.ls()["api"].Branch; b != "main" {
		t.Fatalf("branch at start %q, want main", b)
	}
	git("checkout", "-q", "-b", "feature/x")
	e.waitFor("the new branch", 5*time.Second, func(ls map[string]listing.Session) bool { return ls["api"].Branch == "feature/x" })
}

// gitIn is gitOut bound to dir, its output dropped.
func gitIn(t *testing.T, dir string) func(args ...string) {
	return func(args ...string) { t.Helper(); statetest.Git(t, dir, args...) }
}

// The board's diff: the stat and the diff against the base (uncommitted
// changes against HEAD when there is none), an agent's escape sequence
// left for the board to clean, and a clear error outside a checkout.
func TestDiffAgainstTheBase(t *testing.T) {
	e := offlineEnv(t)
	dir := filepath.Join(t.TempDir(), "proj")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	git := gitIn(t, dir)
	git("init", "-q")
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("app.go", "package app\n")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	git("checkout", "-q", "-b", "lanes/api")
	write("app.go", "package app\n\nfunc New() {}\n")
	git("commit", "-q", "-am", "add New")
	write("app.go", "package app\n\nfunc New() {}\nfunc Old() {}\n")
	write("NOTES.md", "to do\n")
	a := e.app()
	r := &state.Record{Name: "api", Dir: dir}
	out, err := a.svc().Diff(t.Context(), r)
	if err != nil || !strings.Contains(string(out), "against HEAD") || !strings.Contains(string(out), "+func Old() {}") || strings.Contains(string(out), "+func New") ||
		!strings.Contains(string(out), " NOTES.md (untracked)") {
		t.Fatalf("no base: %v\n%s", err, out)
	}
	r.Git.Base = "main"
	// main moves on after the branch left it: its new file is not the
	// agent's deletion.
	git("stash", "-q")
	git("checkout", "-q", "main")
	write("other.go", "package app\n")
	git("add", "other.go")
	git("commit", "-q", "-m", "main moves on")
	git("checkout", "-q", "lanes/api")
	git("stash", "pop", "-q")
	out, err = a.svc().Diff(t.Context(), r)
	if strings.Contains(string(out), "other.go") {
		t.Fatalf("the base's own commit shows in the diff:\n%s", out)
	}
	if err != nil || !strings.Contains(string(out), "app.go | 3 ++") || !strings.Contains(string(out), "+func New() {}") {
		t.Fatalf("against main: %v\n%s", err, out)
	}
	// The diff is git's own: a configured external diff or textconv would
	// run a program lanes does not know, and print what it cannot read.
	ran := filepath.Join(t.TempDir(), "ran")
	git("config", "diff.external", "touch "+ran)
	git("config", "diff.go.textconv", "touch "+ran)
	write(".gitattributes", "*.go diff=go\n")
	if out, err = a.svc().Diff(t.Context(), r); err != nil || !strings.Contains(string(out), "+func New() {}") {
		t.Fatalf("with an external diff configured: %v\n%s", err, out)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("lanes' diff ran the configured external diff or textconv")
	}
	if _, err := a.svc().Diff(t.Context(), &state.Record{Name: "tmp", Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not run in a git checkout") {
		t.Fatalf("outside a checkout: %v", err)
	}
}
