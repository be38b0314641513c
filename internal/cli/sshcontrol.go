package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"lanes/internal/remote"
)

// ssh is how lanes reaches other hosts: $LANES_SSH, each host's
// connection shared in sshControlDir (docs/design.md §16).
func (a *app) ssh() remote.SSH {
	return remote.SSH{Program: a.getenv(remote.EnvSSH), ControlDir: a.sshControlDir()}
}

// sshControlDir is where ssh keeps the shared connections: "ssh" under
// $XDG_RUNTIME_DIR/lanes, else under the state dir, made 0700; "" (a
// connection per command) when it cannot be had as only this user's —
// another user's, a symlink, group or world access — or its path leaves
// no room under the 104 bytes of a socket's name for the socket's own and
// the 17 bytes of ssh's temporary suffix, or holds a byte ssh reads in
// ControlPath (% expands, a blank splits the option).
func (a *app) sshControlDir() string {
	base := a.getenv("XDG_RUNTIME_DIR")
	if base != "" {
		base = filepath.Join(base, "lanes")
	} else if dir, err := a.stateDir(); err == nil {
		base = dir
	}
	if !filepath.IsAbs(base) {
		return ""
	}
	dir := filepath.Join(base, "ssh")
	if len(dir)+1+remote.ControlNameBytes+17 > 104 || strings.ContainsAny(dir, "% \t\"'\\") {
		return ""
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || !ok || int(st.Uid) != os.Getuid() {
		return ""
	}
	return dir
}
