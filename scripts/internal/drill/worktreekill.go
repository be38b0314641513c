package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
)

// drillWorktreeInterrupted (issue 30, item 6): lanes new --worktree in a
// repository of 3,000 files, stopped at 10–150 ms: SIGTERM leaves nothing
// (no worktree, no branch, no record); after SIGKILL every worktree under
// lanes' root is a record's, or doctor lists it with its fix.
func drillWorktreeInterrupted(w *world.World) (string, error) {
	n := 12
	if *quick {
		n = 4
	}
	repo := filepath.Join(w.Root, "big")
	if err := os.MkdirAll(repo, 0o700); err != nil {
		return "", err
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=l", "-c", "user.email=l@example.test"}, args...)...)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	if _, err := git("init", "-q"); err != nil {
		return "", err
	}
	for i := range 3000 {
		_ = os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%04d.txt", i)), []byte("x\n"), 0o600)
	}
	if out, err := git("add", "."); err != nil {
		return "", fmt.Errorf("git add: %v %s", err, out)
	}
	if out, err := git("commit", "-q", "-m", "first"); err != nil {
		return "", fmt.Errorf("git commit: %v %s", err, out)
	}
	var ev []string
	killed := 0
	for i := range n {
		name := fmt.Sprintf("w%d", i)
		sig := []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL}[i%2]
		cmd := exec.Command(w.Bin, "new", name, "--worktree", "--dir", repo, "--", "sleep", "86400")
		cmd.Env = w.Env()
		if err := cmd.Start(); err != nil {
			return "", err
		}
		time.Sleep(time.Duration(10+rand.IntN(140)) * time.Millisecond)
		_ = cmd.Process.Signal(sig)
		_ = cmd.Wait()
		wt := filepath.Join(repo+".lanes", name)
		_, statErr := os.Stat(wt)
		branch, _ := git("branch", "--list", "lanes/"+name)
		ls, _ := w.Ls()
		_, rec := ls[name]
		if sig == syscall.SIGKILL {
			killed++
			continue
		}
		if rec && !ls[name].IsTerminated {
			continue // it had started before the signal: a live session, whole
		}
		if statErr == nil || branch != "" || rec {
			ev = append(ev, fmt.Sprintf("%s SIGTERM: worktree left %v, branch %q, record %v", name, statErr == nil, branch, rec))
			return strings.Join(ev, "\n"), fmt.Errorf("an interrupted lanes new --worktree left something")
		}
	}
	// After the SIGKILLs: every worktree under the root is a record's, or
	// doctor lists it.
	r := w.Lanes("", "ls", "--json", "--all")
	var list []struct {
		Worktree *string `json:"worktree"`
	}
	_ = json.Unmarshal([]byte(r.Stdout), &list)
	owned := map[string]bool{}
	for _, s := range list {
		if s.Worktree != nil {
			owned[*s.Worktree] = true
		}
	}
	doctor := w.Lanes("", "doctor").Stdout
	entries, _ := os.ReadDir(repo + ".lanes")
	listed := 0
	for _, e := range entries {
		p := filepath.Join(repo+".lanes", e.Name())
		switch {
		case owned[p]:
		case strings.Contains(doctor, "worktree "+p+" "):
			listed++
		default:
			return strings.Join(ev, "\n"), fmt.Errorf("worktree %s has no record and doctor does not list it:\n%s", p, doctor)
		}
	}
	ev = append(ev, fmt.Sprintf("%d runs stopped at 10–150 ms: the %d SIGTERMed left nothing but whole sessions; after %d SIGKILLs, %d worktrees: %d a record's, %d listed by doctor",
		n, n-killed, killed, len(entries), len(entries)-listed, listed))
	return strings.Join(ev, "\n"), nil
}
