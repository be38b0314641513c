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
)

// Host is another machine lanes mirrors.
type Host struct {
	// Name is what the board shows; Dest is what ssh is given (an alias
	// of the user's ssh config, user@host, or ssh://user@host:port).
	Name, Dest string
}

// ErrHosts: the hosts file or a --host flag says something lanes cannot use.
var ErrHosts = errors.New("bad hosts entry")

var hostName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)

// HostsPath is the hosts file: $XDG_CONFIG_HOME/lanes/hosts, else
// ~/.config/lanes/hosts.
func HostsPath(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		dir = filepath.Join(getenv("HOME"), ".config")
	}
	return filepath.Join(dir, "lanes", "hosts")
}

// LoadHosts reads the hosts file at path: one `NAME DESTINATION` per line;
// blank lines and lines starting with # are skipped. A missing file is no
// hosts.
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
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: %w: want `NAME DESTINATION` (e.g. `build me@build.example`), got %q", path, n, ErrHosts, line)
		}
		h, err := newHost(fields[0], fields[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		hosts = append(hosts, h)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return hosts, unique(hosts)
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
	case !hostName.MatchString(name):
		return Host{}, fmt.Errorf("%w: host name %q: use letters, digits, '.', '_' or '-' (at most 32)", ErrHosts, name)
	case dest == "" || strings.HasPrefix(dest, "-") || strings.ContainsFunc(dest, func(r rune) bool { return r <= ' ' }):
		return Host{}, fmt.Errorf("%w: host %s: destination %q is not one ssh takes", ErrHosts, name, dest)
	}
	return Host{Name: name, Dest: dest}, nil
}

// unique refuses two hosts of one name: the board could not tell them apart.
func unique(hosts []Host) error {
	seen := map[string]bool{}
	for _, h := range hosts {
		if seen[h.Name] {
			return fmt.Errorf("%w: host %s named twice", ErrHosts, h.Name)
		}
		seen[h.Name] = true
	}
	return nil
}
