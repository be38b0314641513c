package git

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"lanes/internal/fsafe"
	"lanes/state"
)

// The live branch (docs/design.md §12): each full cycle reads the HEAD file
// of every live session's checkout, with no process started. Where a
// directory's HEAD file is found once; a directory in no checkout is looked
// at again every HeadRetry, so one that becomes a repository later is seen.

// HeadRetry is how often a directory found in no checkout is looked at again.
const HeadRetry = 10 * time.Second

// Branch is the branch of the git checkout dir is in, read from its HEAD
// file: the branch name, a detached HEAD's short hash, "" outside a
// checkout.
func Branch(dir string) string {
	b, _ := branchOf(HeadFile(dir))
	return b
}

// HeadFile is the HEAD file of the checkout dir is in: under its .git
// directory, or, where .git is a file ("gitdir: PATH": a worktree, a
// submodule), under the directory it names. "" when there is none.
func HeadFile(dir string) string {
	if dir == "" {
		return ""
	}
	for d := filepath.Clean(dir); ; {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				return filepath.Join(g, "HEAD")
			}
			b, err := ReadFile(g)
			if err != nil {
				return ""
			}
			p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if !ok {
				return ""
			}
			if p = strings.TrimSpace(p); !filepath.IsAbs(p) {
				p = filepath.Join(d, p)
			}
			return filepath.Join(p, "HEAD")
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// branchOf reads a HEAD file: "ref: refs/heads/B" is B, a hash is its
// first seven characters; false when it cannot be read.
func branchOf(head string) (string, bool) {
	if head == "" {
		return "", false
	}
	b, err := ReadFile(head)
	if errors.Is(err, errNotGitFile) {
		return state.BranchUnreadable, true // a fact, said: not a stall, not a guess
	}
	if err != nil {
		return "", false
	}
	// Anyone may name a branch anything: printable first.
	s := strings.TrimSpace(state.CleanText(string(b)))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		return strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/"), true
	}
	if len(s) >= 7 {
		return s[:7], true
	}
	return "", false
}

// errNotGitFile: a .git or HEAD file that is there, but is not one.
var errNotGitFile = errors.New("not a git file")

// gitFileMax is the most of a .git file or a HEAD file lanes reads: both
// hold one line.
const gitFileMax = 4096

// ReadFile reads a .git or HEAD file of a checkout, which another user
// may have planted (a world-writable parent of a session dir): only a
// regular file of at most gitFileMax bytes, opened so that a FIFO never
// blocks the open and a device (/dev/zero) is never read.
func ReadFile(path string) ([]byte, error) { return readRegular(path, gitFileMax) }

// readRegular reads path if it is a regular file of at most limit bytes,
// opened so that a FIFO never blocks the open.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%w: %s is %s", errNotGitFile, path, fi.Mode().Type())
	case fi.Size() > limit:
		return nil, fmt.Errorf("%w: %s holds %d bytes, more than a git file does", errNotGitFile, path, fi.Size())
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// Heads remembers where each session directory's HEAD file is, and what
// it said: a cycle then only stats it (git replaces HEAD whole, so a
// change changes its modification time or size).
type Heads struct {
	file   map[string]headSeen  // dir → its HEAD file
	missAt map[string]time.Time // dir → when it was last found in no checkout
}

type headSeen struct {
	path   string
	mod    time.Time
	size   int64
	branch string
}

// branch is dir's branch now; ok is false when dir is in no checkout (or
// was found in none less than HeadRetry ago).
func (h *Heads) branch(dir string, now time.Time) (string, bool) {
	if h.file == nil {
		h.file, h.missAt = map[string]headSeen{}, map[string]time.Time{}
	}
	if seen, ok := h.file[dir]; ok {
		fi, err := os.Stat(seen.path)
		if err == nil && fi.ModTime().Equal(seen.mod) && fi.Size() == seen.size {
			return seen.branch, true
		}
		if err == nil {
			if b, ok := branchOf(seen.path); ok {
				h.file[dir] = headSeen{seen.path, fi.ModTime(), fi.Size(), b}
				return b, true
			}
		}
		delete(h.file, dir) // moved, removed: look for it again
	}
	if at, ok := h.missAt[dir]; ok && now.Sub(at) < HeadRetry && !now.Before(at) {
		return "", false
	}
	f := HeadFile(dir)
	fi, err := os.Stat(f)
	b, ok := branchOf(f)
	if err != nil || !ok {
		h.missAt[dir] = now
		return "", false
	}
	delete(h.missAt, dir)
	h.file[dir] = headSeen{f, fi.ModTime(), fi.Size(), b}
	return b, true
}

// Branches reads the branch of every live session in recs with a
// directory: id → branch, for the ones in a checkout. A directory is
// looked at once however many sessions share it (1,000 sessions in one
// repository made 1,000 stats of one HEAD file a second).
func (h *Heads) Branches(recs []*state.Record, now time.Time) map[string]string {
	out := map[string]string{}
	type answer struct {
		branch string
		ok     bool
	}
	byDir := map[string]answer{}
	for _, r := range recs {
		if !r.Live() || r.Dir == "" {
			continue
		}
		a, seen := byDir[r.Dir]
		if !seen {
			a.branch, a.ok = h.branch(r.Dir, now)
			byDir[r.Dir] = a
		}
		if a.ok {
			out[r.ID] = a.branch
		}
	}
	return out
}

