package cli

import (
	"os"
	"path/filepath"

	"lanes/internal/remote"
)

// ssh is how lanes reaches other hosts: $LANES_SSH, each host's
// connection shared in sshControlDir (docs/design.md §16).
func (a *app) ssh() remote.SSH {
	return remote.SSH{Program: a.getenv(remote.EnvSSH), ControlDir: a.sshControlDir()}
}

// sshControlDir is where ssh keeps the shared connections: "ssh" under
// $XDG_RUNTIME_DIR/lanes, else under the state dir, made 0700; "" (a
// connection per command) when it is not private (remote.Private: ssh
// checks it again before each command line), or its path leaves no room
// under the 104 bytes of a socket's name for the socket's own and the 17
// bytes of ssh's temporary suffix.
func (a *app) sshControlDir() string {
	base := a.getenv("XDG_RUNTIME_DIR")
	if base != "" && remote.Private(base) == nil {
		base = filepath.Join(base, "lanes")
	} else if dir, err := a.stateDir(); err == nil {
		base = dir
	}
	dir := filepath.Join(base, "ssh")
	if !filepath.IsAbs(base) || len(dir)+1+remote.ControlNameBytes+17 > 104 {
		return ""
	}
	if err := os.MkdirAll(dir, 0o700); err != nil || remote.Private(dir) != nil {
		return ""
	}
	return dir
}
