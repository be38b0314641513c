package tui

import (
	"fmt"
	"os/exec"

	"lanes/state"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// remoteKey handles the keys that act differently on another host's
// card, and reports whether k was one: enter attaches over ssh, and a
// host that is down refuses at once. Every other key goes the usual way,
// through the card's host's Actions (hostactions.go).
func (m *Model) remoteKey(k tea.KeyPressMsg, sel *item) (tea.Cmd, bool) {
	h, ok := m.host(sel.Host)
	if !ok {
		return nil, false
	}
	switch {
	case h.down() && key.Matches(k, m.keys.Attach, m.keys.Kill, m.keys.Restart, m.keys.Remove, m.keys.Send,
		m.keys.Allow, m.keys.Deny, m.keys.Always, m.keys.Mute, m.keys.Diff, m.keys.Restore, m.keys.CreatePR):
		return m.flash(m.hostDown(h, sel.Rec.Name)), true
	case key.Matches(k, m.keys.Attach):
		return m.remoteAttach(h, sel), true
	}
	return nil, false
}

// hostDown is the refusal of an action on a session of a host that is
// down: nothing can reach it. It fits 80 columns; ssh's error is on the
// top line, and whole in the card's preview (p).
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

// openNew opens the new-session dialog: for this host, or for the host
// the filter shows, starting in a directory a session of that host uses.
func (m *Model) openNew() tea.Cmd {
	h, ok := m.filterHost()
	if !ok {
		m.newDlg = newNewDialog(m.look, m.o.Dir, m.o.Agent)
		m.newDlg.prefix = m.o.BranchPrefix
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
