package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"lanes/internal/listing"
	"lanes/internal/remote"
	"lanes/state"
)

// How long `--all-hosts` waits for each host: `ls` for a slow link,
// the status line for tmux's status bar, which it must not hold up.
const (
	lsHostsTimeout     = 10 * time.Second
	statusHostsTimeout = 2 * time.Second
)

// hostListing is what one host's `lanes ls --json` said, or why it said
// nothing.
type hostListing struct {
	host     remote.Host
	sessions []state.Derived
	err      error
}

// hosts is the hosts of the hosts file (docs/design.md §16).
func (a *app) hosts() ([]remote.Host, error) {
	return remote.LoadHosts(remote.HostsPath(a.getenv))
}

// listHosts runs `lanes ls --json ARGS…` on every host at once, each
// within timeout, and mirrors what each listed: those sessions as their
// host derived them.
func (a *app) listHosts(ctx context.Context, hosts []remote.Host, timeout time.Duration, args ...string) []hostListing {
	ssh := remote.SSH{Program: a.getenv(remote.EnvSSH)}
	out := make([]hostListing, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			out[i] = listHost(ctx, ssh, h, timeout, args)
		})
	}
	wg.Wait()
	return out
}

func listHost(ctx context.Context, ssh remote.SSH, h remote.Host, timeout time.Duration, args []string) hostListing {
	b, err := ssh.Run(ctx, h, nil, append([]string{"ls", "--json"}, args...)...)
	if ctx.Err() != nil {
		err = fmt.Errorf("host %s: no answer within %s", h.Name, timeout)
	}
	if err != nil {
		return hostListing{host: h, err: err}
	}
	var list []listing.Session
	if err := json.Unmarshal(b, &list); err != nil {
		return hostListing{host: h, err: fmt.Errorf("host %s: its `lanes ls --json` printed what this lanes cannot read (%v): is lanes there current?", h.Name, err)}
	}
	l := hostListing{host: h}
	for _, s := range list {
		l.sessions = append(l.sessions, s.Mirror(h.Name))
	}
	return l
}

// localHost names this machine in a listing of several hosts.
const localHost = "(here)"

// withHosts is views with the sessions of every host in the hosts file,
// in one order; a host that gives nothing is named on stderr.
func (a *app) withHosts(ctx context.Context, views []state.Derived, all bool) ([]state.Derived, error) {
	hosts, err := a.hosts()
	if err != nil {
		return nil, err
	}
	if len(hosts) == 0 {
		fmt.Fprintf(a.stderr, "lanes: note: no hosts in %s (one `NAME DESTINATION` per line): listing this host only\n", remote.HostsPath(a.getenv))
		return views, nil
	}
	var args []string
	if all {
		args = append(args, "--all")
	}
	ls := a.listHosts(ctx, hosts, lsHostsTimeout, args...)
	for _, l := range ls {
		views = append(views, l.sessions...)
	}
	noteUnreachable(a.stderr, ls, "its sessions are not listed")
	slices.SortFunc(views, func(x, y state.Derived) int { return x.Compare(&y) })
	return views, nil
}

// otherHosts starts listing the hosts of the hosts file, when on, and
// returns what waits for their listings: the status line reads its own
// host meanwhile. Without hosts (or off) the listings are nil.
func (a *app) otherHosts(ctx context.Context, on bool) func() ([]hostListing, error) {
	if !on {
		return func() ([]hostListing, error) { return nil, nil }
	}
	hosts, err := a.hosts()
	if err != nil || len(hosts) == 0 {
		return func() ([]hostListing, error) { return []hostListing{}, err }
	}
	done := make(chan []hostListing, 1)
	go func() { done <- a.listHosts(ctx, hosts, statusHostsTimeout) }()
	return func() ([]hostListing, error) { return <-done, nil }
}

// noteUnreachable says on w which hosts gave nothing, and why.
func noteUnreachable(w io.Writer, ls []hostListing, what string) {
	for _, l := range ls {
		if l.err != nil {
			fmt.Fprintf(w, "lanes: %v: %s\n", l.err, what)
		}
	}
}
