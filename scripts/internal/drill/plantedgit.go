package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
)

// drillPlantedGit (issue 30, item 5): session dirs whose .git another user
// planted — HEAD a FIFO, HEAD → /dev/zero — under a running board: lanes
// new, ls and the status line answer at once, ls says "HEAD unreadable",
// and the board goes on.
func drillPlantedGit(w *world.World) (string, error) {
	plants := map[string]func(string) error{
		"fifo": func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"zero": func(p string) error { return os.Symlink("/dev/zero", p) },
	}
	view := w.Socket + "-git"
	if err := w.StartBoard(view, 120, 30); err != nil {
		return "", err
	}
	var ev string
	for name, plant := range plants {
		dir := filepath.Join(w.Root, "planted-"+name, "work")
		if err := os.MkdirAll(filepath.Join(dir, "..", ".git"), 0o755); err != nil {
			return "", err
		}
		if err := plant(filepath.Join(dir, "..", ".git", "HEAD")); err != nil {
			return "", err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		r := w.Lanes("", "new", name, "--dir", dir, "--", "sleep", "86400")
		ls := w.Lanes("", "ls")
		st := w.Lanes("", "status-line")
		ev += fmt.Sprintf("HEAD a %s: new exit %d in %v, ls exit %d in %v, status-line %q in %v\n", name, r.Code, r.Took.Round(time.Millisecond),
			ls.Code, ls.Took.Round(time.Millisecond), st.Stdout, st.Took.Round(time.Millisecond))
		if r.Code != 0 || ls.Code != 0 || r.Took > 5*time.Second || ls.Took > 5*time.Second || st.Took > 2*time.Second {
			return ev, fmt.Errorf("a planted HEAD (%s) held a command", name)
		}
		if !strings.Contains(ls.Stdout, "HEAD unreadable") {
			return ev + ls.Stdout, fmt.Errorf("ls does not say the branch of %s is unreadable", name)
		}
		// The seventh re-run: --worktree ran git there, which opened
		// the FIFO and hung for good.
		wt := w.Lanes("", "new", name+"-wt", "--worktree", "--dir", dir, "--", "sleep", "86400")
		ev += fmt.Sprintf("  new --worktree: exit %d in %v %q\n", wt.Code, wt.Took.Round(time.Millisecond), firstLine(wt.Stderr))
		if wt.Code == 0 || wt.Took > 5*time.Second {
			return ev, fmt.Errorf("a planted HEAD (%s) held or passed lanes new --worktree", name)
		}
	}
	if !world.WaitFor(10*time.Second, func() bool {
		s := w.Screen(view)
		return strings.Contains(s, "fifo") && strings.Contains(s, "zero")
	}) {
		return ev + w.Screen(view), fmt.Errorf("the board did not show both sessions")
	}
	return ev + "the board shows both", nil
}
