package session

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"lanes/state"
	"lanes/state/git"
)

// Bounds of the board's diff (docs/design.md §12): it is read once when
// asked, for the selected session only.
const (
	diffTimeout  = 5 * time.Second
	diffMaxBytes = 1 << 20
)

// Diff is what the session's checkout changed against its base — the ref
// its worktree branched from, else its branch's upstream, else HEAD (the
// changes not yet committed): `git diff --stat`, a blank line, then `git
// diff`, without colour, cut at diffMaxBytes.
func (s *Service) Diff(ctx context.Context, r *state.Record) ([]byte, error) {
	if r.Dir == "" || git.Branch(r.Dir) == "" {
		return nil, fmt.Errorf("%s does not run in a git checkout", r.Name)
	}
	if err := git.ForeignCheckout(r.Dir); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, diffTimeout)
	defer cancel()
	git := func(args ...string) ([]byte, error) {
		cmd := git.Command(ctx, s.Environ(), append([]string{"-C", r.Dir, "--no-pager"}, args...)...)
		out, err := cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			msg, _, _ := strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
			err = fmt.Errorf("git %s: %s", args[0], msg)
		}
		return out, err
	}
	base := r.Git.Base
	if base == "" {
		if _, err := git("rev-parse", "--verify", "--quiet", "@{upstream}"); err == nil {
			base = "@{upstream}"
		} else {
			base = "HEAD"
		}
	}
	// What this branch changed: from where it left the base (their merge
	// base), the working tree included; the base's own new commits are not
	// the agent's deletions.
	from := base
	if mb, err := git("merge-base", base, "HEAD"); err == nil {
		from = strings.TrimSpace(string(mb))
	}
	stat, err := git("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", "--stat", from)
	if err != nil {
		return nil, err
	}
	body, err := git("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", from)
	if err != nil {
		return nil, err
	}
	out := append([]byte("against "+base+"\n"), stat...)
	// git diff leaves out files git does not track yet: name them.
	if others, err := git("ls-files", "--others", "--exclude-standard"); err == nil {
		names := strings.FieldsFunc(string(others), func(r rune) bool { return r == '\n' })
		for i, n := range names {
			if i == 20 {
				out = fmt.Appendf(out, " and %d more untracked\n", len(names)-i)
				break
			}
			out = fmt.Appendf(out, " %s (untracked)\n", n)
		}
	}
	out = append(append(out, '\n'), body...)
	if len(out) > diffMaxBytes {
		out = append(out[:diffMaxBytes], "\n… cut at 1 MiB\n"...)
	}
	return out, nil
}
