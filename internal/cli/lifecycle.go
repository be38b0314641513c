package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"lanes/internal/session"
	"lanes/state"
	"lanes/tmux"
)

// errDeclined: the user was asked and did not say yes. The question
// explained why it was asked, so the refusal need not again.
var errDeclined = errors.New("not confirmed; nothing was changed")

// errNoAnswer: the question got no answer, stdin ending first (a script's
// /dev/null). Every command that asks takes --yes.
var errNoAnswer = errors.New("no answer came (stdin ended before one); nothing was changed: --yes goes ahead without asking")

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
	if err != nil && strings.TrimSpace(line) == "" {
		fmt.Fprintln(a.stderr) // no answer (/dev/null): end the prompt's line
		return errNoAnswer
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
	if err := session.NotStarted(r); err != nil {
		return err
	}
	_, err := a.tmuxFor(r.Runtime.Socket).HasSession(ctx, r.Runtime.TmuxSession)
	server, _ := tmux.ServerName(r.Runtime.Socket)
	switch {
	case errors.Is(err, tmux.ErrNoServer):
		return fmt.Errorf("%s: %s is not running, so there is no pane to attach to; `lanes restart %s` starts it again in a new server", r.Name, server, r.Name)
	case session.IsDown(err):
		return fmt.Errorf("%s: %w (%s, %v); try again when it answers — `lanes doctor` says more", r.Name, session.ErrTmuxDown, server, err)
	}
	return nil
}
