package cli

import (
	"path/filepath"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"
)

// A command given by a relative path runs in the session's directory,
// where tmux starts it: lanes looks for it there, not in the directory
// lanes runs in (a new user's `lanes new x --dir PROJ -- ./agent.sh` from
// elsewhere was told "cannot run ./agent.sh"), for new and restart alike.
func TestRelativeCommandFromTheSessionDir(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	proj := t.TempDir()
	writeExec(t, filepath.Join(proj, "agent.sh"), "#!/bin/sh\nexec sleep 3600\n")
	e.must("new", "rel", "--dir", proj, "--", "./agent.sh")
	e.waitFor("rel running", 10*time.Second, func(m map[string]listing.Session) bool { return m["rel"].Status == state.StatusIdle })
	e.must("restart", "rel")
}
