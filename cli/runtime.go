package cli

import (
	"context"
	"fmt"

	"lanes/state"
	"lanes/tmux"
)

// paneSource feeds tmux reads to the collector: state defines what it needs
// and knows nothing of tmux, so the two meet here.
type paneSource struct{ c *tmux.Client }

func (p paneSource) ListPanes(ctx context.Context, reap bool) ([]state.Observation, error) {
	panes, err := p.c.ListPanes(ctx, reap)
	if err != nil {
		return nil, err
	}
	obs := make([]state.Observation, len(panes))
	for i, pn := range panes {
		obs[i] = state.Observation{
			LanesID: pn.LanesID, SessionID: pn.SessionID, PaneID: pn.PaneID, PID: pn.PID, Dead: pn.Dead, DeadStatus: pn.DeadStatus,
			DeadSignal: pn.DeadSignal, DeadTime: pn.DeadTime, WindowActivity: pn.WindowActivity,
		}
	}
	return obs, nil
}

func (p paneSource) KillSession(ctx context.Context, sessionID string) error {
	return p.c.KillSession(ctx, sessionID)
}

// tmuxClient is the client for this invocation's server.
func (a *app) tmuxClient() *tmux.Client { return a.tmuxFor(a.socket) }

// tmuxFor is the client for a session's own server.
func (a *app) tmuxFor(socket string) *tmux.Client { return tmux.New(socket) }

// collector wires a collector for this invocation's server and store.
func (a *app) collector() (*state.Collector, error) {
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	return &state.Collector{Store: st, Panes: paneSource{a.tmuxClient()}, Socket: a.socket, Now: a.now}, nil
}

// spoolOnly is c without its tmux read: a cycle that applies the spool
// alone, for changes lanes itself just wrote there.
func spoolOnly(c *state.Collector) *state.Collector {
	return &state.Collector{Store: c.Store, Socket: c.Socket, Now: c.Now}
}

// cycle runs one collector cycle, warning on stderr when tmux did not answer
// (the records are still printed: docs/design.md §10).
func (a *app) cycle(ctx context.Context) (state.CycleResult, error) {
	res, err := a.quietCycle(ctx)
	if err == nil && res.TmuxErr != nil && a.watching(res.Records) {
		a.warn("tmux is not answering (%v); showing what the store holds", res.TmuxErr)
	}
	return res, err
}

// quietCycle is a cycle for a command that acts rather than prints what
// the store holds: what tmux's silence means for it, it says itself.
func (a *app) quietCycle(ctx context.Context) (state.CycleResult, error) {
	c, err := a.collector()
	if err != nil {
		return state.CycleResult{}, err
	}
	return c.Cycle(ctx)
}

// watching reports whether any live session lives on this invocation's
// server: with none, a server that is not running is the normal state.
func (a *app) watching(recs []*state.Record) bool {
	for _, r := range recs {
		if r.Live() && r.Runtime.Socket == a.socket {
			return true
		}
	}
	return false
}

func (a *app) warn(format string, args ...any) {
	a.stderr.Write([]byte("lanes: warning: " + fmt.Sprintf(format, args...) + "\n"))
}
