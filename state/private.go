package state

import (
	"fmt"
	"path/filepath"

	"lanes/state/fsafe"
)

// checkPrivate refuses a state dir, store or spool dir that another user
// owns or can write: they could rewrite a stored command, and `lanes
// restart` would run it as whoever runs lanes. Absent paths pass: lanes
// creates them 0700 (0600 for files), which no umask widens.
func checkPrivate(dir string, uid int) error {
	for _, p := range []string{dir, filepath.Join(dir, "lanes.db"), SpoolDir(dir)} {
		if err := fsafe.Private(p, uid); err != nil {
			return fmt.Errorf("refusing the state dir: %w, and lanes runs the commands stored there; "+
				"make it yours (`chown -R %s %s && chmod -R go-rwx %s`, as root if another user owns it) "+
				"or set LANES_STATE_DIR to a directory of your own", err, fsafe.Name(uid), dir, dir)
		}
	}
	return nil
}
