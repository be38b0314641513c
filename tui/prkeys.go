package tui

import (
	"fmt"

	"lanes/internal/shell"
	"lanes/state"

	tea "charm.land/bubbletea/v2"
)

// openPR opens the selected card's PR in a browser (o): the command line
// picks the PR and the browser, off the event loop.
func (m *Model) openPR(sel *item) tea.Cmd {
	if sel == nil {
		return m.flash("select a session first", true)
	}
	r := *sel.Rec
	a, ctx := m.actionsOn(sel.Host), m.ctx
	return func() tea.Msg {
		said, err := a.OpenPR(ctx, &r)
		if err != nil {
			return actionMsg{err: fmt.Errorf("open the PR of %s: %w", r.Name, err)}
		}
		return actionMsg{text: said}
	}
}

// askCreatePR opens the confirm of P, which shows the commands it runs, or
// says why the selected session cannot have a PR made for it.
func (m *Model) askCreatePR(sel *item) tea.Cmd {
	if cmd := m.refuseStale("create a PR"); cmd != nil {
		return cmd
	}
	if sel == nil {
		return m.flash("select a session first", true)
	}
	r := sel.Rec
	if p, ok := state.BadgePR(r.PRs); ok {
		if _, open := state.PRStatus(p); open {
			return m.flash(fmt.Sprintf("%s already has PR #%d (o opens it)", r.Name, p.Number), true)
		}
	}
	switch {
	case !r.Live():
		return m.flash(r.Name+" is terminated; P makes a PR for a live session's branch (lanes pr records one made elsewhere)", true)
	case !r.OnBranch():
		return m.flash(r.Name+" is on no branch lanes can read: its directory is not in a git checkout, or its HEAD is no git file", true)
	}
	push, create := state.PRCreate(r.Branch)
	do := &action{verb: "create a PR for", question: "Create a PR for %s?",
		detail: "In " + shell.Words([]string{r.Dir}) + " it runs\n  " + shell.Words(push) + "\n  " + shell.Words(create) +
			"\nand records the PR gh prints.",
		live: true, doing: "creating a PR for " + r.Name + "…",
		say: Actions.CreatePR}
	m.push(newConfirm(pending{do: do, rec: *r, host: sel.Host}))
	return nil
}

// askCleanUp asks to clean up a session whose PR merged in one step: end
// it when it runs, remove its worktree when clean, and its record.
func (m *Model) askCleanUp(sel *item) tea.Cmd {
	detail := "Its PR merged: its record, history and spool are deleted."
	if sel.Rec.Live() && !sel.Rec.Adopted {
		detail = "Its PR merged: its agent and tmux session end, and its record, history and spool are deleted."
	}
	if wt := sel.Rec.Git.Worktree; wt != "" && !sel.Rec.Adopted {
		detail += " Its worktree " + wt + " goes too if it is clean (one with changes stays, and the board says why); its branch stays."
	}
	do := &action{verb: "clean up", question: "Clean up %s?", detail: detail,
		doing: "cleaning up " + sel.Rec.Name + "…", say: Actions.CleanUp}
	m.push(newConfirm(pending{do: do, rec: *sel.Rec, host: sel.Host}))
	return nil
}
