package fsafe

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrForeign: a path belongs to, or can be changed by, another user.
var ErrForeign = errors.New("another user could change it")

// WriteFile replaces path with data: a new file beside it, then a rename. A
// symlink at path is replaced, never followed; readers see the old bytes or
// the new, never a part.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := WriteNew(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-"), data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// WriteNew writes data to a new file named prefix and a random suffix, with
// exactly perm, and returns its name. It never opens an existing file.
func WriteNew(prefix string, data []byte, perm fs.FileMode) (string, error) {
	return writeNew(os.OpenFile, os.Remove, prefix, data, perm)
}

// writeNew is WriteNew through open and remove: the os functions, or an
// os.Root's methods to stay in one directory.
func writeNew(open func(string, int, fs.FileMode) (*os.File, error), remove func(string) error,
	prefix string, data []byte, perm fs.FileMode) (string, error) {
	for range 8 {
		name := prefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := open(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("creating %s: %w", name, err)
		}
		// Chmod on the descriptor: the umask does not narrow perm, and no
		// name is looked up again.
		err = f.Chmod(perm)
		if err == nil {
			_, err = f.Write(data)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = remove(name)
			return "", fmt.Errorf("writing %s: %w", name, err)
		}
		return name, nil
	}
	return "", fmt.Errorf("creating %s…: %w (every random name taken)", prefix, fs.ErrExist)
}

// Append adds data to the end of path (created with perm), refusing a
// symlink there.
func Append(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Touch sets path's times to at, creating it empty if needed, refusing a
// symlink there.
func Touch(path string, at time.Time) error { return touch(path, os.O_CREATE, at) }

// Restamp sets the times of an existing file at path to at, refusing a
// symlink there; it never creates one.
func Restamp(path string, at time.Time) error { return touch(path, 0, at) }

func touch(path string, create int, at time.Time) error {
	f, err := os.OpenFile(path, os.O_WRONLY|create|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	tv := syscall.NsecToTimeval(at.UnixNano())
	err = syscall.Futimes(int(f.Fd()), []syscall.Timeval{tv, tv})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func trusted(path, what string, fi fs.FileInfo, uid int) error {
	if o := Owner(fi); o != uid && o != 0 {
		return fmt.Errorf("%s %s is owned by %s, not by you, %s: %w", what, path, Who(o), Who(uid), ErrForeign)
	}
	return nil
}

// Private checks that path, if it exists, is owned by uid and not writable
// by group or others; a symlink must be uid's too, and so must its target.
func Private(path string, uid int) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for {
		if o := Owner(fi); o != uid {
			return fmt.Errorf("%s is owned by %s, not by you, %s: %w", path, Who(o), Who(uid), ErrForeign)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		if fi, err = os.Stat(path); err != nil {
			return err
		}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by other users (mode %04o): %w", path, fi.Mode().Perm(), ErrForeign)
	}
	return nil
}

// Owner is the uid owning the file fi describes.
func Owner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// Name is uid's user name from /etc/passwd, or the uid when it has none.
// (os/user would link cgo, and a dynamic binary starts slower: hooks run
// lanes on the agents' critical path.)
func Name(uid int) string {
	id := strconv.Itoa(uid)
	b, _ := os.ReadFile("/etc/passwd")
	for line := range strings.Lines(string(b)) {
		if f := strings.Split(line, ":"); len(f) > 2 && f[2] == id {
			return f[0]
		}
	}
	return id
}

// Who names uid for messages: "alice (uid 1000)".
func Who(uid int) string {
	if n := Name(uid); n != strconv.Itoa(uid) {
		return fmt.Sprintf("%s (uid %d)", n, uid)
	}
	return fmt.Sprintf("uid %d", uid)
}

// OthersMayWrite reports whether a user other than uid may write the file
// at path, fi its Lstat: anyone may, an ACL names users besides, or its
// group may and someone else is in that group (a user private group, the default on many systems, holds its
// user alone: its write bit lets no one else in).
func OthersMayWrite(path string, fi fs.FileInfo, uid int) bool {
	perm := fi.Mode().Perm()
	if perm&0o002 != 0 {
		return true
	}
	if perm&0o020 != 0 && fi.Mode()&fs.ModeSymlink == 0 && hasACL(path) {
		return true // the group bits are an ACL's mask: named users may write
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return perm&0o020 != 0 && (!ok || groupHasOthers(int(st.Gid), uid))
}

// groupHasOthers reports whether a user other than uid belongs to group
// gid: named in /etc/group, or with it as their primary group. Unknown
// (the files unreadable) counts as yes.
func groupHasOthers(gid, uid int) bool {
	g, errG := os.ReadFile("/etc/group")
	p, errP := os.ReadFile("/etc/passwd")
	if errG != nil || errP != nil {
		return true
	}
	me := Name(uid)
	id := strconv.Itoa(gid)
	for line := range strings.Lines(string(g)) {
		if f := strings.Split(strings.TrimSpace(line), ":"); len(f) > 3 && f[2] == id && f[3] != "" {
			for _, m := range strings.Split(f[3], ",") {
				if m != me {
					return true
				}
			}
		}
	}
	for line := range strings.Lines(string(p)) {
		if f := strings.Split(line, ":"); len(f) > 3 && f[3] == id && f[2] != strconv.Itoa(uid) {
			return true
		}
	}
	return false
}

// hasACL reports whether path carries a POSIX access ACL (setfacl -m
// u:them:rw): its group bits are then the ACL's mask, and users the mode
// does not name may write.
func hasACL(path string) bool {
	n, err := syscall.Getxattr(path, "system.posix_acl_access", nil)
	return err == nil && n > 0
}
