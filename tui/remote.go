package tui

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"lanes/agent"
	"lanes/internal/remote"
	"lanes/state"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Another host's sessions are acted on there: `lanes …` over ssh
// (Remote.Run), never through this host's session service, whose store
// does not hold them (docs/design.md §16).

// remoteKey handles the keys that act differently on another host's
// card, and reports whether k was one; the others (moves, kill, restart,
// remove, send, open PR) go the usual way, which routes the actions here.
func (m *Model) remoteKey(k tea.KeyPressMsg, sel *item) (tea.Cmd, bool) {
	h, ok := m.host(sel.Host)
	if !ok {
		return nil, false
	}
	refuse := func(what string) (tea.Cmd, bool) {
		return m.flash(fmt.Sprintf("%s %s on %s: not from this board; enter attaches over ssh, or run lanes there", what, sel.Rec.Name, sel.Host), true), true
	}
	switch {
	case key.Matches(k, m.keys.Attach, m.keys.Kill, m.keys.Restart, m.keys.Remove, m.keys.Send) && h.down():
		return m.flash(m.hostDown(h, sel.Rec.Name)), true
	case key.Matches(k, m.keys.Attach):
		return m.remoteAttach(h, sel), true
	case key.Matches(k, m.keys.Allow, m.keys.Deny, m.keys.Always) && agent.Answerable(sel.Rec) == nil:
		return refuse("answer")
	case key.Matches(k, m.keys.Mute):
		return refuse("mute")
	case key.Matches(k, m.keys.CreatePR):
		return refuse("create a PR for")
	case key.Matches(k, m.keys.Restore):
		return refuse("restore")
	case key.Matches(k, m.keys.Diff):
		return refuse("diff")
	}
	return nil, false
}

// hostDown is the refusal of an action on a session of a host that is
// down: nothing can reach it. It fits 80 columns; ssh's error is on the
// top line.
func (m *Model) hostDown(h *hostView, name string) (string, bool) {
	return fmt.Sprintf("can't reach %s: %s unreachable since %s; try when it answers",
		name, h.host.Name, m.clockAt(h.st.Since)), true
}

// remoteAttach hands the terminal to the session's tmux over ssh, as a
// local attach does (the board comes back when the user detaches).
func (m *Model) remoteAttach(h *hostView, sel *item) tea.Cmd {
	r := sel.Rec
	switch {
	case !r.Live():
		return m.flash(r.Name+" on "+h.host.Name+": "+state.ErrTerminated.Error()+"; nothing to attach to", true)
	case r.Runtime.TmuxSession == "":
		return m.flash(r.Name+" on "+h.host.Name+" has no tmux session yet", true)
	}
	argv := m.o.Remote.Attach(h.host, r.Runtime.Socket, r.Runtime.TmuxSession)
	what := r.Name + " on " + h.host.Name
	return tea.ExecProcess(exec.Command(argv[0], argv[1:]...), func(err error) tea.Msg {
		if err != nil {
			return actionMsg{err: fmt.Errorf("attach %s: ssh %s: %w", what, h.host.Dest, err)}
		}
		return actionMsg{text: "detached from " + what}
	})
}

// remoteAction runs a confirmed kill, restart or remove on the
// session's host.
func (m *Model) remoteAction(p pending) tea.Cmd {
	h, ok := m.host(p.host)
	name := p.rec.Name
	if !ok {
		return m.flash(fmt.Sprintf("%s %s: host %s is no longer on the board", p.do.verb, name, p.host), true)
	}
	// By id: a name there may be a live session's and an ended one's.
	id := p.rec.ID
	var args []string
	switch {
	case p.do == killDownAction: // its own tmux does not answer there
		args = []string{"kill", id, "--yes"}
	case p.do.verb == killAction.verb:
		args = []string{"kill", id}
	case p.do.verb == restartAction.verb:
		args = []string{"restart", id}
	case p.do.verb == removeAction.verb:
		args = []string{"rm", id}
	default:
		return m.flash(fmt.Sprintf("%s %s on %s: not from this board; run lanes there", p.do.verb, name, p.host), true)
	}
	what := p.do.verb + " " + name + " on " + p.host
	m.notifier.actedOn(sessionKey(state.Derived{Rec: &p.rec, Host: p.host}), m.o.Now())
	return tea.Batch(m.flash(what+"…", false), remoteCmd(m.ctx, m.o.Remote, h.host, nil, what, args...))
}

