package fsafe

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Target is a file lanes replaces in a directory other users may be able to
// write, such as an agent's config in a project dir. It is reached by
// opening one directory at a time from /, each checked to be the directory
// just looked at, so a directory swapped for a link while lanes works is
// never followed; and the read, the backup, the new file and the rename all
// go through the one handle of the directory that holds the file, so what
// is replaced is in the directory that was checked, wherever its name
// points by then.
type Target struct {
	// Path names the file in messages: a link's target when the config
	// is a link (a dotfile manager's link stays a link).
	Path   string
	dir    *os.Root    // the deepest directory on the way that exists
	sub    string      // directories still to make under dir; "" when none
	name   string      // the file in dir (or in dir/sub)
	fi     fs.FileInfo // the file as checked; nil when it does not exist
	dirFor string      // dir's path, for messages
	uid    int         // on whose behalf
}

// OpenTarget opens path for replacing on behalf of uid. A symlink on the
// way is followed only when uid or root owns it and it sits in a directory
// no one else can change (else it could be repointed between the check and
// the read); when path itself is a link, its target must be a regular file
// uid or root owns. The directory holding the file must be uid's or root's,
// and, when uid is root, writable by no other user. Refusals wrap
// ErrForeign. The caller closes the Target.
func OpenTarget(path string, uid int) (*Target, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("%s is not an absolute path", path)
	}
	top, err := os.OpenRoot("/")
	if err != nil {
		return nil, err
	}
	w := &walk{uid: uid, dirs: []*os.Root{top}}
	t, err := w.run(path)
	for _, d := range w.dirs {
		if t == nil || d != t.dir {
			d.Close()
		}
	}
	return t, err
}

// walk is OpenTarget's way down: the directories opened so far, from /.
type walk struct {
	uid   int
	dirs  []*os.Root
	names []string
}

func (w *walk) at(name string) string {
	return "/" + filepath.Join(append(slices.Clone(w.names), name)...)
}

func (w *walk) pop() {
	w.dirs[len(w.dirs)-1].Close()
	w.dirs, w.names = w.dirs[:len(w.dirs)-1], w.names[:len(w.names)-1]
}

func (w *walk) run(path string) (*Target, error) {
	todo := split(path)
	viaLink := false // the file itself is a link being followed
	for hops := 0; len(todo) > 0; {
		c := todo[0]
		todo = todo[1:]
		if c == ".." {
			if len(w.dirs) > 1 {
				w.pop()
			}
			continue
		}
		d, at := w.dirs[len(w.dirs)-1], w.at(c)
		fi, err := d.Lstat(c)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			rest := append([]string{c}, todo...)
			if viaLink {
				return nil, fmt.Errorf("%s is a symlink to %s, which does not exist", path, w.at(filepath.Join(rest...)))
			}
			if slices.Contains(rest, "..") {
				return nil, fmt.Errorf("%s: %w", at, fs.ErrNotExist)
			}
			return w.target(filepath.Join(rest[:len(rest)-1]...), rest[len(rest)-1], nil)
		case err != nil:
			return nil, fmt.Errorf("looking at %s: %w", at, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			if err := w.followable(d, at, fi); err != nil {
				return nil, err
			}
			if hops++; hops > 40 {
				return nil, fmt.Errorf("%s: %w", path, syscall.ELOOP)
			}
			dest, err := d.Readlink(c)
			if err != nil {
				return nil, fmt.Errorf("reading the symlink %s: %w", at, err)
			}
			viaLink = viaLink || len(todo) == 0
			if filepath.IsAbs(dest) {
				for len(w.dirs) > 1 {
					w.pop()
				}
			}
			todo = append(split(dest), todo...)
		case fi.IsDir():
			if len(todo) == 0 {
				return nil, fmt.Errorf("%s is a directory", at)
			}
			sub, err := d.OpenRoot(c)
			if err != nil {
				return nil, fmt.Errorf("%s changed while lanes was opening it, or cannot be opened (nothing was written): %w", at, err)
			}
			if got, err := sub.Stat("."); err != nil || !os.SameFile(fi, got) {
				sub.Close()
				return nil, fmt.Errorf("%s changed while lanes was opening it (nothing was written): %w", at, ErrForeign)
			}
			w.dirs, w.names = append(w.dirs, sub), append(w.names, c)
		case len(todo) > 0:
			return nil, fmt.Errorf("%s is not a directory", at)
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("%s is not a regular file", at)
		default:
			if viaLink {
				if err := trusted(at, "its target", fi, w.uid); err != nil {
					return nil, fmt.Errorf("%s is a symlink and %w", path, err)
				}
			}
			return w.target("", c, fi)
		}
	}
	return nil, fmt.Errorf("%s names no file", path)
}

