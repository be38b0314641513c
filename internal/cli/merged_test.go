package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state/statetest"
)

// rm --merged: a session whose PR merged is ended, its clean worktree
// removed and its record gone, in one step; a worktree with changes stays
// and is named; a session without a merged PR is refused.
func TestRmMerged(t *testing.T) {
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.must("new", "m1", "--dir", repo, "--worktree", "--", "sleep", "60")
	e.must("new", "m2", "--dir", repo, "--worktree", "--", "sleep", "60")
	ls := e.ls()
	wt1, wt2 := *ls["m1"].Worktree, *ls["m2"].Worktree

	if _, errs, code := e.run("rm", "m1", "--merged"); code != exitError || !strings.Contains(errs, "no merged PR") {
		t.Errorf("rm --merged before the merge: exit %d, %s", code, errs)
	}
	e.must("pr", "m1", "--number", "3", "--state", "merged")
	e.must("pr", "m2", "--number", "4", "--state", "merged")
	if err := os.WriteFile(filepath.Join(wt2, "notes.txt"), []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	out := e.must("rm", "m1", "--merged")
	if !strings.Contains(out, "removed m1 (its PR merged) and its worktree "+wt1+"; branch lanes/m1 is kept") {
		t.Errorf("rm --merged: %s", out)
	}
	if _, err := os.Stat(wt1); !os.IsNotExist(err) {
		t.Errorf("m1's worktree is still there: %v", err)
	}
	if !strings.Contains(statetest.Git(t, repo, "branch", "--list"), "lanes/m1") {
		t.Error("m1's branch was deleted")
	}
	out = e.must("rm", "m2", "--merged")
	if !strings.Contains(out, "removed m2 (its PR merged); its worktree "+wt2+" stays, with work removing it would lose (?? notes.txt): `git worktree remove "+wt2+"` once that is dealt with") || strings.Contains(out, "nothing was removed") {
		t.Errorf("rm --merged of a worktree with changes: %s", out)
	}
	if _, err := os.Stat(filepath.Join(wt2, "notes.txt")); err != nil {
		t.Errorf("the changed worktree lost its file: %v", err)
	}
	ls = e.ls()
	if _, ok := ls["m1"]; ok {
		t.Error("m1's record is still there")
	}
	if _, ok := ls["m2"]; ok {
		t.Error("m2's record is still there")
	}
	if _, err := e.tc.Run(t.Context(), "has-session", "-t", "=lanes-m1"); err == nil {
		t.Error("m1's tmux session still runs")
	}
}
