package cli

import (
	"context"
	"fmt"
	"time"

	"lanes/agent"
	"lanes/internal/listing"
	"lanes/internal/session"
)

func (a *app) cmdAnswer(ctx context.Context, args []string) int {
	fs := a.flags("answer")
	dialog := fs.String("dialog", "", "answer only the dialog opened at `TIME` (dialog_at in lanes ls --json, whole); else the one it shows now")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintln(fs.Output(), "\nyes (y) runs the tool once, no (n) refuses it, always (a) runs it and stops asking")
		fmt.Fprintln(fs.Output(), "(where the agent offers that). The keys go only if the session still shows the")
		fmt.Fprintln(fs.Output(), "dialog lanes read, and its pane the option they pick; one answer per dialog. A")
		fmt.Fprintln(fs.Output(), "question is answered in the pane (lanes attach NAME).")
	}
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() != 2 {
		return a.usageErr(fs, "answer needs a NAME and yes, no or always")
	}
	ans, err := agent.ParseAnswer(fs.Arg(1))
	if err != nil {
		return a.usageErr(fs, "%v", err)
	}
	r, err := a.resolve(ctx, fs.Arg(0))
	if err != nil {
		return a.fail(err)
	}
	if *dialog != "" {
		at, err := time.Parse(time.RFC3339Nano, *dialog)
		if err != nil {
			return a.usageErr(fs, "--dialog %q is not an RFC 3339 time (copy dialog_at from lanes ls --json)", *dialog)
		}
		// dialog_at whole: two dialogs may open in one second.
		switch {
		case !r.Activity.Dialog:
			return a.fail(fmt.Errorf("%s: %w: it shows no dialog now; nothing was sent", r.Name, session.ErrDialogGone))
		case !r.Activity.DialogAt.Equal(at):
			return a.fail(fmt.Errorf("%s: %w: the dialog it shows opened at %s; nothing was sent", r.Name, session.ErrDialogGone, listing.RFC3339Nano(r.Activity.DialogAt)))
		}
	}
	said, err := a.svc().Answer(ctx, r, ans)
	if err != nil {
		return a.fail(fmt.Errorf("%s: %w", r.Name, err))
	}
	fmt.Fprintln(a.stdout, said)
	return exitOK
}
