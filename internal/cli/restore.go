package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"lanes/agent"
	"lanes/internal/session"
	"lanes/state"
)

func (a *app) cmdRestore(ctx context.Context, args []string) int {
	fs := a.flags("restore")
	all := fs.Bool("all", false, "restore every session whose tmux session went away in the last 24 h (after a reboot, say)")
	plan := fs.Bool("plan", false, "print the agent's command restore would run for NAME, as a JSON array, and run nothing")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprint(fs.Output(), "\n"+wrapWords("restore starts a session whose tmux session went away (a reboot, a lost server) again, in its dir, "+
			"resuming its agent's conversation where the agent can ("+resumeForms()+"), else afresh. "+
			"A clean exit is not restored; a session you killed is, when you name it (never by --all).", 90))
	}
	if code, done := a.parse(fs, args); done {
		return code
	}
	switch {
	case *all && fs.NArg() > 0:
		return a.usageErr(fs, "restore takes a NAME or --all, not both")
	case !*all && fs.NArg() != 1:
		return a.usageErr(fs, "restore needs exactly one NAME, or --all")
	case *plan && *all:
		return a.usageErr(fs, "--plan is for one NAME")
	}
	res, err := a.quietCycle(ctx)
	if err != nil {
		return a.fail(err)
	}
	if !*all {
		return a.restoreOne(ctx, res.Records, fs.Arg(0), *plan)
	}
	code := exitOK
	recs := slices.Clone(res.Records)
	slices.SortFunc(recs, func(x, y *state.Record) int { return strings.Compare(x.Name+x.ID, y.Name+y.ID) })
	adopted := 0
	var running []string
	for _, r := range recs {
		if r.Runtime.Terminated && a.now().Sub(r.Runtime.TerminatedAt) > state.RestoreWindow {
			continue // long over: `lanes restore NAME` still brings it back
		}
		if r.Adopted {
			adopted++ // lanes did not start them: one line for all, below
			continue
		}
		said, err := a.svc().RestoreAmong(ctx, r, res.Records, false)
		// One shape for every line: what, which (by id: names repeat), why
		// (without the name again).
		why := func() string {
			if se := (*state.SessionError)(nil); errors.As(err, &se) && se.Name == r.Name {
				return se.Reason.Error()
			}
			return err.Error()
		}
		switch {
		case errors.Is(err, session.ErrRunning) && !errors.Is(err, session.ErrExitedInPlace):
			running = append(running, r.Name) // one line for all, below
		case errors.Is(err, state.ErrNotRestorable), errors.Is(err, session.ErrRunning), errors.Is(err, state.ErrStarting):
			fmt.Fprintf(a.stdout, "skipped %s (%s): %s\n", r.Name, r.ID, why())
		case err != nil:
			fmt.Fprintf(a.stdout, "failed %s (%s): %s\n", r.Name, r.ID, why())
			code = exitError
		default:
			fmt.Fprintln(a.stdout, said)
		}
	}
	if len(running) > 0 {
		fmt.Fprintf(a.stdout, "skipped %d session(s) whose tmux session is there: %s\n", len(running), strings.Join(running, ", "))
	}
	if adopted > 0 {
		fmt.Fprintf(a.stdout, "skipped %d adopted session(s): lanes did not start them, so it does not start them again\n", adopted)
	}
	return code
}

// resumeForms is how each agent resumes, as restore's help says it:
// "claude --resume ID, codex resume ID, …".
func resumeForms() string {
	var forms []string
	for _, ag := range state.CodingAgents() {
		if args := agent.ResumeArgs(ag, "ID"); args != nil {
			forms = append(forms, string(ag)+" "+strings.Join(args, " "))
		}
	}
	return strings.Join(forms, ", ")
}

// wrapWords is text in lines of at most width characters, broken between
// words, each line ended.
func wrapWords(text string, width int) string {
	var b, line strings.Builder
	for _, w := range strings.Fields(text) {
		if line.Len() > 0 && line.Len()+1+len(w) > width {
			b.WriteString(line.String() + "\n")
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(w)
	}
	return b.String() + line.String() + "\n"
}

// restorePlan is `lanes restore NAME --plan`: the command restore would
// run, as a JSON array (the board of another host shows it to confirm).
func (a *app) restorePlan(ctx context.Context, r *state.Record) int {
	argv, err := a.svc().RestorePlan(ctx, r)
	if err != nil {
		return a.fail(err)
	}
	b, _ := json.Marshal(argv)
	fmt.Fprintf(a.stdout, "%s\n", state.JSONSafe(b))
	return exitOK
}

// restoreOne is `lanes restore NAME [--plan]` among all.
func (a *app) restoreOne(ctx context.Context, all []*state.Record, name string, plan bool) int {
	r, err := state.Resolve(all, name)
	if err != nil {
		return a.fail(err)
	}
	if plan {
		return a.restorePlan(ctx, r)
	}
	said, err := a.svc().RestoreAmong(ctx, r, all, true)
	if err != nil {
		return a.fail(err)
	}
	fmt.Fprintln(a.stdout, said)
	return exitOK
}
