package tui

import (
	"context"
	"io"
	"slices"
	"strings"

	"lanes/internal/remote"
	"lanes/state"
	"lanes/theme"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Remote reaches the other hosts the board mirrors (docs/design.md §16);
// remote.SSH is one, tests give a fake. The board never derives another
// host's sessions: it shows what that host's lanes derived.
type Remote interface {
	// Watch sends each host's Status whenever it changes, until ctx ends.
	Watch(ctx context.Context, hosts []remote.Host) <-chan remote.Status
	// Run runs `lanes ARGS…` on h with stdin (nil: none).
	Run(ctx context.Context, h remote.Host, stdin io.Reader, args ...string) ([]byte, error)
	// Attach is the argv that attaches this terminal to a tmux session
	// on h.
	Attach(h remote.Host, socket, session string) []string
}

// hostView is what the board knows of one other host: its last Status
// and its sessions mirrored from it.
type hostView struct {
	host remote.Host
	st   remote.Status
	ds   []state.Derived
}

// down reports a host heard once whose stream is lost now: its cards
// stay, marked unreachable.
func (h *hostView) down() bool { return h.st.Heard && !h.st.Up }

// hostMsg is a host's new Status (closed: the watch ended).
type hostMsg struct {
	st     remote.Status
	closed bool
}

// waitHost waits for the next Status; Update re-arms it.
func waitHost(ch <-chan remote.Status) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		st, ok := <-ch
		return hostMsg{st: st, closed: !ok}
	}
}

// newHosts is the board's view of hosts before any is heard.
func newHosts(hosts []remote.Host) []hostView {
	hv := make([]hostView, len(hosts))
	for i, h := range hosts {
		hv[i] = hostView{host: h, st: remote.Status{Host: h.Name}}
	}
	return hv
}

// onHost takes a host's Status: its sessions are mirrored once here, not
// every cycle.
func (m Model) onHost(msg hostMsg) (tea.Model, tea.Cmd) {
	if msg.closed {
		m.hostCh = nil
		return m, nil
	}
	if i := slices.IndexFunc(m.hosts, func(h hostView) bool { return h.host.Name == msg.st.Host }); i >= 0 {
		h := &m.hosts[i]
		h.st = msg.st
		h.ds = mirror(h.ds[:0], msg.st)
		m.rebuild()
	}
	return m, waitHost(m.hostCh)
}

// mirror appends st's sessions as the board shows them: as their host
// derived them, each marked unreachable while the host is down (its
// sessions are not over because the link is).
func mirror(dst []state.Derived, st remote.Status) []state.Derived {
	down := st.Heard && !st.Up
	for _, s := range st.Sessions {
		d := s.Mirror(st.Host)
		if down && !slices.Contains(d.D.Marks, state.MarkUnreachable) {
			d.D.Marks = append(slices.Clip(d.D.Marks), state.MarkUnreachable)
			d = state.Mirrored(d.Rec, d.D, st.Host)
		}
		dst = append(dst, d)
	}
	return dst
}

// withHosts is this host's sessions and every other host's, into m.all;
// without hosts it is m.derived itself, at no cost.
func (m *Model) withHosts() []state.Derived {
	if len(m.hosts) == 0 {
		return m.derived
	}
	m.all = append(m.all[:0], m.derived...)
	for i := range m.hosts {
		m.all = append(m.all, m.hosts[i].ds...)
	}
	return m.all
}

// host is the host named name, and whether it is one the board mirrors.
func (m *Model) host(name string) (*hostView, bool) {
	i := slices.IndexFunc(m.hosts, func(h hostView) bool { return h.host.Name == name })
	if i < 0 {
		return nil, false
	}
	return &m.hosts[i], true
}

// cycleHost turns the host filter: all hosts, this host, then each other
// host in turn.
func (m *Model) cycleHost() tea.Cmd {
	if len(m.hosts) == 0 {
		return m.flash("no other hosts: name them in $XDG_CONFIG_HOME/lanes/hosts (else ~/.config/lanes/hosts), or start the board with --host NAME=DEST", true)
	}
	m.hostSel = (m.hostSel + 1) % (len(m.hosts) + 2)
	m.board.hostOn, m.board.host = m.hostSel > 0, ""
	if m.hostSel > 1 {
		m.board.host = m.hosts[m.hostSel-2].host.Name
	}
	m.rebuild()
	return m.flash("showing "+m.hostLabel(), false)
}

