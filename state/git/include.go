package git

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"lanes/internal/fsafe"
	"lanes/state"
)

// The config files git reads for a checkout (issue 30, items 2 and 5): a
// file another user can write or put in place — one a config includes
// (include.path, includeIf.*.path, whatever its condition now, in any
// config git reads, the user's global one and the environment's too) —
// is a config they can write, and its filters run as the user under
// lanes' git (the twelfth to fourteenth hostile re-runs). git lists the
// files and the includes, parsed as it parses them (`git config --list
// --show-origin`, then each included file with --file and --no-includes,
// so a condition false today is followed too); lanes checks every one
// and every directory and link on its way from /, and keeps the verdict
// until one of them changes (a file's inode, size, times or mode: ctime
// moves with a chmod, an ACL, an owner; a directory's inode, mode and
// owner).

// configStamp is what a path looked like when its checkout was checked.
type configStamp struct {
	path             string
	ino              uint64
	mod, changed     time.Time
	size             int64
	ok               bool // it existed
	mode, uid, group uint32
}

func stampOf(path string) configStamp {
	fi, err := os.Lstat(path)
	if err != nil {
		return configStamp{path: path}
	}
	st := configStamp{path: path, mod: fi.ModTime(), size: fi.Size(), ok: true}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino, st.changed = sys.Ino, time.Unix(sys.Ctim.Sec, sys.Ctim.Nsec)
		st.mode, st.uid, st.group = sys.Mode, sys.Uid, sys.Gid
	}
	if fi.IsDir() {
		// What lies in a directory changes all the time (git's own
		// index.lock, /tmp): only who may change it counts.
		st.mod, st.changed, st.size = time.Time{}, time.Time{}, 0
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
// must not be trusted, nil when none.
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
	c := &configCheck{root: root, seen: map[string]bool{}}
	err := c.run()
	configVerdicts.Store(root, configVerdict{c.stamps(), err})
	return err
}

// configCheck is one check of a checkout's config files.
type configCheck struct {
	root    string
	watched []string        // every path the verdict rests on
	seen    map[string]bool // config files listed already
}

func (c *configCheck) watch(paths ...string) { c.watched = append(c.watched, paths...) }

func (c *configCheck) stamps() []configStamp {
	out := make([]configStamp, len(c.watched))
	for i, p := range c.watched {
		out[i] = stampOf(p)
	}
	return out
}

func (c *configCheck) run() error {
	c.watch(filepath.Join(c.root, ".git"))
	// Where git looks for a global and a system config, whether a file is
	// there or not and whether it holds a setting or not: git lists only
	// files with one (the sixteenth re-run: an empty one, or a missing one
	// in a directory another user may write, filled later).
	for _, p := range configLocations(c.root) {
		if _, err := c.pathOwned(p); err != nil {
			return err
		}
	}
	entries, err := gitConfig(c.root, "-C", c.root, "config", "--list", "--show-origin", "-z")
	if err != nil {
		return err
	}
	// Every file git read is walked link by link (the fifteenth re-run:
	// only a file's owner and mode were looked at, not the way to it),
	// and every include is followed, whatever its condition.
	var queue []string
	for _, e := range entries {
		if e.file != "" && !c.seen[e.file] {
			c.seen[e.file] = true
			if _, err := c.pathOwned(e.file); err != nil {
				return err
			}
		}
		if inc, ok := e.include(c.root); ok {
			queue = append(queue, inc)
		}
	}
	for n := 0; len(queue) > 0; n++ {
		inc := queue[0]
		queue = queue[1:]
		if n > 512 {
			return fmt.Errorf("git config at %s includes more than 512 files, and lanes runs no git where it cannot check them all: %w", c.root, fsafe.ErrForeign)
		}
		if c.seen[inc] {
			continue
		}
		c.seen[inc] = true
		more, err := c.included(inc)
		if err != nil {
			return err
		}
		queue = append(queue, more...)
	}
	return nil
}

// included checks an included file and the way to it, and returns the
// files it includes in turn (every one, whatever its condition).
func (c *configCheck) included(path string) ([]string, error) {
	if strings.Contains(path, "%(") {
		return nil, fmt.Errorf("git config at %s includes %s, a path lanes does not resolve, and lanes runs no git where another can change its settings: %w", c.root, path, fsafe.ErrForeign)
	}
	exists, err := c.pathOwned(path)
	if err != nil || !exists {
		return nil, err
	}
	entries, err := gitConfig(c.root, "config", "--file", path, "--list", "--no-includes", "--show-origin", "-z")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if inc, ok := e.include(c.root); ok {
			out = append(out, inc)
		}
	}
	return out, nil
}

