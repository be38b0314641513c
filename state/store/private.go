package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"lanes/internal/fsafe"
)

// Dir resolves the state directory: $LANES_STATE_DIR, else
// $XDG_STATE_HOME/lanes, else ~/.local/state/lanes, reading the environment
// through getenv. The result is absolute, and a directory another user could
// change is refused (see checkPrivate).
func Dir(getenv func(string) string) (string, error) {
	dir, err := dirPath(getenv)
	if err == nil {
		err = checkPrivate(dir, os.Geteuid())
	}
	if err != nil {
		return "", err
	}
	return dir, nil
}

func dirPath(getenv func(string) string) (string, error) {
	if d := getenv("LANES_STATE_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Abs(filepath.Join(d, "lanes"))
	}
	home := getenv("HOME")
	if home == "" {
		return "", fmt.Errorf("finding the state directory: $HOME is not set (set LANES_STATE_DIR)")
	}
	return filepath.Join(home, ".local", "state", "lanes"), nil
}

// checkPrivate refuses a state dir, store or spool dir that another user
// owns or can write: they could rewrite a stored command, and `lanes
// restart` would run it as whoever runs lanes. So the advice is to start
// afresh; adopting the dir is for a user who trusts what is in it. Absent
// paths pass: lanes creates them 0700 (0600 for files), which no umask
// widens. lanes.db as a symlink is refused too (see storeLink).
func checkPrivate(dir string, uid int) error {
	db := filepath.Join(dir, "lanes.db")
	for _, p := range []string{dir, db, SpoolDir(dir)} {
		if fi, err := os.Lstat(p); p == db && err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return storeLink(db)
		}
		if err := fsafe.Private(p, uid); err != nil {
			return fmt.Errorf("refusing the state dir: %w, so the commands lanes runs from it may have been rewritten. "+
				"Start afresh: `mv %s %s.untrusted` (or set LANES_STATE_DIR to a directory of your own). "+
				"Only if you trust its contents: `chown -R %s %s && chmod -R go-rwx %s` (as root if another user owns it), "+
				"then check its sessions with `lanes ls --json` before restarting any",
				err, dir, dir, fsafe.Name(uid), dir, dir)
		}
	}
	return nil
}

// storeLink refuses a store file that is a symlink: bbolt would write, or
// make a new store in, whatever file it points to.
func storeLink(path string) error {
	return fmt.Errorf("%s is a symlink, and lanes opens its store only as a plain file; "+
		"put the store file itself there (move the file it points to over the link) or set LANES_STATE_DIR", path)
}
