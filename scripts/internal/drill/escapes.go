package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// hostileBranch is a branch name as another user (or a cloned repository's
// author) may leave it in .git/HEAD: OSC 52 (clipboard), OSC 0 (title),
// CSI 2J (clear), their 8-bit forms as UTF-8, a bidi override and a
// zero-width space.
const hostileBranch = "feat\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\x1b[2J\u009b2J\u009d0;pwned\u0007\u202eevil\u200bx"

// unprintable reports the first byte sequence of out a terminal would act
// on, or that hides text: "" when there is none.
func unprintable(out string) string {
	for i, r := range out {
		switch {
		case r == 0x1b, r == 0x07, r >= 0x80 && r <= 0x9f, r == 0x202e, r == 0x200b:
			return fmt.Sprintf("%q at byte %d", r, i)
		}
	}
	return ""
}

// drillEscapes (issue 30, item 4): a branch name full of terminal control
// reaches no terminal raw: not lanes ls, not ls --json, not the board.
func drillEscapes(w *world.World) (string, error) {
	repo := filepath.Join(w.Root, "hostile-repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/"+hostileBranch+"\n"), 0o644); err != nil {
		return "", err
	}
	if r := w.Lanes("", "new", "esc", "--dir", repo, "--", "sleep", "86400"); r.Code != 0 {
		return "", fmt.Errorf("lanes new: exit %d %s", r.Code, r.Stderr)
	}
	var ev []string
	for _, args := range [][]string{{"ls"}, {"ls", "--json"}, {"ls", "--json", "--all"}} {
		r := w.Lanes("", args...)
		bad := unprintable(r.Stdout + r.Stderr)
		ev = append(ev, fmt.Sprintf("lanes %s: exit %d, %d bytes, unprintable: %s", strings.Join(args, " "), r.Code, len(r.Stdout), cmp.Or(bad, "none")))
		if r.Code != 0 || bad != "" {
			return strings.Join(ev, "\n"), fmt.Errorf("lanes %s printed the branch raw", strings.Join(args, " "))
		}
	}
	view := w.Socket + "-esc"
	if err := w.StartBoard(view, 120, 30); err != nil {
		return "", err
	}
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(w.Screen(view), "featevil") }) {
		return strings.Join(ev, "\n") + "\n" + w.Screen(view), fmt.Errorf("the board did not show the cleaned branch")
	}
	title, _ := w.Tmux(view, "display-message", "-p", "#{pane_title}")
	ev = append(ev, fmt.Sprintf("board: shows %q, pane title %q", "featevil…", strings.TrimSpace(title)))
	if strings.Contains(title, "pwned") {
		return strings.Join(ev, "\n"), fmt.Errorf("the branch retitled the board's pane")
	}
	return strings.Join(ev, "\n"), nil
}
