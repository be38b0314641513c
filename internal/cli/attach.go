package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"lanes/agent"
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
	if err := a.attachable(ctx, r); err != nil {
		return a.fail(err)
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
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		// A first word like -x is refused as an unknown flag rather than
		// typed: a mistyped --force would otherwise reach the agent.
		fmt.Fprintln(fs.Output(), "\nTo send text that starts with '-', put -- before it: lanes send NAME -- -x")
		fmt.Fprintln(fs.Output(), "TEXT - reads the prompt from stdin, which other users cannot see (argv they can).")
	}
	if _, code, done := a.parseWith(fs, args, 1); done { // the prompt is text, dashes and all
		return code
	}
	if fs.NArg() < 2 {
		return a.usageErr(fs, "send needs a NAME and TEXT")
	}
	text := strings.Join(fs.Args()[1:], " ")
	if text == "-" {
		var err error
		if text, err = a.readPrompt(); err != nil {
			return a.fail(err)
		}
	}
	if strings.TrimSpace(text) == "" {
		// Enter alone would submit whatever the agent's input holds.
		return a.usageErr(fs, "nothing to send: TEXT is blank")
	}
	r, err := a.resolve(ctx, fs.Arg(0))
	if err != nil {
		return a.fail(err)
	}
	if err := a.send(ctx, r, text, *force); err != nil {
		return a.fail(fmt.Errorf("%s: %w", r.Name, err))
	}
	return exitOK
}

// maxPrompt bounds a prompt read from stdin: far more than anyone types,
// small enough that a wrong pipe fails instead of filling memory.
const maxPrompt = 1 << 20

// readPrompt reads `lanes send NAME -`'s prompt from stdin, with CRLF line
// ends as LF (a lone CR would submit early, so it stays refused) and
// without the final newline that echo and editors add (it would press Enter
// early). On a terminal it first says how to end the prompt.
func (a *app) readPrompt() (string, error) {
	if a.stdinTerminal() != nil {
		fmt.Fprintln(a.stderr, "lanes: reading the prompt from stdin; end it with Ctrl-D")
	}
	b, err := io.ReadAll(io.LimitReader(a.stdin, maxPrompt+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("reading the prompt from stdin: %w", err)
	case len(b) > maxPrompt:
		return "", fmt.Errorf("the prompt on stdin is over %d MiB; nothing was sent", maxPrompt>>20)
	}
	return strings.TrimSuffix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), nil
}

// send types text into a live agent's pane, then Enter.
func (a *app) send(ctx context.Context, r *state.Record, text string, force bool) error {
	if err := state.CanSend(r, force); err != nil {
		if errors.Is(err, state.ErrStarting) {
			return fmt.Errorf("%w; try again in a moment, or `lanes kill %s`", err, r.Name)
		}
		return err
	}
	if r.Adopted {
		if err := state.AdoptedPane(r, a.socket); err != nil {
			return err
		}
	}
	tc := a.tmuxFor(r.Runtime.Socket)
	if !force { // --force answers what the agent shows, prompt or not
		if err := a.awaitPrompt(ctx, tc, r); err != nil {
			return err
		}
	}
	err := tc.SendText(ctx, r.Runtime.PaneID, agent.Prompt(r.Agent, text))
	switch {
	case err == nil, errors.Is(err, tmux.ErrInvalid), errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
		return err // nothing to look at: the text was refused, or the pane is gone
	}
	// A timeout leaves it open what the pane holds now.
	return fmt.Errorf("%w; look at the pane (lanes attach %s) before sending again", err, r.Name)
}

// How long after its start an agent may still be drawing its first
// screen, and how long send waits for its prompt to show.
const (
	startingUp = 30 * time.Second
	readyWait  = 20 * time.Second
)

// awaitPrompt waits, in an idle session started less than startingUp ago,
// until the agent's screen shows its idle prompt (its witness markers,
// docs/design.md §11). An agent still starting drops what is typed: the
// real Gemini CLI lost a prompt sent 2 s after its start, and send said it
// was sent. An agent with no markers, an older session, or one already
// working (it takes a prompt typed meanwhile) is not read.
func (a *app) awaitPrompt(ctx context.Context, tc *tmux.Client, r *state.Record) error {
	m, ok := state.MarkersOf(r.Agent)
	if !ok || r.Activity.State != state.ActivityIdle || a.now().Sub(r.Runtime.PaneStartedAt) >= startingUp {
		return nil
	}
	deadline := time.Now().Add(a.readyWait)
	for {
		screen, err := tc.CaptureText(ctx, r.Runtime.PaneID)
		switch {
		case err == nil && m.Ready(state.Screen(screen)):
			return nil
		case errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
			return err // the pane is gone: nothing to wait for
		case time.Now().After(deadline):
			return fmt.Errorf("the agent has just started and its prompt did not show within %s, so it may not take the text; nothing was sent — look at the pane (lanes attach %s)",
				a.readyWait, r.Name)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s's prompt: %w; nothing was sent", r.Name, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