// pathOwned walks path from / as the kernel does, links followed, and
// refuses a step another user could change: a link or a directory of
// theirs (root's are fine), a directory others may write (with the
// sticky bit, only while what lies in it exists: a missing name there
// they could make), the file itself theirs or writable by others. It
// reports whether the file exists, and watches every step.
func (c *configCheck) pathOwned(path string) (exists bool, err error) {
	if !strings.HasPrefix(path, "/") {
		// A relative one (a relative HOME under "~/": the eighteenth
		// re-run) would be walked from / while git opens it elsewhere.
		return false, foreignInclude(path, path, "is relative, a path lanes does not resolve")
	}
	uid, done := os.Geteuid(), "/"
	rest := strings.Split(path, "/") // not cleaned: ".." after a link is where the link leads
	for hops := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		if name == "" || name == "." {
			continue
		}
		if name == ".." {
			done = filepath.Dir(done)
			continue
		}
		if done == "/" && name == "proc" {
			// /proc/self is lanes' there and git's in git (the sixteenth
			// re-run): a way that differs by process is none to judge.
			return false, foreignInclude(path, "/proc", "differs from one process to another")
		}
		dir, p := done, filepath.Join(done, name)
		c.watch(dir, p)
		dfi, err := os.Stat(dir)
		if err != nil {
			return false, nil
		}
		fi, err := os.Lstat(p)
		switch owner := fsafe.Owner(dfi); {
		case owner != uid && owner != 0:
			return false, foreignInclude(path, dir, "belongs to "+fsafe.Who(owner))
		case fsafe.OthersMayWrite(dir, dfi, uid) && dfi.Mode()&fs.ModeSticky == 0:
			return false, foreignInclude(path, dir, fmt.Sprintf("other users may change (mode %04o, no sticky bit)", dfi.Mode().Perm()))
		case fsafe.OthersMayWrite(dir, dfi, uid) && err != nil:
			return false, foreignInclude(path, dir, "other users may write (the name is theirs to make)")
		case errors.Is(err, fs.ErrNotExist):
			return false, nil // git skips a missing include, and no one else can make it
		case err != nil:
			return false, err
		case fi.Mode()&fs.ModeSymlink != 0:
			if owner := fsafe.Owner(fi); owner != uid && owner != 0 {
				return false, foreignInclude(path, p, "is a link of "+fsafe.Who(owner))
			}
			to, err := os.Readlink(p)
			if hops++; err != nil || hops > 40 {
				return false, foreignInclude(path, p, "is a link lanes cannot follow")
			}
			if filepath.IsAbs(to) {
				done = "/"
			}
			rest = append(strings.Split(to, "/"), rest...)
			continue
		}
		done = p
	}
	return true, configFileOwned(done)
}

func foreignInclude(path, at, why string) error {
	return fmt.Errorf("git reads the config %s, and %s %s: another user could put their own settings there, and lanes runs no git where another can change its settings: %w",
		path, at, why, fsafe.ErrForeign)
}

// configLocations are where git looks for the global and the system
// config, as its environment says (a relative one from root, where git
// runs).
func configLocations(root string) []string {
	var out []string
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		out = append(out, g)
	} else {
		home, _ := os.UserHomeDir()
		xdg := cmp.Or(os.Getenv("XDG_CONFIG_HOME"), home+"/.config")
		out = append(out, home+"/.gitconfig", xdg+"/git/config")
	}
	switch v := strings.ToLower(os.Getenv("GIT_CONFIG_NOSYSTEM")); {
	case v == "1" || v == "true" || v == "yes" || v == "on":
	default:
		out = append(out, cmp.Or(os.Getenv("GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	out = slices.DeleteFunc(out, func(p string) bool { return p == "/dev/null" })
	for i, p := range out {
		if !strings.HasPrefix(p, "/") {
			out[i] = root + "/" + p // the seventeenth re-run: a relative one was left out
		}
	}
	return out
}

// configEntry is one setting git listed: the file it is in ("" for the
// command line and the environment's), its key and value.
type configEntry struct{ file, key, val string }

// include is where e, an include, points, as git resolves it (~ from a
// home directory, a relative path from its file's directory, or root's
// for one of the command line or the environment); false when e is no
// include.
func (e configEntry) include(root string) (string, bool) {
	if e.key != "include.path" && !(strings.HasPrefix(e.key, "includeif.") && strings.HasSuffix(e.key, ".path")) {
		return "", false
	}
	// Joined as text, never cleaned: "lnk/.." is the directory above
	// where lnk leads, which pathOwned follows as the kernel does (the
	// fifteenth re-run's include of ROOT/lnk/../x judged another file).
	if rest, ok := strings.CutPrefix(e.val, "~"); ok {
		name, tail, _ := strings.Cut(rest, "/")
		home, _ := os.UserHomeDir()
		if name != "" {
			home = homeOf(name)
		}
		return home + "/" + tail, true
	}
	if strings.HasPrefix(e.val, "/") || strings.HasPrefix(e.val, "%(") {
		return e.val, true
	}
	base := root
	if i := strings.LastIndex(e.file, "/"); i >= 0 {
		base = e.file[:i]
	}
	return base + "/" + e.val, true
}

// gitConfig runs git config with lanes' safe -c and lists what it says
// (-z, --show-origin).
func gitConfig(root string, args ...string) ([]configEntry, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	// GIT_CONFIG makes `git config` list that one file alone, while
	// status and diff read every file as ever (the seventeenth re-run:
	// the check went blind): the listing runs without it (Env).
	cmd := Command(ctx, os.Environ(), args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return nil, fmt.Errorf("reading the git config of %s: %w %s; lanes runs no git there", root, err, state.CleanText(msg))
	}
	var entries []configEntry
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		e := configEntry{}
		if f, ok := strings.CutPrefix(string(fields[i]), "file:"); ok {
			if !filepath.IsAbs(f) {
				f = filepath.Join(root, f)
			}
			e.file = f
		}
		e.key, e.val, _ = strings.Cut(string(fields[i+1]), "\n")
		entries = append(entries, e)
	}
	return entries, nil
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
