package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"lanes/internal/session"
	"lanes/state"
	"lanes/tmux"
)

func (a *app) cmdAttach(ctx context.Context, args []string) int {
	r, code, done := a.named(ctx, a.flags("attach"), args)
	if done {
		return code
	}
	return a.attachTo(ctx, r)
}

// attachTo attaches this terminal to r's pane: switches the tmux client
// it runs in, or attaches tmux in it.
func (a *app) attachTo(ctx context.Context, r *state.Record) int {
	if err := session.Ended(r); err != nil {
		return a.fail(err)
	}
	if err := a.attachable(ctx, r); err != nil {
		return a.fail(err)
	}
	_ = a.svc().Seen(ctx, r) // the human is about to look: only the card depends on it
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
	// tmux attaches only a terminal (/dev/null is a character device but
	// not one); without it tmux says just "open terminal failed".
	if f, isFile := a.stdin.(*os.File); isFile {
		if _, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS); err != nil {
			return a.fail(fmt.Errorf("attach needs a terminal (stdin is not one): run `lanes attach %s` in a terminal or a tmux pane", r.Name))
		}
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
	force := fs.Bool("force", false, "send even while the agent shows a dialog (Enter will answer it) or has not shown its prompt yet")
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
	if err := a.svc().Send(ctx, r, text, *force); err != nil {
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
