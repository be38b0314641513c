package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"lanes/state"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// dialogW is the width of a dialog box, border included, where the
// screen has room for it.
const dialogW = 56

// dialogWidth is a dialog's width on a screen w cells wide: narrower
// than dialogW there, its border still whole (at 45 columns the right
// edge was cut).
func dialogWidth(w int) int { return max(min(dialogW, w), 20) }

// fitInput is in as wide as a dialog w cells wide leaves it.
func fitInput(in textinput.Model, w int) textinput.Model {
	in.SetWidth(max(dialogWidth(w)-6-lipgloss.Width(in.Prompt), 4))
	return in
}

func newInput(l *look, prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.SetStyles(l.input)
	in.SetWidth(dialogW - 6 - lipgloss.Width(prompt))
	return in
}

func closeDialog() tea.Msg { return closeDialogMsg{} }

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

func (d newDialog) Update(msg tea.Msg) (newDialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || d.busy {
		return d, nil
	}
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

func (d newDialog) submit() (newDialog, tea.Cmd) {
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

func (d newDialog) render(l *look, w int) string {
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

func (d newDialog) keys() help.KeyMap {
	return dialogKeys{[]key.Binding{
		helpBinding("tab", "next field"), helpBinding("←/→", "agent, worktree"),
		helpBinding("enter", "start"), helpBinding("esc", "cancel"),
	}}
}

// confirmDialog asks y/n before a kill, restart or remove.
type confirmDialog struct{ act pending }

func newConfirm(p pending) confirmDialog { return confirmDialog{act: p} }

func (c confirmDialog) Update(msg tea.Msg) (confirmDialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil
	}
	switch k.String() {
	case "y", "Y":
		act := c.act
		return c, func() tea.Msg { return confirmedMsg{act} }
	case "n", "N", "esc", "q":
		return c, closeDialog
	}
	return c, nil
}

func (c confirmDialog) render(l *look, w int) string {
	name := c.act.rec.Name
	if c.act.host != "" { // which of the sessions of this name it ends
		name += " on " + c.act.host
	}
	question := fmt.Sprintf(c.act.do.question, name)
	return box(l, l.name.s(question)+"\n\n"+l.muted.s(c.act.do.detail)+"\n\n"+
		l.name.s("y")+l.muted.s(" yes   ")+l.name.s("n")+l.muted.s(" no"), w)
}

func (c confirmDialog) keys() help.KeyMap {
	return dialogKeys{[]key.Binding{helpBinding("y", "yes"), helpBinding("n/esc", "no")}}
}

// sendDialog types a prompt into a live agent.
type sendDialog struct {
	rec   state.Record
	input textinput.Model
	host  string // the session's host, "" for this one
}

func newSendDialog(l *look, r state.Record) sendDialog {
	d := sendDialog{rec: r, input: newInput(l, "› ", "prompt for "+r.Name)}
	d.input.Focus()
	return d
}

func (d sendDialog) Update(msg tea.Msg) (sendDialog, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "esc":
			return d, closeDialog
		case "enter":
			if strings.TrimSpace(d.input.Value()) == "" {
				return d, nil
			}
			s := submitSendMsg{rec: d.rec, text: d.input.Value(), host: d.host}
			return d, func() tea.Msg { return s }
		}
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return d, cmd
}

func (d sendDialog) render(l *look, w int) string {
	d.input = fitInput(d.input, w)
	to := d.rec.Name
	if d.host != "" {
		to += " on " + d.host
	}
	return box(l, l.name.s("Send to "+to)+"\n\n"+d.input.View()+"\n\n"+
		l.muted.s("typed literally, then Enter"), w)
}

func (d sendDialog) keys() help.KeyMap {
	return dialogKeys{[]key.Binding{helpBinding("enter", "send"), helpBinding("esc", "cancel")}}
}

// box frames a dialog's content, for a screen w cells wide.
func box(l *look, content string, w int) string {
	st := l.st.SelectedCard.Padding(1, 2).Width(dialogWidth(w))
	return st.Render(content)
}

// splitArgs splits a typed command line into words the way a POSIX shell
// would, without running one: blanks separate words, '…' keeps everything
// literally, "…" keeps everything but the backslash of \", \\, \$ and \`,
// and \ escapes the next character outside quotes. Nothing else ($, *, ;)
// is special.
func splitArgs(s string) ([]string, error) {
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		quote   rune // 0, '\'' or '"'
		escaped bool // after \ outside quotes
		// pendingBackslash: after \ inside "…", where it escapes only some
		// characters.
		pendingBackslash bool
	)
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"' && pendingBackslash:
			// Inside "…" a backslash escapes only ", \, $ and `.
			if !strings.ContainsRune(`"\$`+"`", r) {
				cur.WriteRune('\\')
			}
			cur.WriteRune(r)
			pendingBackslash = false
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				pendingBackslash = true
			default:
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\':
			escaped, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	switch {
	case quote != 0:
		return nil, fmt.Errorf("unclosed %c quote in the arguments", quote)
	case escaped:
		return nil, errors.New("a trailing \\ in the arguments escapes nothing")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
