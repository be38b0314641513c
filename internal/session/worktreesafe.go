package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"lanes/internal/fsafe"
	"lanes/state/git"
)

// Where an agent may start in a worktree: directories of the user's own
// that no other user can change or swap (issue 30, item 2).

// WorktreeDirSafe applies the state dir's rule to a worktree root or a
// worktree (docs/design.md §12): a directory, not a link, owned by this
// user and writable by no one else. A repository in a world-writable
// directory leaves REPO.lanes to whoever makes it first: another user's,
// or one they can write, could hold their own settings and hooks when the
// agent starts there.
func WorktreeDirSafe(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("worktree directory %s: %w", path, err)
	}
	uid := os.Geteuid()
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		to, _ := os.Readlink(path)
		return fmt.Errorf("worktree directory %s is a link (to %s); lanes uses only directories of yours: %w", path, to, fsafe.ErrForeign)
	case !fi.IsDir():
		return fmt.Errorf("worktree directory %s is not a directory: %w", path, fsafe.ErrForeign)
	case fsafe.Owner(fi) != uid:
		return fmt.Errorf("worktree directory %s is owned by %s, not by you, %s: %w", path, fsafe.Who(fsafe.Owner(fi)), fsafe.Who(uid), fsafe.ErrForeign)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("worktree directory %s is writable by other users (mode %04o): %w", path, fi.Mode().Perm(), fsafe.ErrForeign)
	}
	return nil
}

// CheckWorktree checks a worktree lanes made and its root, before an agent
// starts there: at new, restart and restore (and doctor says it ahead).
func CheckWorktree(path string) error {
	if path == "" {
		return nil
	}
	if err := ancestorsSafe(filepath.Dir(filepath.Dir(path))); err != nil {
		return err
	}
	if err := WorktreeDirSafe(filepath.Dir(path)); err != nil {
		return err
	}
	if err := WorktreeDirSafe(path); err != nil {
		return err
	}
	// Its repository may have become another's to change since (the
	// twelfth re-run: restore started the agent in a worktree of a
	// repository whose config anyone could write).
	return git.ForeignCheckout(path)
}

// ancestorsSafe refuses a worktree root under a directory another user
// can change: one they own, or one others may write without the sticky
// bit (they could rename the root away and put their own in its place
// between lanes' check and the agent's start). dir's path is walked from
// / the way the kernel walks it, each link followed where it leads: a link
// another user owns is refused too (the eighth re-run pointed one
// elsewhere after the check). What does not exist yet lanes makes itself.
func ancestorsSafe(dir string) error {
	uid, done := os.Geteuid(), "/"
	if err := dirSafe(done, uid); err != nil {
		return err
	}
	rest := strings.Split(filepath.Clean(dir), "/")
	for hops := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		p := filepath.Join(done, name)
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return fmt.Errorf("worktree root: %w", err)
		case fi.Mode()&fs.ModeSymlink != 0:
			if owner := fsafe.Owner(fi); owner != uid && owner != 0 {
				return fmt.Errorf("worktree root would be reached through %s, a link of %s's: they could point it elsewhere under the agent; lanes makes no worktree there (set $%s to a directory only you can change): %w", p, fsafe.Who(owner), EnvWorktreeRoot, fsafe.ErrForeign)
			}
			to, err := os.Readlink(p)
			if hops++; err != nil || hops > 40 {
				return fmt.Errorf("worktree root: following %s: too many links, or %v", p, err)
			}
			if filepath.IsAbs(to) {
				done = "/"
			}
			rest = append(strings.Split(to, "/"), rest...)
			continue
		}
		if err := dirSafe(p, uid); err != nil {
			return err
		}
		done = p
	}
	return nil
}

// dirSafe refuses a directory another user owns (root aside), or that
// others may write without the sticky bit.
func dirSafe(d string, uid int) error {
	fi, err := os.Lstat(d)
	if err != nil {
		return fmt.Errorf("worktree root: %w", err)
	}
	owner, mode := fsafe.Owner(fi), fi.Mode()
	switch {
	case owner != uid && owner != 0:
		return fmt.Errorf("worktree root would be under %s, which belongs to %s: they could swap the worktree under the agent; lanes makes no worktree there (set $%s to a directory only you can change): %w", d, fsafe.Who(owner), EnvWorktreeRoot, fsafe.ErrForeign)
	case mode.IsDir() && mode.Perm()&0o022 != 0 && mode&fs.ModeSticky == 0:
		return fmt.Errorf("worktree root would be under %s, which other users may change (mode %04o, no sticky bit): they could swap the worktree under the agent; lanes makes no worktree there (set $%s to a directory only you can change): %w", d, mode.Perm(), EnvWorktreeRoot, fsafe.ErrForeign)
	}
	return nil
}

// existingBranch says whether a worktree may continue on branch, which
// exists in the repository top (nil: yes, a new worktree on it): only
// when the user named it (asked, the --branch flag; lanes/NAME left from
// an earlier session is not taken unasked), and when no worktree has it
// checked out (git refuses that; the refusal says where to start
// instead).
func (s *Service) existingBranch(ctx context.Context, top, name, asked, branch string) error {
	if asked == "" {
		return fmt.Errorf("branch %s exists (an earlier session's?): `lanes new %s --worktree --branch %s` continues on it in a new worktree, or --branch NEW starts another", branch, name, branch)
	}
	out, err := s.git(ctx, top, "worktree", "list", "--porcelain")
	if err != nil {
		return fmt.Errorf("reading the worktrees of %s: %w", top, err)
	}
	var at string
	for _, l := range strings.Split(out, "\n") {
		if path, ok := strings.CutPrefix(l, "worktree "); ok {
			at = path
		}
		if l == "branch refs/heads/"+branch {
			status, err := s.git(ctx, at, "status", "--porcelain")
			how := "clean"
			if err != nil || status != "" {
				how = "with changes"
			}
			return fmt.Errorf("branch %s is checked out at %s (%s), and git gives a branch one worktree: `lanes new %s --dir %s` starts the agent there", branch, at, how, name, at)
		}
	}
	return nil
}