// followable refuses a link another user made, or one in a directory
// another user can change: they could repoint it between the check and
// the read. A sticky directory (/tmp) lets no one else touch your entries.
func (w *walk) followable(d *os.Root, at string, fi fs.FileInfo) error {
	if err := trusted(at, "symlink", fi, w.uid); err != nil {
		return err
	}
	di, err := d.Stat(".")
	if err != nil {
		return err
	}
	if o := Owner(di); o != w.uid && o != 0 || di.Mode().Perm()&0o022 != 0 && di.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("symlink %s is in %s, which another user can change (owner %s, mode %04o), so lanes will not follow it: %w",
			at, filepath.Dir(at), Who(o), di.Mode().Perm(), ErrForeign)
	}
	return nil
}

func (w *walk) target(sub, name string, fi fs.FileInfo) (*Target, error) {
	d, dir := w.dirs[len(w.dirs)-1], w.at("")
	if err := checkDir(d, dir, w.uid); err != nil {
		return nil, err
	}
	return &Target{Path: filepath.Join(dir, sub, name), dir: d, sub: sub, name: name, fi: fi, dirFor: dir, uid: w.uid}, nil
}

// checkDir refuses a directory to write in that another user owns, or,
// when lanes runs as root, that another user can write.
func checkDir(d *os.Root, path string, uid int) error {
	fi, err := d.Stat(".")
	if err != nil {
		return err
	}
	if o := Owner(fi); o != uid && o != 0 {
		return fmt.Errorf("%s is owned by %s, not by you, %s: %w", path, Who(o), Who(uid), ErrForeign)
	}
	if uid == 0 && fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by other users (mode %04o) and lanes is running as root: "+
			"run it as the project's owner, or `chmod go-w %s` first: %w", path, fi.Mode().Perm(), path, ErrForeign)
	}
	return nil
}

// split is path's names, without empty ones and ".".
func split(path string) []string {
	return slices.DeleteFunc(strings.Split(path, "/"), func(s string) bool { return s == "" || s == "." })
}

// Exists reports whether the file exists.
func (t *Target) Exists() bool { return t.fi != nil }

// ReadFile returns the file's bytes; nil when it does not exist.
func (t *Target) ReadFile() ([]byte, error) {
	if t.fi == nil {
		return nil, nil
	}
	f, err := t.dir.OpenFile(t.name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !os.SameFile(fi, t.fi) {
		return nil, fmt.Errorf("%s changed while lanes was reading it (nothing was written): %w", t.Path, ErrForeign)
	}
	return io.ReadAll(f)
}

// Backup writes data to a new file beside the file, named after it with
// suffix and a random tail, with the file's mode, and returns its path.
func (t *Target) Backup(suffix string, data []byte) (string, error) {
	name, err := writeNew(t.dir.OpenFile, t.dir.Remove, t.name+suffix, data, t.fi.Mode().Perm())
	return filepath.Join(t.dirFor, name), err
}

// Replace puts data in place of the file (mode kept; 0600 when new): a new
// file beside it, then a rename, in the directory that was checked. Missing
// directories are made 0700.
func (t *Target) Replace(data []byte) error {
	d, perm := t.dir, fs.FileMode(0o600)
	if t.fi != nil {
		perm = t.fi.Mode().Perm()
	}
	if t.sub != "" {
		if err := d.MkdirAll(t.sub, 0o700); err != nil {
			return err
		}
		sub, err := d.OpenRoot(t.sub)
		if err != nil {
			return err
		}
		defer sub.Close()
		// Made by us in the checked directory, unless another user who
		// can write there made it first.
		if err := checkDir(sub, filepath.Join(t.dirFor, t.sub), t.uid); err != nil {
			return err
		}
		d = sub
	}
	tmp, err := writeNew(d.OpenFile, d.Remove, "."+t.name+".tmp-", data, perm)
	if err != nil {
		return err
	}
	if err := d.Rename(tmp, t.name); err != nil {
		_ = d.Remove(tmp)
		return fmt.Errorf("replacing %s: %w", t.Path, err)
	}
	return nil
}

// Remove removes the file from the directory that was checked (nothing to
// do when it did not exist).
func (t *Target) Remove() error {
	if t.fi == nil {
		return nil
	}
	if err := t.dir.Remove(t.name); err != nil {
		return fmt.Errorf("removing %s: %w", t.Path, err)
	}
	return nil
}

// Close releases the directory handle.
func (t *Target) Close() error { return t.dir.Close() }
