package tui

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

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
func (h *hostView) down() bool { return h.st.Lost() }

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
// derived them, with the fact that the link to it is lost while it is
// (its sessions are not over because the link is).
func mirror(dst []state.Derived, st remote.Status) []state.Derived {
	lost := st.Lost()
	for _, s := range st.Sessions {
		dst = append(dst, s.Mirror(st.Host, lost))
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

// failing reports a host whose last try ended without a stream: down
// after it was heard, or never reached at all (no less a problem).
func (h *hostView) failing() bool { return h.st.Tried() && !h.st.Up }

// hostNotes are what the title says of the other hosts: one note for
// each failing host, with its own reason, then the hosts still
// connecting (before their first try ends); with the filter on one host,
// only that host's. failing counts the failing ones.
func (m *Model) hostNotes() (notes []string, failing int) {
	var connecting []string
	for i := range m.hosts {
		h := &m.hosts[i]
		if fh, ok := m.filterHost(); ok && fh != h {
			continue
		}
		switch {
		case h.failing():
			notes = append(notes, m.failNote(h))
			failing++
		case !h.st.Tried():
			connecting = append(connecting, h.host.Name)
		case h.st.Over > 0: // a host flooding its stream: the board shows its first ones
			notes = append(notes, fmt.Sprintf("%s lists %d sessions more than the %d shown", h.host.Name, h.st.Over, remote.MaxMirrored))
		}
	}
	if len(connecting) > 0 {
		notes = append(notes, "connecting to "+strings.Join(connecting, ", ")+"…")
	}
	return notes, failing
}

// failNote says of a failing host since when (once heard), when the next
// try is and why: "gpu unreachable since 06:41, retrying in 8s — ssh: …",
// or for a host never reached "build (retrying in 8s): lanes is not …".
func (m *Model) failNote(h *hostView) string {
	var retry string
	switch wait := h.st.Next.Sub(m.now); {
	case h.st.Next.IsZero():
	case wait > 0:
		retry = fmt.Sprintf("retrying in %ds", int((wait+time.Second-1)/time.Second))
	default:
		retry = "retrying now"
	}
	why := oneLine(h.st.Err)
	if !h.st.Heard {
		if retry != "" {
			return h.host.Name + " (" + retry + "): " + why
		}
		return h.host.Name + ": " + why
	}
	note := h.host.Name + " unreachable since " + m.clockAt(h.st.Since)
	if retry != "" {
		note += ", " + retry
	}
	return note + " — " + why
}

// clockAt is t as the board says a moment: its time today, with its
// date on another day (a board may run for days).
func (m *Model) clockAt(t time.Time) string {
	t = t.In(m.now.Location())
	if y, mo, d := t.Date(); y == m.now.Year() && mo == m.now.Month() && d == m.now.Day() {
		return t.Format("15:04")
	}
	return t.Format("Jan 2 15:04")
}

// hostTitle is the title's summary (sum, sw cells) with the host notes
// after it, in room cells: the long counts when every note fits beside
// them, else the short ones; when the notes do not fit, how many hosts
// fail and the first one (@ shows each host's in full).
func (m Model) hostTitle(zones []int, idle int, sum string, sw, room int) (string, int) {
	notes, failing := m.hostNotes()
	if len(notes) == 0 {
		return sum, sw
	}
	p, note := m.look.muted, strings.Join(notes, " · ")
	if failing > 0 {
		p, note = m.look.errText, "✗ "+note
	}
	if sw+2+width(note) > room {
		sum, sw = m.summary(zones, idle, false)
	}
	left := room - sw - 2
	if failing > 1 && width(note) > max(left, room) || failing > 1 && left >= 16 && width(note) > left {
		note = fmt.Sprintf("✗ %d hosts down (@ shows each): %s", failing, notes[0])
	}
	if left >= 16 {
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

// cardMark is mark m as its card draws it: its words for this record
// (theme.MarkShort).
func cardMark(l *look, it *item, m state.Mark) (string, int) {
	s, w := l.markFor(m)
	if short := theme.MarkShort(m, it.Rec, true); short != theme.MarkSpec(m).Short {
		s = strings.Replace(s, theme.MarkSpec(m).Short, short, 1)
		w -= width(theme.MarkSpec(m).Short) - width(short)
	}
	return s, w
}

// awaitHosts waits, at most d, for the host watches to end once the
// board's ctx has: each kills its ssh and reaps it, so none outlives the
// board.
func awaitHosts(ch <-chan remote.Status, d time.Duration) {
	if ch == nil {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case _, open := <-ch:
			if !open {
				return
			}
		case <-t.C:
			return
		}
	}
}
