package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// Restart is `lanes restart`: it respawns r's agent with a new launch.
func (s *Service) Restart(ctx context.Context, r *state.Record) error {
	_, err := s.RestartHow(ctx, r)
	return err
}

// RestartHow is Restart that also says how the session came back: how is
// nil when its pane was respawned, tmux.ErrNoServer or tmux.ErrNoSession
// when its server lost it and it was started again.
func (s *Service) RestartHow(ctx context.Context, r *state.Record) (how, err error) {
	return s.restart(ctx, r, agentArgs(r))
}

// restartable refuses a session lanes cannot start again: adopted (its
// command is not lanes'), ended, its command lost, or not started yet.
func restartable(r *state.Record) error {
	switch {
	case r.Adopted:
		return fmt.Errorf("%w: lanes did not start %s, so it does not know how to start it again", errAdopted, r.Name)
	case r.Runtime.Terminated:
		return Ended(r)
	case r.CommandLost():
		return fmt.Errorf("%s: its command was lost in a damaged store; start a new session", r.Name)
	}
	// Restarting one not started yet would record a restart of a session
	// no read has seen, and the collector would then drop the record.
	return NotStarted(r)
}

// Ended is state.ErrTerminated for a terminated session, with what brings
// it back (restore, where it may; else a new one); nil for a live one.
func Ended(r *state.Record) error {
	switch {
	case !r.Runtime.Terminated:
		return nil
	case state.Restorable(r, true) == nil:
		back := "brings it back"
		if state.ResumeID(r) != "" {
			back += ", its conversation resumed"
		}
		return fmt.Errorf("%s: %w; `lanes restore %s` %s; `lanes new %s` starts a new one", r.Name, state.ErrTerminated, r.Name, back, r.Name)
	}
	return fmt.Errorf("%s: %w (%s); `lanes new %s` starts a new one", r.Name, state.ErrTerminated, r.Runtime.TerminatedReason, r.Name)
}

// restart respawns the pane with a new launch: the record changes first,
// keeping the previous launch accepted while the respawn is in flight (its
// agent may be the one that runs: docs/design.md §4). A session whose
// server lost it (died, restarted) is started again under the same record;
// then how is why (tmux.ErrNoServer or tmux.ErrNoSession), else nil. args
// are the agent's arguments (agentArgs, with resume arguments for `lanes
// restore`); the record's command stays the user's.
func (s *Service) restart(ctx context.Context, r *state.Record, args []string) (how, err error) {
	if err := restartable(r); err != nil {
		return nil, err
	}
	launch := state.NewID()
	now := s.now().UTC()
	next := r.Clone()
	next.Runtime.Launch = launch
	plan, err := s.spawnPlan(next, args)
	if err != nil {
		return nil, err
	}
	if err := s.Update(r.ID, func(cur *state.Record, tx *store.Tx) error {
		// The record as it is now decides (a kill may have ended it since
		// r was read: the 29th hostile re-run).
		if err := restartable(cur); err != nil {
			return err
		}
		tr := state.Restart(cur, launch, now)
		cur.Activity.HooksReport = plan.hooks
		*r = *cur
		return appendHistory(tx, cur.ID, tr)
	}); err != nil {
		return nil, err
	}
	tc := s.Tmux(r.Runtime.Socket)
	var info *tmux.SessionInfo
	old, ferr := findPane(ctx, tc, r.ID) // a failed read leaves nothing to end
	if ferr == nil && old.PaneID == "" {
		// Its session is gone: a server started since (a reboot) may have
		// given its %N to another session, whose agent a respawn would kill.
		err = tmux.ErrNoSession
	} else {
		err = tc.RespawnPane(ctx, r.Runtime.PaneID, r.Dir, plan.env, plan.argv)
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
			Name: r.Runtime.TmuxSession, Dir: r.Dir, Env: plan.env, Command: plan.argv, LanesID: r.ID,
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
	if err := s.respawned(ctx, r, tc, info, err); err != nil {
		return nil, err
	}
	s.writeIndexes(r)
	return how, nil
}

// respawned records how a respawn went (err: it did not), with the new
// tmux session info where one was started. A kill recorded while it
// started ended the session it read, not this one: that one is ended too,
// as the record says (the 30th hostile re-run).
func (s *Service) respawned(ctx context.Context, r *state.Record, tc *tmux.Client, info *tmux.SessionInfo, err error) error {
	killed := false
	_ = s.Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
		if err != nil {
			// Nothing was respawned: the old agent runs on.
			store.NotRespawned(cur)
			return nil
		}
		if killed = cur.Runtime.Terminated; killed {
			return nil
		}
		state.Respawned(cur)
		cur.Runtime.PaneStartedAt = s.now().UTC()
		if info != nil {
			cur.Runtime.SessionID, cur.Runtime.PaneID = info.SessionID, info.PaneID
			cur.Runtime.UnreachableSince, cur.Runtime.GoneSeenAt = time.Time{}, time.Time{}
		}
		*r = *cur
		return nil
	})
	switch {
	case err != nil:
		return fmt.Errorf("respawning %s: %w", r.Name, err)
	case !killed:
		return nil
	case info == nil:
		return fmt.Errorf("%s: %w (killed while it started again)", r.Name, state.ErrTerminated)
	}
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), killWait)
	defer cancel()
	if kerr := tc.KillSession(kctx, info.SessionID); kerr != nil && !errors.Is(kerr, tmux.ErrNoSession) {
		return fmt.Errorf("%s was killed while it started again, and ending what started (tmux session %s) failed: %w", r.Name, info.SessionID, kerr)
	}
	return fmt.Errorf("%s: %w (killed while it started again: what started was ended)", r.Name, state.ErrTerminated)
}
