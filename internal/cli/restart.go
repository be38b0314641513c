package cli

import (
	"context"
	"errors"
	"fmt"

	"lanes/tmux"
)

// cmdRestart is `lanes restart NAME`.
func (a *app) cmdRestart(ctx context.Context, args []string) int {
	fs := a.flags("restart")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintln(fs.Output(), "\nIf the session's tmux server does not answer, or lost the session while lanes could not tell")
		fmt.Fprintln(fs.Output(), "whether it exited, restart starts the session again, in a new server if need be. A session")
		fmt.Fprintln(fs.Output(), "its server's exit ended (lanes ls shows it terminated) comes back with `lanes restore NAME`.")
	}
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	how, err := a.svc().RestartHow(ctx, r)
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
