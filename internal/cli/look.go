package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"lanes/state"
)

// The board's looks and marks as commands: what it shows of one session
// (its pane, its diff, its history) and what it stores of the human's
// (mute, seen). A board on another host runs them here over ssh, so a
// remote card offers what a local one does (docs/design.md §16).

func (a *app) cmdPeek(ctx context.Context, args []string) int {
	fs := a.flags("peek")
	color := fs.Bool("color", false, "keep the pane's colours, as tmux draws them (SGR sequences)")
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	out, err := a.svc().Peek(ctx, r)
	if err != nil {
		return a.fail(err)
	}
	if !*color { // an agent's screen: its words, no sequence of its own
		out = []byte(state.CleanLines(string(out)))
	}
	_, _ = a.stdout.Write(writtenLines(out))
	return exitOK
}

// writtenLines is a pane's capture down to its last written line: the
// blank rows below it would leave `lanes peek NAME | tail` nothing.
func writtenLines(out []byte) []byte {
	lines := strings.Split(string(out), "\n")
	for len(lines) > 0 && strings.TrimSpace(state.CleanLines(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

func (a *app) cmdDiff(ctx context.Context, args []string) int {
	fs := a.flags("diff")
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	out, err := a.svc().Diff(ctx, r)
	if err != nil {
		return a.fail(err)
	}
	_, _ = a.stdout.Write([]byte(state.CleanLines(string(out)))) // a checkout's words
	return exitOK
}

func (a *app) cmdHistory(ctx context.Context, args []string) int {
	fs := a.flags("history")
	asJSON := fs.Bool("json", false, "print the transitions as a JSON array")
	n := fs.Int("last", 30, "the latest `N` transitions")
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	if *n < 1 || *n > state.HistoryLimit {
		return a.usageErr(fs, "--last is from 1 to %d", state.HistoryLimit)
	}
	trs, err := a.svc().History(ctx, r.ID, *n)
	if err != nil {
		return a.fail(err)
	}
	if *asJSON {
		if trs == nil {
			trs = []state.Transition{}
		}
		b, _ := json.Marshal(trs)
		fmt.Fprintf(a.stdout, "%s\n", state.JSONSafe(b)) // as ls --json: no C1 or bidi raw
		return exitOK
	}
	if len(trs) == 0 {
		fmt.Fprintf(a.stdout, "%s: no status changes yet\n", r.Name)
	}
	for _, tr := range trs {
		fmt.Fprintf(a.stdout, "%s  %s → %s  %s: %s\n", tr.At.Local().Format(time.DateTime), tr.From, tr.To,
			state.CleanText(tr.Source), state.CleanText(tr.Detail))
	}
	return exitOK
}

func (a *app) cmdMute(ctx context.Context, args []string) int {
	fs := a.flags("mute")
	off := fs.Bool("off", false, "notify again when the session enters Needs you")
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	if err := a.svc().Mute(ctx, r, !*off); err != nil {
		return a.fail(err)
	}
	if *off {
		fmt.Fprintf(a.stdout, "unmuted %s: Needs you notifies again\n", r.Name)
	} else {
		fmt.Fprintf(a.stdout, "muted %s: entering Needs you notifies nobody (lanes mute %s --off)\n", r.Name, r.Name)
	}
	return exitOK
}

func (a *app) cmdSeen(ctx context.Context, args []string) int {
	fs := a.flags("seen")
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	if err := a.svc().Seen(ctx, r); err != nil {
		return a.fail(err)
	}
	return exitOK
}
