package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/state"
	"lanes/tmux"
)

// cmdRestart is `lanes restart NAME`.
func (a *app) cmdRestart(ctx context.Context, args []string) int {
	fs := a.flags("restart")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintln(fs.Output(), "\nIf the session's tmux server lost it (the server restarted), or is not running at all")
		fmt.Fprintln(fs.Output(), "(after a reboot, say), restart starts the session again, in a new server if need be.")
	}
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	how, err := a.restart(ctx, r, agentArgs(r))
	if err != nil {
		return a.fail(err)
	}
	switch {
	case errors.Is(how, tmux.ErrNoServer):
		fmt.Fprintf(a.stdout, "tmux server was not running: started %s again in a new server (%s)\n", r.Name, r.ID)
	case errors.Is(how, tmux.ErrNoSession):
		fmt.Fprintf(a.stdout, "its tmux session was gone: started %s again (%s)\n", r.Name, r.ID)
	default:
		fmt.Fprintf(a.stdout, "restarted %s (%s)\n", r.Name, r.ID)
	}
	return exitOK
}

// restart respawns the pane with a new launch: the record changes first,
// keeping the previous launch accepted while the respawn is in flight (its
// agent may be the one that runs: docs/design.md §4). A session whose
// server lost it (died, restarted) is started again under the same record;
// then how is why (tmux.ErrNoServer or tmux.ErrNoSession), else nil. args
// are the agent's arguments (agentArgs, with resume arguments for `lanes
// restore`); the record's command stays the user's.
func (a *app) restart(ctx context.Context, r *state.Record, args []string) (how, err error) {
	if r.Adopted {
		return nil, fmt.Errorf("%w: lanes did not start %s, so it does not know how to start it again", errAdopted, r.Name)
	}
	if r.Runtime.Terminated {
		return nil, fmt.Errorf("%s: %w; start a new one with `lanes new %s`", r.Name, state.ErrTerminated, r.Name)
	}
	if r.CommandLost() {
		return nil, fmt.Errorf("%s: its command was lost in a damaged store; start a new session", r.Name)
	}
	if err := notStarted(r); err != nil {
		// Restarting it would record a restart of a session no read has
		// seen, and the collector would then drop the record.
		return nil, err
	}
	launch := state.NewID()
	now := a.now().UTC()
	next := r.Clone()
	next.Runtime.Launch = launch
	spawn, err := a.spawnPlan(next, args)
	if err != nil {
		return nil, err
	}
	if err := a.update(r.ID, func(cur *state.Record, tx *state.Tx) error {
		tr := state.Restart(cur, launch, now)
		cur.Activity.HooksReport = spawn.hooks
		*r = *cur
		return appendHistory(tx, cur.ID, tr)
	}); err != nil {
		return nil, err
	}
	tc := a.tmuxFor(r.Runtime.Socket)
	var info *tmux.SessionInfo
	old, ferr := findPane(ctx, tc, r.ID) // a failed read leaves nothing to end
	if ferr == nil && old.PaneID == "" {
		// Its session is gone: a server started since (a reboot) may have
		// given its %N to another session, whose agent a respawn would kill.
		err = tmux.ErrNoSession
	} else {
		err = tc.RespawnPane(ctx, r.Runtime.PaneID, r.Dir, spawn.env, spawn.argv)
	}
	if err == nil && old.PaneID == r.Runtime.PaneID {
		endLeftovers(old)
	}
	if errors.Is(err, tmux.ErrNoSession) || errors.Is(err, tmux.ErrNoServer) {
		how = tmux.ErrNoSession
		if errors.Is(err, tmux.ErrNoServer) {
			how = tmux.ErrNoServer
		}
		ni, nerr := tc.NewSession(ctx, tmux.NewSessionOpts{
			Name: r.Runtime.TmuxSession, Dir: r.Dir, Env: spawn.env, Command: spawn.argv, LanesID: r.ID,
		})
		if nerr != nil {
			err = fmt.Errorf("%w; starting it again: %w", err, nerr)
		} else {
			info, err = &ni, nil
		}
	}
	if uncertain(ctx, err) {
		return nil, fmt.Errorf("respawning %s: %w; lanes settles it within %s (the new agent if it started, else the old one)",
			r.Name, err, state.StartWindow)
	}
	_ = a.update(r.ID, func(cur *state.Record, _ *state.Tx) error {
		if err != nil {
			// Nothing was respawned: the old agent runs on.
			state.NotRespawned(cur)
			return nil
		}
		state.Respawned(cur)
		cur.Runtime.PaneStartedAt = a.now().UTC()
		if info != nil {
			cur.Runtime.SessionID, cur.Runtime.PaneID = info.SessionID, info.PaneID
			cur.Runtime.UnreachableSince, cur.Runtime.GoneSeenAt = time.Time{}, time.Time{}
		}
		*r = *cur
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("respawning %s: %w", r.Name, err)
	}
	a.writeIndexes(r)
	return how, nil
}
