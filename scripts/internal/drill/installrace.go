package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"lanes/scripts/internal/world"
)

// drillInstallRace: nobody, who can write a project dir, swaps its .claude
// for their link to root's own config dir, over and over, while root runs
// `lanes hooks install claude --project` again and again. Each install is
// refused, or installs into the project's .claude (or a fresh one when it
// found none); root's config dir is never written.
func drillInstallRace(w *world.World) (string, error) {
	if os.Geteuid() != 0 {
		return "not root: the race needs another user's link (run as root)", nil
	}
	victim := filepath.Join(w.Root, "root-claude")
	const victimBody = `{"root": true}` + "\n"
	if err := os.MkdirAll(victim, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(victim, "settings.json"), []byte(victimBody), 0o600); err != nil {
		return "", err
	}
	victimTree := tree(victim)
	project := filepath.Join(w.Root, "race-project")
	claude, aside, swap := filepath.Join(project, ".claude"), filepath.Join(project, ".claude-real"), filepath.Join(project, ".swap")
	if err := os.MkdirAll(claude, 0o755); err != nil {
		return "", err
	}
	if err := os.Symlink(victim, swap); err != nil {
		return "", err
	}
	if !asNobody(project, swap) {
		return "", errors.New("cannot give the project and the link to nobody")
	}
	const body = `{"model": "opus"}` + "\n"
	n := 100
	if *quick {
		n = 20
	}
	var swaps atomic.Int64
	outcomes := map[string]int{}
	runs := 0
	for ; runs < n; runs++ {
		if err := os.WriteFile(filepath.Join(claude, "settings.json"), []byte(body), 0o644); err != nil {
			return "", err
		}
		var stop atomic.Bool
		var wg sync.WaitGroup
		wg.Go(func() { // nobody's swapper, until stopped or a step fails
			for !stop.Load() {
				if os.Rename(claude, aside) != nil || os.Rename(swap, claude) != nil ||
					os.Rename(claude, swap) != nil || os.Rename(aside, claude) != nil {
					return
				}
				swaps.Add(1)
			}
		})
		r := w.Lanes("", "hooks", "install", "claude", "--project", project)
		stop.Store(true)
		wg.Wait()
		fresh, err := unswap(claude, aside, swap)
		if err != nil {
			return "", err
		}
		if tree(victim) != victimTree {
			outcomes["wrote root's config dir"]++
			runs++
			break
		}
		switch {
		case r.Code == 0 && fresh:
			outcomes["installed into a fresh .claude (the project's was moved away)"]++
		case r.Code == 0:
			got, _ := os.ReadFile(filepath.Join(claude, "settings.json"))
			if !strings.Contains(string(got), "hook claude") {
				return "", fmt.Errorf("install exit 0 but the project's settings have no hooks: %q", firstLine(string(got)))
			}
			outcomes["installed into the project's .claude"]++
		case strings.TrimSpace(r.Stderr) == "":
			return "", fmt.Errorf("install exit %d with nothing said", r.Code)
		default:
			outcomes["refused: "+reason(r.Stderr)]++
		}
	}
	got, _ := os.ReadFile(filepath.Join(victim, "settings.json"))
	unchanged := tree(victim) == victimTree && string(got) == victimBody
	var lines []string
	for o, k := range outcomes {
		lines = append(lines, fmt.Sprintf("  %d %s", k, o))
	}
	sort.Strings(lines)
	evidence := fmt.Sprintf("%d installs vs nobody's swapper (%d swaps of .claude ↔ link to root's config dir); root's config dir unchanged %v:\n%s",
		runs, swaps.Load(), unchanged, strings.Join(lines, "\n"))
	if !unchanged {
		return evidence, fmt.Errorf("an install wrote root's config dir through the swapped-in link: its settings now start %q", firstLine(string(got)))
	}
	// Refusing every raced install is safe, and on a loaded machine the
	// swapper may win every time: that install still works is shown once
	// the swapper has stopped, never left to chance.
	r := w.Lanes("", "hooks", "install", "claude", "--project", project)
	got, _ = os.ReadFile(filepath.Join(claude, "settings.json"))
	evidence += fmt.Sprintf("\n  then, the swapper stopped: install exit %d, hooks in the project's settings %v", r.Code, strings.Contains(string(got), "hook claude"))
	if r.Code != 0 || !strings.Contains(string(got), "hook claude") {
		return evidence, fmt.Errorf("install without the swapper: exit %d, %s", r.Code, firstLine(r.Stderr))
	}
	return evidence, nil
}

// unswap puts the project's .claude back and nobody's link aside, after the
// swapper stopped anywhere in its cycle; fresh reports a .claude the
// install made while the project's own was moved away.
func unswap(claude, aside, swap string) (fresh bool, err error) {
	if fi, err := os.Lstat(claude); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if err := os.Rename(claude, swap); err != nil {
			return false, err
		}
	}
	if _, err := os.Lstat(aside); err != nil {
		return false, nil
	}
	if _, err := os.Lstat(claude); err == nil {
		fresh = true
		if err := os.RemoveAll(claude); err != nil {
			return true, err
		}
	}
	return fresh, os.Rename(aside, claude)
}

// reason is an install refusal without its paths, to count alike ones.
func reason(stderr string) string {
	l := firstLine(stderr)
	for _, k := range []string{"owned by nobody", "changed while lanes", "not a directory"} {
		if strings.Contains(l, k) {
			return k
		}
	}
	return l
}
