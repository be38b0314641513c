package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"lanes/scripts/internal/world"
)

// drillForeignWorktree (issue 30, item 2): a repository in a
// world-writable directory (mode 1777, as /tmp); another user's
// REPO.lanes (mode 0777, or theirs) gets no worktree; a worktree lanes
// made and another user then swapped for their own (their .claude
// settings and CLAUDE.md in it) gets no agent from lanes restore.
func drillForeignWorktree(w *world.World) (string, error) {
	shared := filepath.Join(w.Root, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		return "", err
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil { // as /tmp: others cannot rename our entries
		return "", err
	}
	repo := filepath.Join(shared, "proj")
	for _, args := range [][]string{{"init", "-q", repo}, {"-C", repo, "-c", "user.name=l", "-c", "user.email=l@example.test", "commit", "-q", "--allow-empty", "-m", "first"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			return "", fmt.Errorf("git %s: %v %s", strings.Join(args, " "), err, out)
		}
	}
	root := repo + ".lanes"
	var ev []string
	if err := os.Mkdir(root, 0o777); err != nil {
		return "", err
	}
	_ = os.Chmod(root, 0o777)
	r := w.Lanes("", "new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "86400")
	ev = append(ev, fmt.Sprintf("REPO.lanes 0777: exit %d %q", r.Code, firstLine(r.Stderr)))
	if r.Code == 0 || !strings.Contains(r.Stderr, "writable by other users") {
		return strings.Join(ev, "\n"), fmt.Errorf("a worktree root others can write was used")
	}
	if os.Geteuid() == 0 {
		_ = os.Chmod(root, 0o755)
		_ = os.Chown(root, 65534, 65534)
		r = w.Lanes("", "new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "86400")
		ev = append(ev, fmt.Sprintf("REPO.lanes nobody's: exit %d %q", r.Code, firstLine(r.Stderr)))
		if r.Code == 0 || !strings.Contains(r.Stderr, "owned by") {
			return strings.Join(ev, "\n"), fmt.Errorf("another user's worktree root was used")
		}
	}
	if err := os.RemoveAll(root); err != nil {
		return "", err
	}
	if r = w.Lanes("", "new", "wtx", "--worktree", "--dir", repo, "--", "sleep", "86400"); r.Code != 0 {
		return strings.Join(ev, "\n"), fmt.Errorf("lanes new --worktree with no root there: exit %d %s", r.Code, r.Stderr)
	}
	fi, _ := os.Stat(root)
	ev = append(ev, fmt.Sprintf("no root there: lanes made %s mode %04o", filepath.Base(root), fi.Mode().Perm()))
	if r = w.Lanes("", "kill", "wtx"); r.Code != 0 {
		return strings.Join(ev, "\n"), fmt.Errorf("lanes kill: %s", r.Stderr)
	}
	// Theirs, swapped in: a link to a directory with their hooks.
	theirs := filepath.Join(shared, "theirs")
	_ = os.MkdirAll(filepath.Join(theirs, ".claude"), 0o777)
	_ = os.WriteFile(filepath.Join(theirs, ".claude", "settings.json"), []byte(`{"hooks":{}}`), 0o666)
	_ = os.WriteFile(filepath.Join(theirs, "CLAUDE.md"), []byte("do as I say\n"), 0o666)
	wt := filepath.Join(root, "wtx")
	if err := os.Rename(wt, wt+".old"); err != nil {
		return "", err
	}
	if err := os.Symlink(theirs, wt); err != nil {
		return "", err
	}
	r = w.Lanes("", "restore", "wtx")
	ev = append(ev, fmt.Sprintf("restore into a swapped worktree: exit %d %q", r.Code, firstLine(r.Stderr)))
	ls, _ := w.Ls()
	if r.Code == 0 || !strings.Contains(r.Stderr, "not starting its agent") || !ls["wtx"].IsTerminated {
		return strings.Join(ev, "\n"), fmt.Errorf("restore started an agent in a swapped worktree")
	}
	// The seventh re-run: a parent others may write without the sticky
	// bit, where they could rename the root away between the check and
	// the agent's start.
	if err := os.Chmod(shared, 0o777); err != nil {
		return "", err
	}
	r = w.Lanes("", "new", "wty", "--worktree", "--dir", repo, "--", "sleep", "86400")
	ev = append(ev, fmt.Sprintf("parent 0777, no sticky bit: exit %d %q", r.Code, firstLine(r.Stderr)))
	if r.Code == 0 || !strings.Contains(r.Stderr, "no sticky bit") {
		return strings.Join(ev, "\n"), fmt.Errorf("a worktree was made where others can swap its root")
	}
	return strings.Join(ev, "\n"), nil
}
