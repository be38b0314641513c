package tui

import (
	"slices"
	"strings"

	"lanes/state"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// newDialog asks for a new session's name, agent, directory, whether it gets
// a git worktree of its own, and arguments (for a custom agent, the command).
// It stays open while the session starts, so a failure is shown where it
// was typed.
type newDialog struct {
	name, dir, args textinput.Model
	agent           int // index into dialogAgents
	worktree        bool
	prefix          string // a new worktree's branch starts with it (this host's)
	focus           int    // one of the fields below
	err             string
	busy            bool
	host            string // where the session starts: "" this host
}

// The new-session dialog's fields, in tab order.
const (
	fieldName = iota
	fieldAgent
	fieldDir
	fieldWorktree
	fieldArgs
	nFields
)

// dialogAgents are the agents the dialog offers: the known ones, then any
// command (custom), whose arguments are the command itself.
var dialogAgents = append(slices.Clone(state.Agents), state.AgentCustom)

func newNewDialog(l *look, dir string, agent state.Agent) newDialog {
	d := newDialog{name: newInput(l, "name  ", "letters, digits, - or _"), dir: newInput(l, "dir   ", ""),
		args: newInput(l, "args  ", "")}
	d.agent = max(slices.Index(dialogAgents, agent), 0)
	d.dir.SetValue(dir)
	d.name.Focus()
	return d.withAgent(d.agent)
}

// withAgent selects agent i and says what its arguments are.
func (d newDialog) withAgent(i int) newDialog {
	d.agent = i
	d.args.Prompt, d.args.Placeholder = "args  ", "optional, e.g. --model opus"
	if dialogAgents[i] == state.AgentCustom {
		d.args.Prompt, d.args.Placeholder = "cmd   ", "the command to run, e.g. make watch"
	}
	return d
}

// update edits the dialog; esc closes it (closeDialogMsg), enter asks the board to start
// the session (submitNewMsg).
func (d newDialog) update(b *Model, msg tea.Msg) (overlay, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || d.busy {
		return d, nil
	}
	// As wide as it shows before it scrolls: a field sized in view only
	// scrolled for the width it had, and wrapped below 56 columns.
	d.name, d.dir, d.args = fitInput(d.name, b.w), fitInput(d.dir, b.w), fitInput(d.args, b.w)
	switch k.String() {
	case "esc":
		return d, closeDialog
	case "tab", "down":
		return d.setFocus((d.focus + 1) % nFields), nil
	case "shift+tab", "up":
		return d.setFocus((d.focus + nFields - 1) % nFields), nil
	case "enter":
		return d.submit()
	}
	var cmd tea.Cmd
	switch d.focus {
	case fieldName:
		d.name, cmd = d.name.Update(msg)
		d.err = ""
		if v := d.name.Value(); v != "" {
			d.err = state.NameProblem(v)
		}
	case fieldAgent:
		switch k.String() {
		case "left", "h":
			d = d.withAgent((d.agent + len(dialogAgents) - 1) % len(dialogAgents))
		case "right", "l", "space":
			d = d.withAgent((d.agent + 1) % len(dialogAgents))
		}
		d.err = ""
	case fieldWorktree:
		switch k.String() {
		case "left", "h", "right", "l", "space":
			d.worktree = !d.worktree
		}
	case fieldDir:
		d.dir, cmd = d.dir.Update(msg)
	case fieldArgs:
		d.args, cmd = d.args.Update(msg)
		d.err = ""
	}
	return d, cmd
}

func (d newDialog) setFocus(f int) newDialog {
	d.focus = f
	d.name.Blur()
	d.dir.Blur()
	d.args.Blur()
	switch f {
	case fieldName:
		d.name.Focus()
	case fieldDir:
		d.dir.Focus()
	case fieldArgs:
		d.args.Focus()
	}
	return d
}

func (d newDialog) submit() (overlay, tea.Cmd) {
	name, dir, agent := d.name.Value(), strings.TrimSpace(d.dir.Value()), dialogAgents[d.agent]
	args, argsErr := splitArgs(d.args.Value())
	switch {
	case name == "":
		d.err = "a name is required"
		return d.setFocus(fieldName), nil
	case state.NameProblem(name) != "":
		d.err = state.NameProblem(name)
		return d.setFocus(fieldName), nil
	case dir == "":
		d.err = "a directory is required"
		return d.setFocus(fieldDir), nil
	case argsErr != nil:
		d.err = argsErr.Error()
		return d.setFocus(fieldArgs), nil
	case agent == state.AgentCustom && len(args) == 0:
		d.err = "a custom agent needs the command to run"
		return d.setFocus(fieldArgs), nil
	}
	d.err, d.busy = "", true
	s := submitNewMsg{name: name, agent: agent, dir: dir, args: args, worktree: d.worktree, host: d.host}
	return d, func() tea.Msg { return s }
}

func (d newDialog) view(m *Model) string {
	l, w := m.look, m.w
	d.name, d.dir, d.args = fitInput(d.name, w), fitInput(d.dir, w), fitInput(d.args, w)
	var b strings.Builder
	title := "New session"
	if d.host != "" {
		title += " on " + d.host
	}
	b.WriteString(l.name.s(title) + "\n\n")
	b.WriteString(d.name.View() + "\n")
	b.WriteString(d.choice(l, fieldAgent, "agent ‹ "+string(dialogAgents[d.agent])+" ›") + "\n")
	b.WriteString(d.dir.View() + "\n")
	wt := "worktree ‹ no ›"
	if d.worktree {
		prefix := d.prefix
		if prefix == "" || d.host != "" {
			prefix = "lanes/" // another host's is its own: its default said
		}
		branch := prefix + d.name.Value()
		if d.name.Value() == "" {
			branch = prefix + "NAME"
		}
		wt = "worktree ‹ yes: " + branch + " ›"
	}
	b.WriteString(d.choice(l, fieldWorktree, wt) + "\n")
	b.WriteString(d.args.View() + "\n\n")
	switch {
	case d.busy:
		b.WriteString(l.muted.s("starting…"))
	case d.err != "":
		b.WriteString(l.errText.s("✗ " + d.err))
	default:
		b.WriteString(l.muted.s(" "))
	}
	return box(l, b.String(), w)
}

// choice is a ‹ › line of the dialog, lit when field has the focus.
func (d newDialog) choice(l *look, field int, s string) string {
	if d.focus == field {
		return l.name.s(s)
	}
	return l.muted.s(s)
}

func (d newDialog) keys() []key.Binding {
	return []key.Binding{
		helpBinding("tab", "next field"), helpBinding("←/→", "agent, worktree"),
		helpBinding("enter", "start"), helpBinding("esc", "cancel"),
	}
}

func (d newDialog) restyle(l *look) overlay {
	d.name.SetStyles(l.input)
	d.dir.SetStyles(l.input)
	d.args.SetStyles(l.input)
	return d
}
