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

// Kill ends a live session's tmux session and records the termination
// (`lanes kill`). A session lanes never confirmed (no session id) is found
// by its @lanes_id, so "killed" is never said of an agent that still runs.
// When the server does not answer, Kill refuses with ErrTmuxDown unless
// anyway (the user confirmed); the record is then terminated as killed
// while tmux was down (state.KilledWhileDown). r becomes the record as
// stored.
func (s *Service) Kill(ctx context.Context, r *state.Record, anyway bool) error {
	if r.Runtime.Terminated {
		return fmt.Errorf("%s: %w already (%s)", r.Name, state.ErrTerminated, r.Runtime.TerminatedReason)
	}
	if r.Adopted {
		return fmt.Errorf("%w: lanes did not start %s, and its tmux session is yours; stop it in its pane (`lanes attach %s`), or `lanes rm %s` to stop watching it", errAdopted, r.Name, r.Name, r.Name)
	}
	tc := s.Tmux(r.Runtime.Socket)
	// The pane as tmux has it now: its pid is what endLeftovers may signal,
	// and its session is the one to kill when lanes never confirmed one.
	pane, perr := findPane(ctx, tc, r.ID)
	sid, err := r.Runtime.SessionID, error(nil)
	if sid == "" {
		sid, err = pane.SessionID, perr
	}
	killed := s.now().UTC()
	if err == nil && sid != "" {
		err = s.killSession(ctx, tc, r.ID, sid, killed, pane.ServerPID)
	}
	// What is left of the pane's processes ends after the kill is
	// recorded: that takes up to 3 s for an agent that ignores the hangup,
	// and meanwhile another process's reads may find the session gone.
	if err == nil {
		defer endLeftovers(pane)
	}
	reason := state.ReasonKilled
	switch {
	case err == nil, errors.Is(err, tmux.ErrNoSession):
	case IsDown(err) && anyway:
		reason = state.KilledWhileDown
	case IsDown(err):
		return stillRuns("killing "+r.Name, err, fmt.Sprintf("`lanes kill %s --yes` marks it terminated anyway", r.Name))
	default:
		return fmt.Errorf("killing %s: %w (nothing was changed)", r.Name, err)
	}
	// A restore or restart started it again after this kill read it (the
	// 30th to 32nd hostile re-runs): in another tmux session, which this
	// kill did not end, or, where it found nothing to kill, with a new
	// launch on its way. That one runs: nothing is recorded, and the kill
	// says so. (A new launch in the very session it ended ended with it.)
	gone, launch, session, again := errors.Is(err, tmux.ErrNoSession), r.Runtime.Launch, r.Runtime.SessionID, false
	err = s.Update(r.ID, func(cur *state.Record, tx *store.Tx) error {
		moved := session != "" && cur.Runtime.SessionID != session
		if again = moved || gone && cur.Runtime.Launch != launch; again {
			state.Killing(cur, time.Time{}, 0)
			*r = *cur
			return nil
		}
		tr := state.Killed(cur, reason, killed, s.now().UTC())
		*r = *cur
		return appendHistory(tx, cur.ID, tr)
	})
	switch dir, derr := s.stateDir(); {
	case again && err == nil:
		return fmt.Errorf("%s was started again meanwhile (by a restore or a restart), and that runs: this kill ended only what it read; `lanes kill %s` ends it", r.Name, r.Name)
	case err == nil && derr == nil:
		store.DropPaneIndex(dir, r)
	}
	return err
}

// killSession ends tmux session sid of record id. The kill is set out in
// the record first (state.Killing): should lanes be stopped between
// tmux's kill and its record of it, the read that finds the session gone
// records the kill, not a session gone (restore --all would start it
// again). tmux is asked with a context no signal cancels (bounded): a
// cancelled wait would report a kill tmux carried out as not done.
func (s *Service) killSession(ctx context.Context, tc *tmux.Client, id, sid string, at time.Time, server int) error {
	if err := s.Update(id, func(cur *state.Record, _ *store.Tx) error {
		state.Killing(cur, at, server)
		return nil
	}); err != nil {
		return err
	}
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), killWait)
	defer cancel()
	err := tc.KillSession(kctx, sid)
	// tmux answered that it did not kill it: a later end is its own. (One
	// that did not answer may carry the kill out when it does: the intent
	// stays, until a read finds the session there after all.)
	if err != nil && !errors.Is(err, tmux.ErrNoSession) && !IsDown(err) {
		_ = s.Update(id, func(cur *state.Record, _ *store.Tx) error {
			state.Killing(cur, time.Time{}, 0)
			return nil
		})
	}
	return err
}

// killWait bounds tmux's kill-session once lanes has asked for it.
const killWait = 10 * time.Second

// findPane is the pane of the tmux session carrying @lanes_id id; the zero
// Pane when the server answered without one.
func findPane(ctx context.Context, tc *tmux.Client, id string) (tmux.Pane, error) {
	panes, err := tc.ListPanes(ctx, false)
	if err != nil {
		return tmux.Pane{}, err
	}
	for _, p := range panes {
		if p.LanesID == id {
			return p, nil
		}
	}
	return tmux.Pane{}, nil
}

// ServerDown is ErrTmuxDown, wrapped with tmux's words, when r's server
// does not answer; nil when it does.
func (s *Service) ServerDown(ctx context.Context, r *state.Record) error {
	_, err := s.Tmux(r.Runtime.Socket).HasSession(ctx, r.Runtime.TmuxSession)
	if !IsDown(err) {
		return nil
	}
	return stillRuns(r.Name, err, "`--yes` goes ahead anyway")
}

// stillRuns is ErrTmuxDown for what tmux could not carry out (err says
// why): the agent may outlive it, and then says how to go ahead anyway.
func stillRuns(what string, err error, then string) error {
	return fmt.Errorf("%s: %w (%v); its agent may still run if the server comes back — %s", what, ErrTmuxDown, err, then)
}
