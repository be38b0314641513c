package state

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"lanes/state/fsafe"
)

// The config files git reads for a checkout (issue 30, items 2 and 5): a
// file another user can write — one an include names (include.path,
// includeIf.*.path, in any config git reads, the user's global one too),
// or one they could put in place of it — is a config they can write, and
// its filters run as the user under lanes' git (the twelfth and
// thirteenth hostile re-runs: a clean filter through an include, spelt
// seven ways a parser of lanes' own missed). git lists the files and the
// includes itself (`git config --list --show-origin`), parsed as git
// parses them; lanes checks each, and keeps the verdict until one of
// them changes.

// configStamp is what a file looked like when its checkout was checked:
// a change (made, removed, rewritten, replaced) voids the verdict.
type configStamp struct {
	path string
	ino  uint64
	mod  time.Time
	size int64
	ok   bool // it existed
}

func stampOf(path string) configStamp {
	fi, err := os.Lstat(path)
	if err != nil {
		return configStamp{path: path}
	}
	st := configStamp{path: path, mod: fi.ModTime(), size: fi.Size(), ok: true}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = sys.Ino
	}
	return st
}

type configVerdict struct {
	stamps []configStamp
	err    error
}

// configVerdicts caches configsOwned by checkout root.
var configVerdicts sync.Map

// configsOwned says why a config file git reads for the checkout at root
// must not be trusted, nil when none: git runs no command of a config
// only its user (or root) can write.
func configsOwned(root string) error {
	if v, ok := configVerdicts.Load(root); ok {
		cv := v.(configVerdict)
		fresh := true
		for _, st := range cv.stamps {
			fresh = fresh && stampOf(st.path) == st
		}
		if fresh {
			return cv.err
		}
	}
	stamps, err := checkConfigs(root)
	configVerdicts.Store(root, configVerdict{stamps, err})
	return err
}

// checkConfigs checks the config files git reads at root and the files
// their includes name, and returns the stamps of every file the verdict
// rests on (those, and where a global config would be).
func checkConfigs(root string) ([]configStamp, error) {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	watch := []string{filepath.Join(root, ".git"), filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config")}
	files, includes, err := gitConfigFiles(root)
	stamps := func() []configStamp {
		var out []configStamp
		for _, p := range append(append(watch, files...), includes...) {
			out = append(out, stampOf(p))
		}
		return out
	}
	if err != nil {
		return stamps(), err
	}
	for _, f := range files {
		if err := configFileOwned(f); err != nil {
			return stamps(), err
		}
	}
	for _, inc := range includes {
		if err := includeOwned(inc); err != nil {
			return stamps(), err
		}
	}
	return stamps(), nil
}

// gitConfigFiles lists, as git reads them at root, the config files with
// at least one setting, and the files their includes name (resolved as
// git resolves them: ~ from a home directory, a relative path from the
// including file's directory).
func gitConfigFiles(root string) (files, includes []string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	args := append(append([]string{"-C", root}, GitSafeArgs...), "config", "--list", "--show-origin", "-z")
	out, err := exec.CommandContext(ctx, "git", args...).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the git config of %s: %w; lanes runs no git there", root, err)
	}
	seen := map[string]bool{}
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		origin, ok := strings.CutPrefix(string(fields[i]), "file:")
		if !ok {
			continue // the command line's (lanes' own -c), a blob's
		}
		if !filepath.IsAbs(origin) {
			origin = filepath.Join(root, origin)
		}
		if !seen[origin] {
			seen[origin] = true
			files = append(files, origin)
		}
		key, val, _ := strings.Cut(string(fields[i+1]), "\n")
		if key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path") {
			includes = append(includes, includePath(origin, val))
		}
	}
	return files, includes, nil
}

// includePath is where an include in config file origin with value v
// points, as git resolves it.
func includePath(origin, v string) string {
	if rest, ok := strings.CutPrefix(v, "~"); ok {
		name, tail, _ := strings.Cut(rest, "/")
		home, _ := os.UserHomeDir()
		if name != "" {
			home = homeOf(name)
		}
		return filepath.Join(home, tail)
	}
	if !filepath.IsAbs(v) {
		return filepath.Join(filepath.Dir(origin), v)
	}
	return v
}

// configFileOwned refuses a config file git reads that another user (not
// root: /etc/gitconfig) owns or may write.
func configFileOwned(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil // gone since git read it: the next check sees what replaced it
	}
	uid := os.Geteuid()
	switch owner := fsafe.Owner(fi); {
	case owner != uid && owner != 0:
		return fmt.Errorf("git reads the config %s, which belongs to %s: lanes runs no git where another can change its settings: %w", path, fsafe.Who(owner), fsafe.ErrForeign)
	case fsafe.OthersMayWrite(path, fi, uid):
		return fmt.Errorf("git reads the config %s, which other users may write (mode %04o, or an ACL): lanes runs no git where another can change its settings (chmod go-w): %w", path, fi.Mode().Perm(), fsafe.ErrForeign)
	}
	return nil
}

// includeOwned refuses an included file another user could change or put
// in place: one they own or may write, or one in a directory they may
// write (a missing one they could make; an existing one, without the
// sticky bit, they could swap).
func includeOwned(path string) error {
	if err := configFileOwned(path); err != nil {
		return err
	}
	_, err := os.Lstat(path)
	missing := err != nil
	d := filepath.Dir(path)
	fi, err := os.Stat(d)
	for ; err != nil; fi, err = os.Stat(d) {
		if filepath.Dir(d) == d {
			return nil
		}
		missing, d = true, filepath.Dir(d) // a directory they could make
	}
	uid := os.Geteuid()
	switch owner := fsafe.Owner(fi); {
	case owner != uid && owner != 0:
		return fmt.Errorf("git includes %s, under %s, which belongs to %s: they could put their own settings there, and lanes runs no git where another can change its settings: %w", path, d, fsafe.Who(owner), fsafe.ErrForeign)
	case fsafe.OthersMayWrite(d, fi, uid) && (missing || fi.Mode()&fs.ModeSticky == 0):
		return fmt.Errorf("git includes %s, under %s, which other users may write: they could put their own settings there, and lanes runs no git where another can change its settings: %w", path, d, fsafe.ErrForeign)
	}
	return nil
}

// homeOf is user name's home directory as /etc/passwd says ("/" when it
// does not: an include of an unknown user's file is judged under /). (Not
// os/user: lanes' hook binary links no cgo.)
func homeOf(name string) string {
	b, _ := os.ReadFile("/etc/passwd")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Split(l, ":"); len(f) >= 6 && f[0] == name {
			return f[5]
		}
	}
	return "/"
}
