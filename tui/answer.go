package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"lanes/agent"
	"lanes/state"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// answer answers the selected card's permission dialog with ans (y, N
// or A: docs/design.md §15). The three keys mean nothing else on the
// board (n is always "new", a "all done": a person who pressed n to start
// a session never denies a dialog), so on a card that cannot be answered
// that way each says why. "Always" asks first: it cannot be taken back
// from lanes.
func (m *Model) answer(sel *item, ans agent.Answer) tea.Cmd {
	var why error
	switch {
	case sel == nil:
		why = errors.New("select a session first")
	default:
		why = agent.Answerable(sel.Rec)
		if why == nil {
			_, why = agent.KeysFor(sel.Rec.Agent, ans)
		}
	}
	switch {
	case why != nil && sel == nil:
		return m.flash(why.Error(), true)
	case why != nil:
		return m.flash("can't answer "+sel.Rec.Name+": "+why.Error(), true)
	}
	if cmd := m.refuseStale("answer"); cmd != nil {
		return cmd
	}
	if ans == agent.Always {
		tool := "the tool"
		if !m.o.NoContent {
			// %: the texts below are formats with the session's name.
			tool = strings.ReplaceAll(state.ToolLine(sel.Rec.Activity.Tool, sel.Rec.Activity.ToolInput), "%", "%%")
		}
		m.push(newConfirm(pending{do: &action{verb: "always allow",
			question: "Always allow " + tool + " in %s?",
			detail: "Picks the agent's own \"always\" option: what it then runs without asking is the agent's " +
				"rule, and may be more than this (Claude Code may accept edits for the session); lanes cannot take that back.",
			done: "always allowed " + tool + " in %s", live: true,
			run: func(a Actions, ctx context.Context, r *state.Record) error {
				_, err := a.Answer(ctx, r, agent.Always)
				return err
			}}, rec: *sel.Rec, host: sel.Host}))
		return nil
	}
	m.notifier.actedOn(sel.key(), m.o.Now())
	return answerCmd(m.ctx, m.actionsOn(sel.Host), *sel.Rec, ans)
}

// answerCmd answers on a copy of the record as the card showed it, so the
// dialog meant is the one the user saw.
func answerCmd(ctx context.Context, a Actions, r state.Record, ans agent.Answer) tea.Cmd {
	return func() tea.Msg {
		said, err := a.Answer(ctx, &r, ans)
		if err != nil {
			return actionMsg{err: fmt.Errorf("answer %s: %w", r.Name, err)}
		}
		return actionMsg{text: said}
	}
}

// setAnswerLines renders, per agent, the key line of a card in a
// permission dialog: its answers first, then the board's keys.
func (m *Model) setAnswerLines() {
	m.answerLine = map[state.Agent]string{}
	for _, ag := range state.Agents {
		if len(agent.Offers(ag)) > 0 { // then enter, ? and q: the rest under ?
			line := m.help.ShortHelpView(m.keys.footerKeys(footAnswer, ag))
			m.answerLine[ag] = ansi.Truncate(line, m.w, "…")
		}
	}
}

// answerHelp is the key line for the selection when it is a card in a
// permission dialog.
func (m Model) answerHelp() (string, bool) {
	sel := m.board.selected()
	if len(m.overlays) > 0 || sel == nil || agent.Answerable(sel.Rec) != nil {
		return "", false
	}
	line, ok := m.answerLine[sel.Rec.Agent]
	return line, ok
}
