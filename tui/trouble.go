package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"lanes/internal/fsafe"
	"lanes/state"
	"lanes/state/store"
	"lanes/theme"
	"lanes/tmux"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// troubleNote is a lasting store error said short enough for the title
// line at 80 columns, with what to do kept whole: the error itself names
// paths and bbolt's detail, which would push the advice off the line.
func troubleNote(err error) string {
	switch {
	case errors.Is(err, store.ErrDamaged):
		return "store damaged — run `lanes doctor --repair`"
	case errors.Is(err, state.ErrSchemaTooNew):
		return "store from a newer lanes — upgrade lanes"
	case errors.Is(err, store.ErrBusy):
		return "store busy — another lanes process holds it"
	case errors.Is(err, fsafe.ErrForeign):
		return "state dir not private — ? shows the fix"
	}
	return "store unreadable — ? shows why"
}

// tmuxNote says on the title line, for as long as it lasts, that the
// sessions' tmux server does not answer: their cards show unknown. Not
// running with sessions on it (after a reboot), it says what doctor says
// brings them back; otherwise that doctor says more.
func (m Model) tmuxNote() string {
	if errors.Is(m.tmuxDown, tmux.ErrNoServer) && slices.ContainsFunc(m.recs, func(r *state.Record) bool { return r.Live() && !r.Adopted }) {
		return "tmux is not running — R or `lanes restore --all` brings them back"
	}
	return "tmux is not answering (" + theme.Age(m.now, m.tmuxDownSince) + ") — `lanes doctor` says more"
}

// serverNoteFor is how long the board says that a tmux server exited
// with sessions on it.
const serverNoteFor = 10 * time.Minute

// serverExitNote says, for serverNoteFor after it, that a tmux server of
// this host exited and ended sessions with it, and what brings them back,
// in the longest of its forms that fits width; "" when none did.
func (m Model) serverExitNote(room int) string {
	socket, names := store.LastServerExit(m.recs, m.now.Add(-serverNoteFor))
	if len(names) == 0 {
		return ""
	}
	server, _ := tmux.ServerName(socket)
	noun := "sessions"
	if len(names) == 1 {
		noun = "session"
	}
	const fix = "`lanes restore --all`"
	for _, note := range []string{
		fmt.Sprintf("%s exited: %d %s ended with it — %s", server, len(names), noun, fix),
		fmt.Sprintf("tmux exited: %d %s ended — %s", len(names), noun, fix),
		"tmux exited — " + fix,
	} {
		if width(note) <= room {
			return note
		}
	}
	return "tmux exited — lanes restore --all"
}

// stale reports whether the records shown are the last ones read before
// the store became unreadable: nothing on the board is live then.
func (m Model) stale() bool { return m.trouble != nil }

// refuseStale refuses an action on a session while the board cannot read
// the store: what it shows may be gone or changed, and the action's own
// store write would fail after it had reached tmux.
func (m *Model) refuseStale(verb string) tea.Cmd {
	if !m.stale() {
		return nil
	}
	return m.flash(verb+" refused: "+troubleNote(m.trouble), true)
}

// dotActivity is what a session's dot shows, on its card and in the
// sidebar: its raw activity, unless Derive says the session's state is
// unknown (its server does not answer, or its session went missing) or
// marks it unreachable (another host lost): then nothing about the agent
// is known now either, and its dot does not breathe as if it were.
func dotActivity(r *state.Record, d state.Derivation) state.Activity {
	if d.Status == state.StatusUnknown || slices.Contains(d.Marks, state.MarkUnreachable) {
		return state.ActivityUnknown
	}
	return r.Activity.Known()
}

// dim draws stale lines in the muted colour alone, so no zone, badge or
// dot colour presents them as live.
func (m Model) dim(lines []string) {
	for i, s := range lines {
		lines[i] = m.look.muted.s(ansi.Strip(s))
	}
}

// troubleBody replaces empty lanes while the store cannot be read: empty
// lanes would say every session is gone.
func (m Model) troubleBody(h int) []string {
	l := m.look
	out := make([]string, h)
	blank := strings.Repeat(" ", m.w)
	for i := range out {
		out[i] = blank
	}
	if m.w < minDrawW {
		return out
	}
	inner := m.w - 4
	var lines []string
	for _, para := range []struct {
		p    paint
		text string
	}{
		{l.errText, "The board cannot read its store, so it cannot show your sessions."},
		{l.text, "Their tmux sessions and agents are not touched and keep running."},
		{paint{}, ""},
		{l.muted, oneLine(m.trouble.Error())},
	} {
		for _, s := range strings.Split(ansi.Wrap(para.text, inner, " "), "\n") {
			lines = append(lines, "  "+fit(para.p, s, paint{}, "", m.w-2))
		}
	}
	for i := 1; i < h && i <= len(lines); i++ {
		out[i] = lines[i-1]
	}
	return out
}