// remoteSend types a prompt into a session on its host: the prompt goes
// on ssh's stdin (`lanes send NAME -`), never in an argv.
func (m *Model) remoteSend(msg submitSendMsg) tea.Cmd {
	h, ok := m.host(msg.host)
	if !ok {
		return m.flash("send to "+msg.rec.Name+": host "+msg.host+" is no longer on the board", true)
	}
	what := "send to " + msg.rec.Name + " on " + msg.host
	m.notifier.actedOn(sessionKey(state.Derived{Rec: &msg.rec, Host: msg.host}), m.o.Now())
	return remoteCmd(m.ctx, m.o.Remote, h.host, strings.NewReader(msg.text), what, "send", msg.rec.ID, "-")
}

// remoteTimeout bounds an action run on another host: a link that falls
// silent after connecting would otherwise hold it, and its ssh, for the
// board's life.
const remoteTimeout = time.Minute

// remoteCmd runs `lanes ARGS…` on h and reports it as an action.
func remoteCmd(ctx context.Context, r Remote, h remote.Host, stdin io.Reader, what string, args ...string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, remoteTimeout)
		defer cancel()
		if _, err := r.Run(ctx, h, stdin, args...); err != nil {
			return actionMsg{err: fmt.Errorf("%s: %w", what, err)}
		}
		return actionMsg{text: "done: " + what}
	}
}

// openNew opens the new-session dialog: for this host, or for the host
// the filter shows, starting in a directory a session of that host uses.
func (m *Model) openNew() tea.Cmd {
	h, ok := m.filterHost()
	if !ok {
		m.newDlg = newNewDialog(m.look, m.o.Dir, m.o.Agent)
		m.mode = modeNew
		return nil
	}
	if h.failing() { // down, or never reached
		return m.flash(m.hostDown(h, "a new session"))
	}
	dir := ""
	if sel := m.board.selected(); sel != nil && sel.Host == h.host.Name {
		dir = sel.Rec.Dir
	} else if len(h.ds) > 0 {
		dir = h.ds[0].Rec.Dir
	}
	m.newDlg = newNewDialog(m.look, dir, m.o.Agent)
	m.newDlg.host = h.host.Name
	m.mode = modeNew
	return nil
}

// remoteCreate starts a session on another host: `lanes new` there.
func (m *Model) remoteCreate(s submitNewMsg) tea.Cmd {
	var host remote.Host
	hv, ok := m.host(s.host)
	if ok {
		host = hv.host
	}
	args := []string{"new", s.name}
	if s.agent != state.AgentCustom {
		args = append(args, "--agent", string(s.agent))
	}
	args = append(args, "--dir", s.dir)
	if s.worktree {
		args = append(args, "--worktree")
	}
	if len(s.args) > 0 {
		args = append(append(args, "--"), s.args...)
	}
	ctx, rem := m.ctx, m.o.Remote
	return func() tea.Msg {
		if !ok {
			return createdMsg{name: s.name, err: fmt.Errorf("host %s is no longer on the board", s.host)}
		}
		ctx, cancel := context.WithTimeout(ctx, remoteTimeout)
		defer cancel()
		if _, err := rem.Run(ctx, host, nil, args...); err != nil {
			return createdMsg{name: s.name, err: err}
		}
		return createdMsg{name: s.name, host: s.host}
	}
}
