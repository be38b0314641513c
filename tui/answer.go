package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"lanes/agent"
	"lanes/state"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// answerKey answers the selected card's permission dialog with y, N or A
// (docs/design.md §15); ok is false when the key is none of them. The
// three mean nothing else on the board (n is always "new", a "all done":
// a person who pressed n to start a session never denies a dialog), so on
// a card that cannot be answered that way each says why. "Always" asks
// first: it cannot be taken back from lanes.
func (m *Model) answerKey(k tea.KeyPressMsg, sel *item) (tea.Cmd, bool) {
	var ans agent.Answer
	switch {
	case key.Matches(k, m.keys.Allow):
		ans = agent.Yes
	case key.Matches(k, m.keys.Deny):
		ans = agent.No
	case key.Matches(k, m.keys.Always):
		ans = agent.Always
	default:
		return nil, false
	}
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
		return m.flash(why.Error(), true), true
	case why != nil:
		return m.flash("can't answer "+sel.Rec.Name+": "+why.Error(), true), true
	}
	if cmd := m.refuseStale("answer"); cmd != nil {
		return cmd, true
	}
	if ans == agent.Always {
		tool := "the tool"
		if !m.o.NoContent {
			// %: the texts below are formats with the session's name.
			tool = strings.ReplaceAll(state.ToolLine(sel.Rec.Activity.Tool, sel.Rec.Activity.ToolInput), "%", "%%")
		}
		m.confirm = newConfirm(pending{do: &action{verb: "always allow",
			question: "Always allow " + tool + " in %s?",
			detail: "Picks the agent's own \"always\" option: what it then runs without asking is the agent's " +
				"rule, and may be more than this (Claude Code may accept edits for the session); lanes cannot take that back.",
			done: "always allowed " + tool + " in %s", live: true,
			run: func(a Actions, ctx context.Context, r *state.Record) error {
				_, err := a.Answer(ctx, r, agent.Always)
				return err
			}}, rec: *sel.Rec, host: sel.Host})
		m.mode = modeConfirm
		return nil, true
	}
	m.notifier.actedOn(sel.key(), m.o.Now())
	return answerCmd(m.ctx, m.actionsOn(sel.Host), *sel.Rec, ans), true
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

// answerBindings are the answer keys agent ag's dialog takes.
func (k keyMap) answerBindings(ag state.Agent) []key.Binding {
	var out []key.Binding
	for _, ans := range agent.Offers(ag) {
		out = append(out, map[agent.Answer]key.Binding{agent.Yes: k.Allow, agent.No: k.Deny, agent.Always: k.Always}[ans])
	}
	return out
}

// setAnswerLines renders, per agent, the key line of a card in a
// permission dialog: its answers first, then the board's keys.
func (m *Model) setAnswerLines() {
	m.answerLine = map[state.Agent]string{}
	for _, ag := range state.Agents {
		if b := m.keys.answerBindings(ag); len(b) > 0 {
			b = append(b, m.keys.Attach, m.keys.Help, m.keys.Quit) // the rest under ?
			line := m.help.ShortHelpView(b)
			m.answerLine[ag] = ansi.Truncate(line, m.w, "…")
		}
	}
}

// answerLine is the key line for the selection when it is a card in a
// permission dialog.
func (m Model) answerHelp() (string, bool) {
	sel := m.board.selected()
	if m.mode != modeBoard || sel == nil || agent.Answerable(sel.Rec) != nil {
		return "", false
	}
	line, ok := m.answerLine[sel.Rec.Agent]
	return line, ok
}
