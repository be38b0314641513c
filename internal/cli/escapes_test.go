package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state/statetest"
)

// Issue 30, item 4, the seventh hostile re-run: with core.quotePath off
// (a common setting), `lanes rm NAME --worktree` listed git's status lines
// raw, and a file an agent named with an 8-bit CSI and a bidi override
// reached the terminal; so did gh's stderr in `lanes pr --sync` (the same
// print). Every refusal is made printable, its lines kept.
func TestRefusalsPrintNoControl(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	statetest.Git(t, repo, "config", "core.quotePath", "false")
	e.must("new", "w", "--worktree", "--dir", repo, "--", "sleep", "600")
	wt := e.record("w").Git.Worktree
	evil := "a\u009b2J\u009d0;PWN\u009cb\u202eevil\U000E0041"
	if err := os.WriteFile(filepath.Join(wt, evil), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	e.must("kill", "w")
	_, errs, code := e.run("rm", "w", "--worktree")
	if code == exitOK || !strings.Contains(errs, "?? a") || !strings.Contains(errs, "\n") {
		t.Fatalf("rm --worktree of a dirty worktree: exit %d %q, want the refusal listing the file", code, errs)
	}
	for _, bad := range []string{"\u009b", "\u009d", "\u202e", "\U000E0041", "\x1b"} {
		if strings.Contains(errs, bad) {
			t.Errorf("the refusal printed %q raw: %q", bad, errs)
		}
	}
}

// The eighth re-run: `lanes new --worktree` printed the branch it started
// from raw ("(from BRANCH)"), and a branch may hold an 8-bit CSI and a
// bidi override (git refuses only the 7-bit controls).
func TestNewWorktreePrintsItsBaseClean(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	statetest.Git(t, repo, "checkout", "-q", "-b", "feat\u009b2J\u202eevil")
	out := e.must("new", "wb", "--worktree", "--dir", repo, "--", "sleep", "600")
	defer e.run("kill", "wb")
	if !strings.Contains(out, "(from featevil)") || strings.ContainsAny(out, "\u009b\u202e") {
		t.Errorf("lanes new --worktree said %q, want its base printable", out)
	}
}
