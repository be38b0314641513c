package cli

import (
	"os"
	"path/filepath"
	"testing"

	"lanes/state/statetest"
)

// lanes' git never goes into a submodule: its config lives under the
// repository's .git/…/modules, which lanes does not check, and may run a
// filter or a monitor (the twelfth re-run: another user's clean filter in
// a worktree's submodule ran as the user under the board's D and under
// `rm --worktree`'s status).
func TestGitLeavesSubmodulesAlone(t *testing.T) {
	t.Parallel()
	e := gitEnv(t)
	repo, sub := tempRepo(t, 1), tempRepo(t, 1)
	e.must("new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "600")
	wt := filepath.Join(filepath.Dir(repo), "proj.lanes", "wtx")
	statetest.Git(t, wt, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", sub, "sub")
	statetest.Git(t, wt, "commit", "-q", "-m", "a submodule")
	ran := filepath.Join(t.TempDir(), "ran")
	subDir := filepath.Join(wt, "sub")
	statetest.Git(t, subDir, "config", "filter.x.clean", "touch "+ran+"; cat")
	if err := os.WriteFile(filepath.Join(subDir, ".gitattributes"), []byte("* filter=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The same size: git must hash the file, through the filter.
	if err := os.WriteFile(filepath.Join(subDir, "f0000.txt"), []byte("ho\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.record("wtx")
	if _, err := e.app().svc().Diff(t.Context(), r); err != nil {
		t.Errorf("diff: %v", err)
	}
	e.must("kill", "wtx")
	_, errs, code := e.run("rm", "wtx", "--worktree")
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("lanes' git ran the submodule's filter")
	}
	if _, err := os.Stat(wt); code == exitOK || err != nil {
		t.Errorf("rm --worktree with a submodule in it: exit %d, worktree %v; want it refused and kept", code, err)
	}
	if _, ok := e.ls()["wtx"]; !ok {
		t.Errorf("rm --worktree refused (%s), but the record is gone", errs)
	}
}
