package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=lanes", "-c", "user.email=lanes@example.test",
			"-c", "init.defaultBranch=main"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "first")
	e.must("new", "api", "--dir", dir, "--", "sleep", "600")
	if b := e.ls()["api"].Branch; b != "main" {
		t.Fatalf("branch at start %q, want main", b)
	}
	git("checkout", "-q", "-b", "feature/x")
	e.waitFor("the new branch", 5*time.Second, func(ls map[string]sessionJSON) bool { return ls["api"].Branch == "feature/x" })
}
