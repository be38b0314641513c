package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
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

// hosts is the hosts of the hosts file (docs/design.md §16): the good
// lines' when some are bad, and why the others were skipped (warn, a
// *remote.HostsError naming each): one typo does not hide every host.
func (a *app) hosts() (hosts []remote.Host, warn error) {
	return remote.LoadHosts(remote.HostsPath(a.getenv))
}

// warnHosts says on stderr each line of the hosts file that was skipped.
func (a *app) warnHosts(err error) {
	if err == nil {
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		a.warn("%s: skipped (`lanes doctor` checks the hosts file)", line)
	}
}

// listHosts runs `lanes ls --json ARGS…` on every host at once, each
// within timeout, and mirrors what each listed: those sessions as their
// host derived them. cached: a host's answer younger than hostCacheFor
// is reused, and a new one kept (the status line's).
func (a *app) listHosts(ctx context.Context, hosts []remote.Host, timeout time.Duration, cached bool, args ...string) []hostListing {
	ssh := a.ssh()
	out := make([]hostListing, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			if c, ok := a.cachedAnswer(h); cached && ok {
				out[i] = mirrorHost(h, c.Sessions, c.answerErr())
				return
			}
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			list, err := listHost(ctx, ssh, h, timeout, args)
			if cached {
				a.saveAnswer(h, list, err)
			}
			out[i] = mirrorHost(h, list, err)
		})
	}
	wg.Wait()
	return out
}

// listHost is what h's `lanes ls --json ARGS…` listed, or why nothing.
func listHost(ctx context.Context, ssh remote.SSH, h remote.Host, timeout time.Duration, args []string) ([]listing.Session, error) {
	b, err := ssh.Run(ctx, h, nil, append([]string{"ls", "--json"}, args...)...)
	if ctx.Err() != nil {
		err = fmt.Errorf("host %s: no answer within %s", h.Name, timeout)
	}
	if err != nil {
		return nil, err
	}
	var list []listing.Session
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("host %s: its `lanes ls --json` printed what this lanes cannot read (%v): is lanes there current?", h.Name, err)
	}
	for i := range list { // another host's words
		list[i].Clean()
	}
	return list, nil
}

// mirrorHost is h's listing as this host shows it.
func mirrorHost(h remote.Host, list []listing.Session, err error) hostListing {
	l := hostListing{host: h, err: err}
	for _, s := range list {
		l.sessions = append(l.sessions, s.Mirror(h.Name, false))
	}
	return l
}

// localHost names this machine in a listing of several hosts.
const localHost = "(here)"

// withHosts is views with the sessions of every host in the hosts file,
// in one order; a host that gives nothing, or a line of the hosts file
// skipped, is named on stderr, and complete is false: the listing lacks
// what they hold.
func (a *app) withHosts(ctx context.Context, views []state.Derived, all bool) (_ []state.Derived, complete bool) {
	hosts, warn := a.hosts()
	a.warnHosts(warn)
	complete = warn == nil
	if len(hosts) == 0 {
		if warn == nil {
			fmt.Fprintf(a.stderr, "lanes: note: no hosts in %s (one `NAME DESTINATION` per line): listing this host only\n", remote.HostsPath(a.getenv))
		}
		return views, complete
	}
	var args []string
	if all {
		args = append(args, "--all")
	}
	ls := a.listHosts(ctx, hosts, lsHostsTimeout, false, args...)
	for _, l := range ls {
		views = append(views, l.sessions...)
		complete = complete && l.err == nil
	}
	noteUnreachable(a.stderr, ls, "its sessions are not listed")
	slices.SortFunc(views, func(x, y state.Derived) int { return x.Compare(&y) })
	return views, complete
}

// otherHosts starts listing the hosts of the hosts file, when on, and
// returns what waits for their listings: the status line reads its own
// host meanwhile. Without hosts (or off) the listings are nil.
func (a *app) otherHosts(ctx context.Context, on bool) func() ([]hostListing, error) {
	if !on {
		return func() ([]hostListing, error) { return nil, nil }
	}
	// A bad line of the hosts file costs its host, never the line: the
	// counts of this host and the good hosts still show.
	hosts, warn := a.hosts()
	a.warnHosts(warn)
	if len(hosts) == 0 {
		return func() ([]hostListing, error) { return []hostListing{}, nil }
	}
	done := make(chan []hostListing, 1)
	go func() { done <- a.listHosts(ctx, hosts, statusHostsTimeout, true) }()
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

// doctorHosts checks the hosts file: how many hosts it names, or each
// line lanes skips and how to write it; then each host, as the board
// reaches it (doctorReach).
func (a *app) doctorHosts(ctx context.Context, add addFunc) {
	path := remote.HostsPath(a.getenv)
	hosts, err := a.hosts()
	var he *remote.HostsError
	switch {
	case errors.As(err, &he):
		add(false, "write each as `NAME DESTINATION` (a # starts a comment), one name once:\n      "+strings.ReplaceAll(err.Error(), "\n", "\n      "),
			"hosts: skipped bad %s; %s read", he.Short(), hostCount(len(hosts)))
	case err != nil:
		add(false, "make it readable, or remove it", "hosts: %v", err)
	case len(hosts) == 0:
		add(true, "", "hosts: none in %s (the board shows this host only)", path)
	default:
		add(true, "", "hosts: %s in %s", hostCount(len(hosts)), path)
	}
	a.doctorReach(ctx, hosts, add)
}

// doctorReach runs `lanes version` on each host over ssh, all at once,
// doctorHostTimeout at most: what it answered, or why it did not.
func (a *app) doctorReach(ctx context.Context, hosts []remote.Host, add addFunc) {
	type reach struct {
		out  []byte
		err  error
		took time.Duration
	}
	got := make([]reach, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, doctorHostTimeout)
			defer cancel()
			began := time.Now()
			out, err := a.ssh().Run(ctx, h, nil, "version")
			got[i] = reach{out[:min(len(out), versionRead)], err, time.Since(began)} // a version is a line
		})
	}
	wg.Wait()
	for i, h := range hosts {
		switch r := got[i]; {
		case r.err != nil: // it names the host
			add(false, "try `ssh "+h.Dest+" lanes version` by hand: the board runs that ssh", "%v", r.err)
		case !strings.HasPrefix(string(r.out), "lanes "):
			add(false, "lanes there must answer `lanes version` with `lanes VERSION`: install lanes on it, on its PATH for a non-interactive login",
				"host %s: `lanes version` answered %q, not a lanes version", h.Name, state.Summary(string(r.out), 60))
		default:
			add(true, "", "host %s: %s over ssh (%s)", h.Name, strings.TrimSpace(state.Summary(string(r.out), 80)), r.took.Round(time.Millisecond))
		}
	}
}

// versionRead is how much of a host's answer to `lanes version` doctor
// keeps.
const versionRead = 4 << 10

// doctorHostTimeout bounds each host's answer to doctor.
const doctorHostTimeout = 10 * time.Second

// hostCount is "1 host", "2 hosts".
func hostCount(n int) string {
	if n == 1 {
		return "1 host"
	}
	return fmt.Sprintf("%d hosts", n)
}
