package remote

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Private says why dir is not a directory only this user can reach, nil
// when it is: an absolute path of no byte ssh reads in ControlPath (%
// and ${} expand, a blank or quote splits the option), a directory
// itself (not a link) of this user's with no access for group or world,
// under a parent and a grandparent that only this user (or root) can
// change. Another local user able to put a socket there would get every
// command lanes runs on another host, its stdin and its answers (OpenSSH
// does not ask who owns the control socket it connects to).
func Private(dir string) error {
	if !filepath.IsAbs(dir) || strings.ContainsAny(dir, "%${} \t\n\"'\\") {
		return fmt.Errorf("%q: not an absolute path ssh takes as it is", dir)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 || owner(fi) != os.Getuid() {
		return fmt.Errorf("%s: not a directory of this user's alone", dir)
	}
	for up, i := filepath.Dir(dir), 0; i < 2 && up != "/"; up, i = filepath.Dir(up), i+1 {
		fi, err := os.Lstat(up)
		if err != nil {
			return err
		}
		writable := fi.Mode().Perm()&0o022 != 0 && fi.Mode()&os.ModeSticky == 0
		if !fi.IsDir() || writable || owner(fi) != os.Getuid() && owner(fi) != 0 {
			return fmt.Errorf("%s: another user can change it", up)
		}
	}
	return nil
}

func owner(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}
