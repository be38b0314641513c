package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillWorktree: `lanes new --worktree` in a repository of 1,000 files
// (100 with --quick) makes the worktree beside it on lanes/NAME and starts
// the session there; an existing branch is refused with nothing left
// behind; kill keeps the worktree; rm --worktree refuses a dirty one and
// removes a clean one, keeping the branch (docs/design.md §12).
func drillWorktree(w *world.World) (string, error) {
	w.Extra = append(w.Extra, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	files := 1000
	if *quick {
		files = 100
	}
	repo := filepath.Join(w.Root, "proj")
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=lanes", "-c", "user.email=lanes@example.test",
			"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = w.Env()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	if err := os.MkdirAll(repo, 0o700); err != nil {
		return "", err
	}
	if _, err := git("init", "-q"); err != nil {
		return "", err
	}
	for i := range files {
		if err := os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%04d.txt", i)), []byte("hi\n"), 0o600); err != nil {
			return "", err
		}
	}
	if _, err := git("add", "."); err != nil {
		return "", err
	}
	if _, err := git("commit", "-q", "-m", "first"); err != nil {
		return "", err
	}
	r := w.Lanes("", "new", "api", "--worktree", "--dir", repo, "--", "sleep", "600")
	if r.Code != 0 {
		return "", fmt.Errorf("new --worktree: exit %d: %s", r.Code, r.Stderr)
	}
	evidence := fmt.Sprintf("new --worktree in a repo of %d files: %v", files, r.Took.Round(time.Millisecond))
	var list []struct {
		Name, Dir, Branch string
		Worktree, Base    *string
	}
	ls := w.Lanes("", "ls", "--json", "--all")
	if err := json.Unmarshal([]byte(ls.Stdout), &list); err != nil || len(list) != 1 {
		return evidence, fmt.Errorf("ls --json: %v: %s", err, ls.Stdout)
	}
	s, want := list[0], filepath.Join(w.Root, "proj.lanes", "api")
	if s.Worktree == nil || *s.Worktree != want || s.Base == nil || *s.Base != "main" || s.Branch != "lanes/api" || s.Dir != want {
		return evidence, fmt.Errorf("ls --json: %+v, want worktree and dir %s, branch lanes/api, base main", s, want)
	}
	evidence += fmt.Sprintf("\nls --json: dir %s branch %s worktree %s base %s", s.Dir, s.Branch, *s.Worktree, *s.Base)

	before, _ := git("worktree", "list")
	r = w.Lanes("", "new", "dup", "--worktree", "--branch", "lanes/api", "--dir", repo, "--", "sleep", "600")
	after, _ := git("worktree", "list")
	evidence += fmt.Sprintf("\nnew dup --branch lanes/api: exit %d: %s", r.Code, firstLine(r.Stderr))
	if r.Code == 0 || !strings.Contains(r.Stderr, "branch lanes/api is checked out at") || before != after {
		return evidence, fmt.Errorf("a branch another worktree has was not refused cleanly")
	}
	if _, err := w.Tmux(w.Socket, "has-session", "-t", "=lanes-dup"); err == nil {
		return evidence, fmt.Errorf("the refused new left a tmux session")
	}

	if r = w.Lanes("", "kill", "api"); r.Code != 0 {
		return evidence, fmt.Errorf("kill: exit %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(want, "f0000.txt")); err != nil {
		return evidence, fmt.Errorf("kill removed the worktree: %v", err)
	}
	evidence += "\nkill: " + firstLine(r.Stdout)
	if err := os.WriteFile(filepath.Join(want, "notes.txt"), []byte("work\n"), 0o600); err != nil {
		return evidence, err
	}
	r = w.Lanes("", "rm", "api", "--worktree")
	evidence += fmt.Sprintf("\nrm --worktree (dirty): exit %d: %s", r.Code, strings.ReplaceAll(strings.TrimSpace(r.Stderr), "\n", " | "))
	if r.Code == 0 || !strings.Contains(r.Stderr, "?? notes.txt") {
		return evidence, fmt.Errorf("a dirty worktree was not refused with its list")
	}
	if err := os.Remove(filepath.Join(want, "notes.txt")); err != nil {
		return evidence, err
	}
	r = w.Lanes("", "rm", "api", "--worktree")
	evidence += fmt.Sprintf("\nrm --worktree (clean): exit %d: %s", r.Code, firstLine(r.Stdout+r.Stderr))
	if _, err := os.Stat(want); r.Code != 0 || !os.IsNotExist(err) {
		return evidence, fmt.Errorf("a clean worktree was not removed: %v", err)
	}
	if b, _ := git("branch", "--list", "lanes/api"); b == "" {
		return evidence, fmt.Errorf("rm --worktree removed the branch")
	}
	return evidence, nil
}
