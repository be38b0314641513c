package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"lanes/state"
	"lanes/tmux"
)

func (a *app) cmdAttach(ctx context.Context, args []string) int {
	r, code, done := a.named(ctx, a.flags("attach"), args)
	if done {
		return code
	}
	if r.Runtime.Terminated {
		return a.fail(fmt.Errorf("%s: %w", r.Name, state.ErrTerminated))
	}
	tc := a.tmuxFor(r.Runtime.Socket)
	if inside := a.getenv("TMUX"); inside != "" {
		err := tc.SwitchFrom(ctx, inside, r.Runtime.SessionID)
		if errors.Is(err, tmux.ErrOtherServer) {
			err = fmt.Errorf("%s runs on another tmux server than the one this terminal is in: detach first, or nest it with `TMUX= lanes attach %s`", r.Runtime.TmuxSession, r.Name)
		}
		if err != nil {
			return a.fail(err)
		}
		return exitOK
	}
	cmd := tc.AttachCmd(r.Runtime.SessionID)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return a.fail(fmt.Errorf("tmux attach: %w", err))
	}
	return exitOK
}

func (a *app) cmdSend(ctx context.Context, args []string) int {
	fs := a.flags("send")
	force := fs.Bool("force", false, "send even while the agent shows a dialog (Enter will answer it)")
	if code, done := a.parseN(fs, args, 1); done { // the prompt is text, dashes and all
		return code
	}
	if fs.NArg() < 2 {
		return a.usageErr(fs, "send needs a NAME and TEXT")
	}
	r, err := a.resolve(ctx, fs.Arg(0))
	if err != nil {
		return a.fail(err)
	}
	text := strings.Join(fs.Args()[1:], " ")
	if err := a.send(ctx, r, text, *force); err != nil {
		return a.fail(fmt.Errorf("%s: %w", r.Name, err))
	}
	return exitOK
}

// send types text into a live agent's pane, then Enter.
func (a *app) send(ctx context.Context, r *state.Record, text string, force bool) error {
	if err := state.CanSend(r, force); err != nil {
		return err
	}
	return a.tmuxFor(r.Runtime.Socket).SendLiteral(ctx, r.Runtime.PaneID, text)
}
