package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/state"
	"lanes/state/agent"
	"lanes/tmux"
)

// ErrDialogGone: the dialog the user answered is no longer the one the
// agent shows (answered in the pane, or another one opened).
var ErrDialogGone = errors.New("the dialog is gone")

func (a *app) cmdAnswer(ctx context.Context, args []string) int {
	fs := a.flags("answer")
	dialog := fs.String("dialog", "", "answer only the dialog opened at `TIME` (dialog_at in lanes ls --json); else the one it shows now")
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
		if !r.Activity.DialogAt.Equal(at) {
			return a.fail(fmt.Errorf("%s: %w: the dialog it shows opened at %s; nothing was sent", r.Name, ErrDialogGone, rfc3339Nano(r.Activity.DialogAt)))
		}
	}
	said, err := a.answer(ctx, r, ans)
	if err != nil {
		return a.fail(fmt.Errorf("%s: %w", r.Name, err))
	}
	fmt.Fprintln(a.stdout, said)
	return exitOK
}

// answer presses the keys that answer the permission dialog seen shows,
// and says what was answered ("approved Bash: npm test in api"). seen is
// the record as the user saw it: the keys go only if the record read
// fresh now, after a cycle, still shows that same dialog (the same asking
// tool call, opened at the same time), so a stale board or a dialog
// answered meanwhile in the pane never gets a key meant for another.
func (a *app) answer(ctx context.Context, seen *state.Record, ans agent.Answer) (string, error) {
	if err := agent.Answerable(seen); err != nil {
		return "", err
	}
	keys, err := agent.KeysFor(seen.Agent, ans)
	if err != nil {
		return "", err
	}
	res, err := a.quietCycle(ctx)
	if err != nil {
		return "", fmt.Errorf("reading the session before answering: %w; nothing was sent", err)
	}
	cur, err := state.Resolve(res.Records, seen.ID)
	if err != nil {
		return "", err
	}
	if err := agent.Answerable(cur); err != nil {
		if errors.Is(err, agent.ErrNoDialog) {
			return "", fmt.Errorf("%w (answered meanwhile?); nothing was sent", ErrDialogGone)
		}
		return "", err
	}
	if c, s := cur.Activity, seen.Activity; c.AskingTool != s.AskingTool || !c.DialogAt.Equal(s.DialogAt) ||
		c.Tool != s.Tool || c.ToolInput != s.ToolInput || c.Question != s.Question {
		return "", fmt.Errorf("%w: it changed, and now asks about %s; nothing was sent — look again before answering",
			ErrDialogGone, toolOf(cur))
	}
	// The record can lag the screen by a few seconds (a dialog answered
	// in the pane says so through no hook): the keys go only while the
	// pane shows the very option they pick.
	tc := a.tmuxFor(cur.Runtime.Socket)
	screen, err := tc.CaptureText(ctx, cur.Runtime.PaneID)
	if err != nil {
		return "", fmt.Errorf("reading its pane before answering: %w; nothing was sent", err)
	}
	if !agent.ShowsOption(cur.Agent, ans, string(screen)) {
		return "", fmt.Errorf("%w: its pane no longer shows the dialog's %q; nothing was sent", ErrDialogGone, agent.Words(cur.Agent)[ans])
	}
	err = tc.SendKeys(ctx, cur.Runtime.PaneID, keys...)
	switch {
	case errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
		return "", fmt.Errorf("its pane is gone (the session ended); nothing was sent")
	case err != nil:
		return "", fmt.Errorf("%w; look at the pane (lanes attach %s) before answering again", err, cur.Name)
	}
	sent := a.now()
	after, at, gone := a.watchAnswer(ctx, tc, cur, ans)
	// The dialog takes no second answer, and the card follows the screen
	// at once: lanes' own look counts as the witness's (§11), and the
	// witness looks again soon. A store that does not take the note only
	// makes the card slower to follow; the pane check above still guards
	// a second answer.
	_ = a.update(cur.ID, func(r *state.Record, tx *state.Tx) error {
		if !r.Activity.Dialog || !r.Activity.DialogAt.Equal(cur.Activity.DialogAt) {
			return nil // another dialog since, or none: nothing to note
		}
		var tr *state.Transition
		if gone {
			tr = state.SeeScreen(r, after, at)
		}
		state.AnsweredFromLanes(r, sent)
		if tr != nil {
			return tx.AppendHistory(r.ID, *tr)
		}
		return nil
	})
	return fmt.Sprintf("%s %s in %s", answered[ans], toolOf(cur), cur.Name), nil
}

// answerLook bounds how long answer watches the pane for the dialog to go.
const answerLook = time.Second

// watchAnswer captures r's pane until the option just answered is gone
// from it (gone: the screen and when it was taken), for at most
// answerLook: an agent redraws within a few hundred milliseconds.
func (a *app) watchAnswer(ctx context.Context, tc *tmux.Client, r *state.Record, ans agent.Answer) (screen string, at time.Time, gone bool) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for end := time.Now().Add(answerLook); time.Now().Before(end); {
		select {
		case <-ctx.Done():
			return "", time.Time{}, false
		case <-tick.C:
		}
		b, err := tc.CaptureText(ctx, r.Runtime.PaneID)
		if err != nil {
			return "", time.Time{}, false
		}
		if !agent.ShowsOption(r.Agent, ans, string(b)) {
			return string(b), a.now(), true
		}
	}
	return "", time.Time{}, false
}

// answered is what the confirmation says was done.
var answered = map[agent.Answer]string{agent.Yes: "approved", agent.No: "denied", agent.Always: "always allowed"}

// toolOf is the tool call a dialog asks about, as the card shows it.
func toolOf(r *state.Record) string {
	if s := state.ToolLine(r.Activity.Tool, r.Activity.ToolInput); s != "" {
		return s
	}
	return "a tool"
}
