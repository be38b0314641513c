package cli

import (
	"fmt"
	"time"

	"lanes/internal/listing"
	"lanes/internal/session"
	"lanes/state"
	"lanes/tmux"
)

// snapshotMaxAge: while another process holds the store's lock, the
// records of the last cycle stand in for a cycle of our own this long
// (docs/design.md §7): readers do not wait on writers.
const snapshotMaxAge = 2 * time.Second

// snapshot is the last cycle's records, if that cycle ran less than
// maxAge ago (by this invocation's clock).
func (a *app) snapshot(maxAge time.Duration) ([]*state.Record, bool) {
	st, err := a.store()
	if err != nil {
		return nil, false
	}
	recs, at, err := st.Snapshot()
	if age := a.now().Sub(at); err != nil || age < 0 || age >= maxAge {
		return nil, false
	}
	return recs, true
}

// snapshotTally is the tally of the last cycle, when it is younger than
// maxAge and its records are still the store's.
func (a *app) snapshotTally(maxAge time.Duration) (state.Tally, bool) {
	st, err := a.store()
	if err != nil {
		return state.Tally{}, false
	}
	t, at, err := st.SnapshotTally()
	if age := a.now().Sub(at); err != nil || age < 0 || age >= maxAge {
		return state.Tally{}, false
	}
	return t, true
}

// statusData is what a status line is rendered from: the records of a
// cycle, or, for the counts alone, the tally a recent cycle stored.
type statusData struct {
	recs  []*state.Record
	tally *state.Tally
	// hosts: with --all-hosts, what each other host listed.
	hosts []hostListing
}

// tallyAt counts this host's sessions at now and the other hosts'
// sessions as they derived them.
func (d statusData) tallyAt(now time.Time) state.Tally {
	var t state.Tally
	if d.tally != nil {
		t = *d.tally
	} else {
		t = state.TallyAt(d.recs, now)
	}
	for _, l := range d.hosts {
		for _, v := range l.sessions {
			t.Add(v.Rec, v.D)
		}
	}
	return t
}

// hostsDown names the hosts whose sessions the counts lack: nil without
// --all-hosts, empty when every host answered.
func (d statusData) hostsDown() []string {
	if d.hosts == nil {
		return nil
	}
	down := []string{}
	for _, l := range d.hosts {
		if l.err != nil {
			down = append(down, l.host.Name)
		}
	}
	return down
}

// reachable is d, from a cycle run elsewhere, unless that cycle found this
// server silent.
func (a *app) reachable(d statusData) (statusData, error) {
	since := state.SilentSince(d.recs, a.socket)
	if d.tally != nil {
		since = d.tally.Silent[a.socket]
	}
	if !since.IsZero() {
		server, _ := tmux.ServerName(a.socket)
		return statusData{}, fmt.Errorf("%w (%s, since %s)", session.ErrTmuxDown, server, listing.RFC3339(since))
	}
	return d, nil
}
