package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"lanes/state"
	"lanes/tmux"
)

// isDown reports whether err says the server did not answer (as opposed to
// answering that the session is not there).
func isDown(err error) bool {
	return errors.Is(err, tmux.ErrNoServer) || errors.Is(err, tmux.ErrTimeout)
}

// uncertain reports whether a tmux call that failed with err may still have
// been carried out: it timed out, or the caller gave up on it.
func uncertain(ctx context.Context, err error) bool {
	return errors.Is(err, tmux.ErrTimeout) || err != nil && ctx.Err() != nil
}

// kill ends a live session's tmux session and records the termination. A
// session lanes never confirmed (no session id) is found by its @lanes_id,
// so "killed" is never said of an agent that still runs. When the server
// does not answer, kill refuses with errTmuxDown unless downOK (the user
// confirmed); the record is then terminated as killed while tmux was down.
// r becomes the record as stored.
// errAdopted: lanes does not kill or restart a session it did not start.
var errAdopted = errors.New("an adopted session")

func (a *app) kill(ctx context.Context, r *state.Record, downOK bool) error {
	if r.Runtime.Terminated {
		return fmt.Errorf("%s: %w already (%s)", r.Name, state.ErrTerminated, r.Runtime.TerminatedReason)
	}
	if r.Adopted {
		return fmt.Errorf("%w: lanes did not start %s, and its tmux session is yours; stop it in its pane (`lanes attach %s`), or `lanes rm %s` to stop watching it", errAdopted, r.Name, r.Name, r.Name)
	}
	tc := a.tmuxFor(r.Runtime.Socket)
	// The pane as tmux has it now: its pid is what endLeftovers may signal,
	// and its session is the one to kill when lanes never confirmed one.
	pane, perr := findPane(ctx, tc, r.ID)
	sid, err := r.Runtime.SessionID, error(nil)
	if sid == "" {
		sid, err = pane.SessionID, perr
	}
	if err == nil && sid != "" {
		err = tc.KillSession(ctx, sid)
	}
	if err == nil {
		endLeftovers(pane)
	}
	reason := "killed by user"
	switch {
	case err == nil, errors.Is(err, tmux.ErrNoSession):
	case isDown(err) && downOK:
		reason = state.KilledWhileDown
	case isDown(err):
		return stillRuns("killing "+r.Name, err, fmt.Sprintf("`lanes kill %s --yes` marks it terminated anyway", r.Name))
	default:
		return fmt.Errorf("killing %s: %w (nothing was changed)", r.Name, err)
	}
	err = a.update(r.ID, func(cur *state.Record, tx *state.Tx) error {
		tr := state.Terminate(cur, reason, "user", a.now().UTC())
		*r = *cur
		return appendHistory(tx, cur.ID, tr)
	})
	if dir, derr := a.stateDir(); err == nil && derr == nil {
		state.DropPaneIndex(dir, r)
	}
	return err
}

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

// serverDown is errTmuxDown, wrapped with tmux's words, when r's server
// does not answer; nil when it does.
func (a *app) serverDown(ctx context.Context, r *state.Record) error {
	_, err := a.tmuxFor(r.Runtime.Socket).HasSession(ctx, r.Runtime.TmuxSession)
	if !isDown(err) {
		return nil
	}
	return stillRuns(r.Name, err, "`--yes` goes ahead anyway")
}

// stillRuns is errTmuxDown for what tmux could not carry out (err says
// why): the agent may outlive it, and then says how to go ahead anyway.
func stillRuns(what string, err error, then string) error {
	return fmt.Errorf("%s: %w (%v); its agent may still run if the server comes back — %s", what, errTmuxDown, err, then)
}

// errDeclined: the user was asked and did not say yes. The question
// explained why it was asked, so the refusal need not again.
var errDeclined = errors.New("not confirmed; nothing was changed")

// confirm asks question on a terminal and reports a yes as nil; without a
// terminal on stdin nothing is asked and it returns refusal. Asked and not
// answered yes, it returns errDeclined.
func (a *app) confirm(question string, refusal error) error {
	f := a.stdinTerminal()
	if f == nil {
		return refusal
	}
	fmt.Fprintf(a.stderr, "%s [y/N] ", question)
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		fmt.Fprintln(a.stderr) // no answer (/dev/null): end the prompt's line
	}
	if answer := strings.ToLower(strings.TrimSpace(line)); answer != "y" && answer != "yes" {
		return errDeclined
	}
	return nil
}

// attachable refuses to attach to a session there is nothing to attach to
// yet (starting) or whose server does not answer, in lanes' words rather
// than tmux's "no sessions".
func (a *app) attachable(ctx context.Context, r *state.Record) error {
	if r.Adopted { // found by its pane, in a tmux session of the user's
		if err := state.AdoptedPane(r, a.socket); err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		return nil
	}
	if err := notStarted(r); err != nil {
		return err
	}
	_, err := a.tmuxFor(r.Runtime.Socket).HasSession(ctx, r.Runtime.TmuxSession)
	server, _ := serverName(r.Runtime.Socket)
	switch {
	case errors.Is(err, tmux.ErrNoServer):
		return fmt.Errorf("%s: %s is not running, so there is no pane to attach to; `lanes restart %s` starts it again in a new server", r.Name, server, r.Name)
	case isDown(err):
		return fmt.Errorf("%s: %w (%s, %v); try again when it answers — `lanes doctor` says more", r.Name, errTmuxDown, server, err)
	}
	return nil
}