// ForeignCheckout says why the git checkout dir is in must not be handed
// to git, nil when it may (or when dir is in none, which git says
// itself): its .git, the directory a .git file names, or a bare
// repository found the way git finds one (HEAD, objects/ and refs/ in a
// directory above), belongs to another user or may be written by every
// user, or its HEAD is no git file. git opens HEAD before its own
// ownership check, so a HEAD that is a FIFO planted by another user hangs
// it, and a config another user may write runs their commands
// (core.fsmonitor); git is not run at all there.
func ForeignCheckout(dir string) error {
	for d := filepath.Clean(dir); ; {
		if bare(d) {
			fi, err := os.Lstat(d)
			if err == nil {
				err = ownCheckout(d, fi)
			}
			if _, herr := ReadFile(filepath.Join(d, "HEAD")); err == nil && errors.Is(herr, errNotGitFile) {
				err = fmt.Errorf("the git repository %s has a HEAD that is no git file (%v); lanes runs no git there", d, herr)
			}
			return err
		}
		g := filepath.Join(d, ".git")
		if fi, err := os.Lstat(g); err == nil {
			if err := ownCheckout(g, fi); err != nil {
				return err
			}
			head := HeadFile(d)
			if fi.Mode().IsRegular() && head != "" {
				gd := filepath.Dir(head)
				if gfi, err := os.Lstat(gd); err == nil {
					if err := ownCheckout(gd, gfi); err != nil {
						return err
					}
				}
			}
			if _, err := ReadFile(head); errors.Is(err, errNotGitFile) {
				return fmt.Errorf("the git checkout at %s has a HEAD that is no git file (%v); lanes runs no git there", d, err)
			}
			// A linked worktree's commondir, which git opens too (a FIFO
			// there hung it, and the cycle with it).
			if head != "" {
				if _, err := ReadFile(filepath.Join(filepath.Dir(head), "commondir")); errors.Is(err, errNotGitFile) {
					return fmt.Errorf("the git checkout at %s has a commondir that is no git file (%v); lanes runs no git there", d, err)
				}
			}
			return configsOwned(d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil
		}
		d = parent
	}
}

// ownCheckout refuses a .git (or git directory) that is not the user's
// alone, or that is neither a directory nor a file; and, of a git
// directory, what git runs from it — its config's commands
// (core.fsmonitor…), its hooks (git worktree add runs post-checkout) — and
// a linked worktree's main repository (its commondir) the same way.
func ownCheckout(path string, fi os.FileInfo) error {
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a git directory or file; lanes runs no git there", path, fi.Mode().Type())
	}
	if !fi.IsDir() {
		return ownedAlone(path, fi)
	}
	if err := ownedTree(path, fi); err != nil {
		return err
	}
	hooks, _ := os.ReadDir(filepath.Join(path, "hooks"))
	for _, h := range hooks {
		p := filepath.Join(path, "hooks", h.Name())
		if hfi, err := os.Lstat(p); err == nil {
			if err := ownedAlone(p, hfi); err != nil {
				return err
			}
		}
	}
	if b, err := ReadFile(filepath.Join(path, "commondir")); err == nil {
		common := strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(path, common)
		}
		// One level: git reads a main repository's commondir never, so
		// one planted there (the eleventh re-run) must not stop the check.
		if cfi, err := os.Lstat(common); err == nil && cfi.IsDir() && filepath.Clean(common) != filepath.Clean(path) {
			return ownedTree(common, cfi)
		}
	}
	return nil
}

// ownedTree checks a git directory itself and the files of it git runs
// commands from (config, config.worktree, hooks/), no further (the files
// a config includes: configsOwned).
func ownedTree(path string, fi os.FileInfo) error {
	if err := ownedAlone(path, fi); err != nil {
		return err
	}
	for _, name := range []string{"config", "config.worktree", "hooks"} {
		p := filepath.Join(path, name)
		if nfi, err := os.Lstat(p); err == nil {
			if err := ownedAlone(p, nfi); err != nil {
				return err
			}
		}
	}
	return nil
}

// ownedAlone refuses a file of a checkout that another user owns or may
// write (others, an ACL, a group with another member); a link is judged by
// where it leads, and must be the user's too.
func ownedAlone(path string, fi os.FileInfo) error {
	uid := os.Geteuid()
	if fi.Mode()&fs.ModeSymlink != 0 {
		to, err := os.Stat(path)
		if err != nil || fsafe.Owner(fi) != uid {
			return fmt.Errorf("%s is a link that is not yours, or leads nowhere; lanes runs no git in a checkout another can change: %w", path, fsafe.ErrForeign)
		}
		return ownedAlone(path+" (its target)", to)
	}
	switch owner := fsafe.Owner(fi); {
	case owner != uid:
		return fmt.Errorf("%s belongs to %s, not to you; lanes runs no git in a checkout that is not yours: %w", path, fsafe.Who(owner), fsafe.ErrForeign)
	case fsafe.OthersMayWrite(strings.TrimSuffix(path, " (its target)"), fi, uid):
		return fmt.Errorf("%s may be written by other users (mode %04o, or an ACL); lanes runs no git in a checkout another can change (chmod go-w, setfacl -b): %w", path, fi.Mode().Perm(), fsafe.ErrForeign)
	}
	return nil
}

// bare reports whether d looks to git like a repository of its own: HEAD,
// objects/ and refs/ in it (a file, a FIFO, anything called HEAD counts).
func bare(d string) bool {
	for _, name := range []string{"objects", "refs"} {
		if fi, err := os.Lstat(filepath.Join(d, name)); err != nil || !fi.IsDir() {
			return false
		}
	}
	_, err := os.Lstat(filepath.Join(d, "HEAD"))
	return err == nil
}
