package tui

import (
	"fmt"
	"os/exec"

	"lanes/state"

	tea "charm.land/bubbletea/v2"
)

// refuseHostDown refuses an action on a session of a host that is down
// (the key table's hostDown row): nothing can reach it. Every other key
// goes the usual way, through the card's host's Actions (hostactions.go).
func (m *Model) refuseHostDown(sel *item) tea.Cmd {
	h, _ := m.host(sel.Host)
	return m.flash(m.hostDown(h, sel.Rec.Name))
}

// attachRemote attaches to another host's card over ssh.
func (m *Model) attachRemote(sel *item) tea.Cmd {
	h, _ := m.host(sel.Host)
	return m.remoteAttach(h, sel)
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
		d := newNewDialog(m.look, m.o.Dir, m.o.Agent)
		d.prefix = m.o.BranchPrefix
		m.push(d)
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
	d := newNewDialog(m.look, dir, m.o.Agent)
	d.host = h.host.Name
	m.push(d)
	return nil
}
