package cli

import (
	"fmt"
	"time"

	"lanes/state"
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

// reachable returns recs of a cycle run elsewhere, unless that cycle found
// this server silent.
func (a *app) reachable(recs []*state.Record) ([]*state.Record, error) {
	for _, r := range recs {
		if r.Live() && r.Runtime.Socket == a.socket && !r.Runtime.UnreachableSince.IsZero() {
			server, _ := serverName(a.socket)
			return nil, fmt.Errorf("%w (%s, since %s)", errTmuxDown, server, rfc3339(r.Runtime.UnreachableSince))
		}
	}
	return recs, nil
}