// hostLabel names what the host filter shows.
func (m *Model) hostLabel() string {
	switch {
	case m.hostSel == 0:
		return "every host"
	case m.board.host == "":
		return "this host"
	}
	return "host " + m.board.host
}

// filterHost is the host the filter shows, when it shows one other host:
// where `n` starts a session.
func (m *Model) filterHost() (*hostView, bool) {
	if m.hostSel < 2 {
		return nil, false
	}
	return &m.hosts[m.hostSel-2], true
}

// hostNote is what the title says of the other hosts: the first one down,
// since when and why (naming the others down), else those still
// connecting; "" when every host is up. isErr: a host is down.
func (m *Model) hostNote() (note string, isErr bool) {
	var down []*hostView
	var connecting []string
	for i := range m.hosts {
		switch h := &m.hosts[i]; {
		case h.down():
			down = append(down, h)
		case !h.st.Heard:
			connecting = append(connecting, h.host.Name)
		}
	}
	switch {
	case len(down) > 0:
		h := down[0]
		note = h.host.Name + " unreachable since " + h.st.Since.In(m.now.Location()).Format("15:04")
		if len(down) > 1 {
			var more []string
			for _, o := range down[1:] {
				more = append(more, o.host.Name)
			}
			note += " (and " + strings.Join(more, ", ") + ")"
		}
		if h.st.Err != "" {
			note += " — " + oneLine(h.st.Err)
		}
		return note, true
	case len(connecting) > 0:
		note = "connecting to " + strings.Join(connecting, ", ") + "…"
		if len(connecting) == 1 {
			if h, _ := m.host(connecting[0]); h.st.Err != "" {
				note += " " + oneLine(h.st.Err)
			}
		}
		return note, false
	}
	return "", false
}

// hostTitle is the title's summary (sum, sw cells) with the host note
// after it, in room cells: the long counts when the whole note fits
// beside them, else the short ones and as much of the note as fits.
func (m Model) hostTitle(zones []int, idle int, sum string, sw, room int) (string, int) {
	note, isErr := m.hostNote()
	if note == "" {
		return sum, sw
	}
	p := m.look.muted
	if isErr {
		p, note = m.look.errText, "✗ "+note
	}
	if sw+2+width(note) > room {
		sum, sw = m.summary(zones, idle, false)
	}
	if left := room - sw - 2; left >= 16 {
		n := plainSeg(p, note, left)
		return sum + "  " + n.s, sw + 2 + n.w
	}
	n := plainSeg(p, note, max(room, 0))
	return n.s, n.w
}

// hostTag is a remote session's host on its card and sidebar row,
// "@build", in at most room cells (none for this host's sessions).
func hostTag(l *look, host string, room int) seg {
	if host == "" || room < 2 {
		return seg{}
	}
	t := ansi.Truncate("@"+host, min(room, maxTagW), "…")
	return seg{l.muted.s(t), width(t)}
}

// maxTagW keeps a long host name from taking a card's name's room.
const maxTagW = 10

// cardMark is mark m as its card draws it: another host's unreachable
// mark does not name tmux, since its host may be what does not answer
// (the title says which host is down).
func cardMark(l *look, it *item, m state.Mark) (string, int) {
	s, w := l.markFor(m)
	if short := markShort(it, m); it.Host != "" && short != theme.MarkSpec(m).Short {
		s = strings.Replace(s, theme.MarkSpec(m).Short, short, 1)
		w -= width(theme.MarkSpec(m).Short) - width(short)
	}
	return s, w
}

// markShort is mark m's label on it.
func markShort(it *item, m state.Mark) string {
	if m == state.MarkUnreachable && it.Host != "" {
		return "unreachable"
	}
	return theme.MarkSpec(m).Short
}
