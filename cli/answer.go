package cli

import (
	"context"
	"errors"
	"fmt"

	"lanes/state"
	"lanes/state/agent"
	"lanes/tmux"
)

// ErrDialogGone: the dialog the user answered is no longer the one the
// agent shows (answered in the pane, or another one opened).
var ErrDialogGone = errors.New("the dialog is gone")

func (a *app) cmdAnswer(ctx context.Context, args []string) int {
	fs := a.flags("answer")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintln(fs.Output(), "\nAnswers the permission dialog the agent shows with its own keys: yes runs the tool")
		fmt.Fprintln(fs.Output(), "once, no refuses it, always runs it and stops asking (where the agent offers that).")
		fmt.Fprintln(fs.Output(), "The keys go only if the session still shows the dialog lanes read; a question is")
		fmt.Fprintln(fs.Output(), "answered in the pane (lanes attach NAME).")
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
	keys, err := agent.KeysFor(seen.Agent, ans)
	if err != nil {
		return "", err
	}
	if err := agent.Answerable(seen); err != nil {
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
	if cur.Activity.AskingTool != seen.Activity.AskingTool || !cur.Activity.DialogAt.Equal(seen.Activity.DialogAt) {
		return "", fmt.Errorf("%w: it changed, and now asks about %s; nothing was sent — look again before answering",
			ErrDialogGone, toolOf(cur))
	}
	err = a.tmuxFor(cur.Runtime.Socket).SendKeys(ctx, cur.Runtime.PaneID, keys...)
	switch {
	case errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
		return "", fmt.Errorf("its pane is gone: %w", err)
	case err != nil:
		return "", fmt.Errorf("%w; look at the pane (lanes attach %s) before answering again", err, cur.Name)
	}
	// The witness looks again soon; a store that does not take the note
	// only makes the card slower to follow.
	sent := a.now()
	_ = a.update(cur.ID, func(r *state.Record, _ *state.Tx) error {
		state.AnsweredFromLanes(r, sent)
		return nil
	})
	return fmt.Sprintf("%s %s in %s", answered[ans], toolOf(cur), cur.Name), nil
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
