package state

import (
	"errors"
	"fmt"
)

// Reasons a prompt may not be typed into a session (docs/design.md §8).
var (
	ErrAgentExited = errors.New("agent exited — its pane may be a shell now")
	ErrTerminated  = errors.New("session terminated")
	ErrInDialog    = errors.New("agent is showing a dialog — Enter would answer it; answer it with `lanes answer` (the board's y, N, A) or attach")
	// ErrInMenu: the idle pane showed one of the agent's menus.
	ErrInMenu = errors.New("its pane shows a menu (a slash command's list) — the text would search or pick in it; Esc closes it there (attach), or send --force")
	// ErrUnreachable: the pane's tmux server is not answering, so what the
	// pane holds now is not known.
	ErrUnreachable = errors.New("tmux is not answering; nothing was sent")
)

// deadPane is ErrAgentExited when lanes knows the pane is dead (tmux kept
// it with its exit status), not a shell: it says so, and the way back.
type deadPane struct{ r *Record }

func (e deadPane) Error() string {
	exit := "exit status unknown"
	switch p := e.r.Pane; {
	case p.ExitSignal != "":
		exit = p.ExitSignal
	case p.ExitStatus != nil:
		exit = fmt.Sprintf("exit %d", *p.ExitStatus)
	}
	return fmt.Sprintf("agent exited — its pane is dead (%s); restart it with `lanes restart %s`", exit, e.r.Name)
}

func (e deadPane) Unwrap() error { return ErrAgentExited }

// CanSend reports whether text may be typed into the session's pane: only a
// live agent, not in a dialog unless force is set, on a server that answers.
// Only the dialog fact refuses: a generic script's waiting_input is a stdin
// prompt, which the text answers.
// It reads raw facts, so it holds even while tmux is unreachable. An
// adopted session must run in a pane lanes has read; whether that pane is
// on the server the command reads is AdoptedPane's, where that is known.
func CanSend(r *Record, force bool) error {
	switch {
	case r.Runtime.Terminated:
		return ErrTerminated
	case r.Adopted && !paneRead(r):
		return ErrNoPane
	case r.Starting():
		return ErrStarting
	case r.Pane.Dead:
		return deadPane{r}
	case r.Activity.State == ActivityExited:
		return ErrAgentExited
	case !force && r.Activity.Dialog:
		return ErrInDialog
	case !force && r.Activity.Menu && r.Activity.State == ActivityIdle:
		return ErrInMenu
	case !r.Runtime.UnreachableSince.IsZero():
		return ErrUnreachable
	}
	return nil
}
