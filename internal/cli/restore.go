package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"lanes/agent"
	"lanes/state"
	"lanes/tmux"
)

// restoring is how `lanes restore` brings a session back: its agent's
// arguments with the resume arguments appended, and the id resumed ("" for
// a fresh start).
type restoring struct {
	args     []string
	resumeID string
}

// shows is the agent's command as restore runs it, without the flags lanes
// injects, for the board's confirm.
func (p restoring) shows(r *state.Record) []string {
	if r.Agent == state.AgentCustom {
		return p.args
	}
	return append([]string{string(r.Agent)}, p.args...)
}

// errRunning: the session's tmux session is there; nothing to restore.
var errRunning = errors.New("is running")

func (a *app) cmdRestore(ctx context.Context, args []string) int {
	fs := a.flags("restore")
	all := fs.Bool("all", false, "restore every session whose tmux session went away in the last 24 h (after a reboot, say)")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintln(fs.Output(), "\nrestore starts a session whose tmux session went away (a reboot, a lost server) again, in")
		fmt.Fprintln(fs.Output(), "its dir, resuming its agent's conversation where the agent can (claude --resume ID, codex")
		fmt.Fprintln(fs.Output(), "resume ID, gemini --resume ID, opencode -s ID), else afresh. A clean exit is not restored.")
	}
	if code, done := a.parse(fs, args); done {
		return code
	}
	switch {
	case *all && fs.NArg() > 0:
		return a.usageErr(fs, "restore takes a NAME or --all, not both")
	case !*all && fs.NArg() != 1:
		return a.usageErr(fs, "restore needs exactly one NAME, or --all")
	}
	res, err := a.quietCycle(ctx)
	if err != nil {
		return a.fail(err)
	}
	if !*all {
		r, err := state.Resolve(res.Records, fs.Arg(0))
		if err != nil {
			return a.fail(err)
		}
		said, err := a.restore(ctx, r, res.Records)
		if err != nil {
			return a.fail(err)
		}
		fmt.Fprintln(a.stdout, said)
		return exitOK
	}
	code := exitOK
	recs := slices.Clone(res.Records)
	slices.SortFunc(recs, func(x, y *state.Record) int { return strings.Compare(x.Name+x.ID, y.Name+y.ID) })
	adopted := 0
	for _, r := range recs {
		if r.Runtime.Terminated && a.now().Sub(r.Runtime.TerminatedAt) > state.RestoreWindow {
			continue // long over: `lanes restore NAME` still brings it back
		}
		if r.Adopted {
			adopted++ // lanes did not start them: one line for all, below
			continue
		}
		said, err := a.restore(ctx, r, res.Records)
		// One shape for every line: what, which (by id: names repeat), why
		// (without the name again).
		why := func() string {
			if se := (*state.SessionError)(nil); errors.As(err, &se) && se.Name == r.Name {
				return se.Reason.Error()
			}
			return err.Error()
		}
		switch {
		case errors.Is(err, state.ErrNotRestorable), errors.Is(err, errRunning), errors.Is(err, state.ErrStarting):
			fmt.Fprintf(a.stdout, "skipped %s (%s): %s\n", r.Name, r.ID, why())
		case err != nil:
			fmt.Fprintf(a.stdout, "failed %s (%s): %s\n", r.Name, r.ID, why())
			code = exitError
		default:
			fmt.Fprintln(a.stdout, said)
		}
	}
	if adopted > 0 {
		fmt.Fprintf(a.stdout, "skipped %d adopted session(s): lanes did not start them, so it does not start them again\n", adopted)
	}
	return code
}

// restore starts r again (see cmdRestore) and says how; all is every
// record, to refuse a name a live session has taken since.
func (a *app) restore(ctx context.Context, r *state.Record, all []*state.Record) (string, error) {
	plan, err := a.planRestore(ctx, r, all)
	if err != nil {
		return "", err
	}
	if r.Runtime.Terminated {
		if err := a.update(r.ID, func(cur *state.Record, _ *state.Tx) error {
			if err := state.Revive(cur); err != nil {
				return err
			}
			*r = *cur
			return nil
		}); err != nil {
			return "", fmt.Errorf("restoring %s: %w", r.Name, err)
		}
	}
	if _, err := a.restart(ctx, r, plan.args); err != nil {
		return "", err
	}
	if plan.resumeID == "" {
		return fmt.Sprintf("restored %s (%s): no conversation to resume; started afresh", r.Name, r.ID), nil
	}
	return fmt.Sprintf("restored %s (%s): resumed %s conversation %s", r.Name, r.ID, r.Agent, plan.resumeID), nil
}

// planRestore is how r would be restored, or why it is not.
func (a *app) planRestore(ctx context.Context, r *state.Record, all []*state.Record) (restoring, error) {
	if err := state.Restorable(r); err != nil {
		return restoring{}, err
	}
	if r.Runtime.Terminated {
		for _, o := range all {
			if o.Live() && o.Name == r.Name {
				return restoring{}, &state.SessionError{Name: r.Name, Reason: fmt.Errorf("%w: live session %s has its name now", state.ErrNotRestorable, o.ID)}
			}
		}
	}
	if err := notStarted(r); err != nil {
		return restoring{}, err
	}
	pane, err := findPane(ctx, a.tmuxFor(r.Runtime.Socket), r.ID)
	not := func(verb bool, format string, args ...any) (restoring, error) {
		return restoring{}, &state.SessionError{Name: r.Name, Reason: fmt.Errorf(format, args...), Verb: verb}
	}
	switch {
	case isDown(err) && !errors.Is(err, tmux.ErrNoServer):
		return not(false, "tmux is not answering (%v); restore it once tmux does", err)
	case err != nil && !errors.Is(err, tmux.ErrNoServer):
		return not(false, "reading its tmux server: %w", err)
	case pane.PaneID != "" && pane.Dead:
		return not(true, "%w no more: its agent exited but its tmux session is there; `lanes restart %s`", errRunning, r.Name)
	case pane.PaneID != "":
		return not(true, "%w; `lanes attach %s`", errRunning, r.Name)
	}
	if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
		return not(false, "%w: its directory %s is gone", state.ErrNotRestorable, r.Dir)
	}
	id := state.ResumeID(r)
	return restoring{args: append(agentArgs(r), agent.ResumeArgs(r.Agent, id)...), resumeID: id}, nil
}
