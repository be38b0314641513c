// Package remote is how lanes reaches other hosts (docs/design.md §16):
// each runs its own lanes, collector and store, and owns its sessions'
// status; this host mirrors them over ssh. ssh and tmux are the engine:
// lanes runs no server of its own.
package remote

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Host is another machine lanes mirrors.
type Host struct {
	// Name is what the board shows; Dest is what ssh is given (an alias
	// of the user's ssh config, user@host, or ssh://user@host:port).
	Name, Dest string
}

// ErrHosts: the hosts file or a --host flag says something lanes cannot use.
var ErrHosts = errors.New("bad hosts entry")

// hostName is compiled on first use: the hooks run this binary too, and
// compiling it at start-up took a quarter of their init time (inittrace).
var hostName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)
})

// HostsPath is the hosts file: $XDG_CONFIG_HOME/lanes/hosts, else
// ~/.config/lanes/hosts.
func HostsPath(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		dir = filepath.Join(getenv("HOME"), ".config")
	}
	return filepath.Join(dir, "lanes", "hosts")
}

// LoadHosts reads the hosts file at path: one `NAME DESTINATION` per line,
// a # starting a comment (a whole line, or after the two words); blank
// lines are skipped. A missing file is no hosts. A line lanes cannot use
// is skipped, not the file: the hosts are the good lines', and the error
// (a *HostsError, ErrHosts) names every bad line at once.
func LoadHosts(path string) ([]Host, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading hosts: %w", err)
	}
	defer f.Close()
	var hosts []Host
	bad := &HostsError{Path: path}
	first := map[string]int{} // the line each name (and, after a NUL, each destination) is on
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			bad.add(n, fmt.Errorf("%w: want `NAME DESTINATION` (e.g. `build me@build.example`), got %q", ErrHosts, strings.TrimSpace(sc.Text())))
			continue
		}
		h, err := newHost(fields[0], fields[1])
		if err != nil {
			bad.add(n, err)
			continue
		}
		if at, twice := first[h.Name]; twice {
			bad.add(n, fmt.Errorf("%w: host %s named twice (first on line %d): give this one another name", ErrHosts, h.Name, at))
			continue
		}
		if at, twice := first["\x00"+h.Dest]; twice {
			// The same host twice would show each of its sessions twice.
			bad.add(n, fmt.Errorf("%w: %s is line %d's destination already: one name a host", ErrHosts, h.Dest, at))
			continue
		}
		first[h.Name], first["\x00"+h.Dest] = n, n
		hosts = append(hosts, h)
	}
	if err := sc.Err(); err != nil {
		return hosts, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(bad.Lines) > 0 {
		return hosts, bad
	}
	return hosts, nil
}

// HostsError is every line of a hosts file that lanes skipped, and why.
type HostsError struct {
	Path  string
	Lines []int   // line numbers, in order
	Whys  []error // why each was skipped (each an ErrHosts)
}

func (e *HostsError) add(n int, why error) {
	e.Lines = append(e.Lines, n)
	e.Whys = append(e.Whys, why)
}

// Error is one line per bad line: FILE:LINE: bad hosts entry: why.
func (e *HostsError) Error() string {
	var b strings.Builder
	for i, n := range e.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d: %v", e.Path, n, e.Whys[i])
	}
	return b.String()
}

// Is makes a HostsError an ErrHosts.
func (e *HostsError) Is(target error) bool { return target == ErrHosts }

// Short says in one line which lines were skipped: "lines 3, 5 of FILE".
func (e *HostsError) Short() string {
	nums := make([]string, len(e.Lines))
	for i, n := range e.Lines {
		nums[i] = fmt.Sprint(n)
	}
	word := "line "
	if len(nums) > 1 {
		word = "lines "
	}
	return word + strings.Join(nums, ", ") + " of " + e.Path
}

// ParseHost is a --host flag: NAME=DESTINATION, or DESTINATION alone,
// named by its host part.
func ParseHost(s string) (Host, error) {
	if name, dest, ok := strings.Cut(s, "="); ok {
		return newHost(name, dest)
	}
	name := strings.TrimPrefix(s, "ssh://")
	if _, after, ok := strings.Cut(name, "@"); ok {
		name = after
	}
	name, _, _ = strings.Cut(name, ":")
	return newHost(name, s)
}

func newHost(name, dest string) (Host, error) {
	switch {
	case !hostName().MatchString(name):
		return Host{}, fmt.Errorf("%w: host name %q: use letters, digits, '.', '_' or '-' (at most 32)", ErrHosts, name)
	case dest == "" || strings.HasPrefix(dest, "-") || strings.ContainsFunc(dest, func(r rune) bool { return r <= ' ' }):
		return Host{}, fmt.Errorf("%w: host %s: destination %q is not one ssh takes", ErrHosts, name, dest)
	}
	return Host{Name: name, Dest: dest}, nil
}
