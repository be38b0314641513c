package tui

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanes/state"
	"lanes/theme"
	"lanes/tmux"

	tea "charm.land/bubbletea/v2"
)

// Notifications on entering Needs you (docs/design.md §15).
const (
	// NotifyEvery: at most one notification per session this often.
	NotifyEvery = 10 * time.Second
	// ActedQuiet: after the user acts on a session from this board (kill,
	// restart, send, answer, mute), its move to Needs you is their own doing
	// for this long, and nobody is told about it.
	ActedQuiet = 5 * time.Second
	// displayFor is how long tmux clients show the message.
	displayFor = 5 * time.Second
	// outsideTimeout bounds notify-send and the tmux calls.
	outsideTimeout = 5 * time.Second
)

// Notice is one notification: what it says, and the tmux servers of the
// sessions it is about (whose clients are shown it too).
type Notice struct {
	Title, Body string
	Sockets     []string
	// Jump is the command that goes to what the notice names: `lanes
	// next --all-hosts --attach` when one of them is another host's.
	Jump string
}

// notifier remembers each session's zone between the cycles the board
// receives, and when it last told the user about a session, to find the
// sessions that enter Needs you.
type notifier struct {
	zones map[string]state.Zone // nil until the board's first load
	last  map[string]time.Time  // the last notification about each session
	acted map[string]time.Time  // when the user last acted on it from here
	// held are the entries the NotifyEvery limit held back: told once the
	// limit is over, if the session still needs the user.
	held map[string]bool
}

// actedOn notes that the user ran an action on session id at now.
func (n *notifier) actedOn(id string, now time.Time) {
	if n.acted == nil {
		n.acted = map[string]time.Time{}
	}
	n.acted[id] = now
}

// entered returns the records that entered Needs you since the last call
// and are to be notified, and takes recs as the new baseline. Nothing is
// notified on the first load (the board has no "before"), nor for a
// session seen for the first time (it is new to this board, not a change;
// its next entry is told), nor when off, nor for a muted session, nor for
// one the user moved there (acted on it from this board within
// ActedQuiet, or its activity's source is the user), nor more than once
// per NotifyEvery per session: such an entry is told when that is over, if
// the session is still in Needs you.
func (n *notifier) entered(ds []state.Derived, now time.Time, off bool) []state.Derived {
	first := n.zones == nil
	zones := make(map[string]state.Zone, len(ds))
	var out []state.Derived
	for _, d := range ds {
		r, z, id := d.Rec, d.D.Zone, sessionKey(d)
		zones[id] = z
		prev, seen := n.zones[id]
		held := n.held[id]
		delete(n.held, id)
		switch {
		case z != state.ZoneNeedsYou, off, r.Muted:
			// nothing to tell
		case held && within(now, n.last[id], NotifyEvery):
			n.hold(id) // still held back
		case held:
			n.told(id, now)
			out = append(out, d)
		case first || !seen || prev == state.ZoneNeedsYou:
			// not an entry
		case r.Activity.Source == "user", within(now, n.acted[id], ActedQuiet):
			// an entry the user caused
		case within(now, n.last[id], NotifyEvery):
			n.hold(id)
		default:
			n.told(id, now)
			out = append(out, d)
		}
	}
	n.zones = zones
	for _, m := range []map[string]time.Time{n.last, n.acted} {
		for id, at := range m {
			if _, ok := zones[id]; !ok || (!within(now, at, NotifyEvery) && !n.held[id]) {
				delete(m, id) // gone, or too old to matter
			}
		}
	}
	return out
}

// sessionKey is what the board and its notifier know a session by: its
// id, with its host for another host's (ids are unique per store, not
// across hosts).
func sessionKey(d state.Derived) string {
	if d.Host == "" {
		return d.Rec.ID
	}
	return d.Host + "/" + d.Rec.ID
}

func (n *notifier) hold(id string) {
	if n.held == nil {
		n.held = map[string]bool{}
	}
	n.held[id] = true
}

func (n *notifier) told(id string, now time.Time) {
	if n.last == nil {
		n.last = map[string]time.Time{}
	}
	n.last[id] = now
}

// within reports whether now is less than d after at. A clock set back
// before at says nothing happened recently: a notification is not held
// back for as long as the clock jumped.
func within(now, at time.Time, d time.Duration) bool {
	return !now.Before(at) && now.Sub(at) < d
}

// noticeFor says what entered Needs you: "api needs you — Allow Bash: rm
// -rf build" for one session (the question or the tool asking, unless
// content is off; else the card's status), "api, web and 2 more need you"
// for several.
//
// Another host's session is named NAME@HOST and is said as its host
// derived it; its socket names mean nothing here, so its message goes to
// every server of this host's live sessions (here), where the user may
// be attached, or to tmux's default server when none is live.
func noticeFor(ds []state.Derived, content bool, here []*state.Record) Notice {
	n := Notice{Title: "lanes"}
	add := func(s string) {
		if !slices.Contains(n.Sockets, s) {
			n.Sockets = append(n.Sockets, s)
		}
	}
	for _, d := range ds {
		switch {
		case d.Host == "":
			add(d.Rec.Runtime.Socket)
		case !slices.ContainsFunc(here, (*state.Record).Live):
			add("")
		default:
			for _, r := range here {
				if r.Live() {
					add(r.Runtime.Socket)
				}
			}
		}
	}
	name := func(d state.Derived) string {
		if d.Host == "" {
			return d.Rec.Name
		}
		return d.Rec.Name + "@" + d.Host
	}
	n.Jump = "lanes next --attach"
	for _, d := range ds {
		if d.Host != "" {
			n.Jump = "lanes next --all-hosts --attach"
		}
	}
	switch len(ds) {
	case 0:
		return n
	case 1:
		n.Body = name(ds[0]) + " needs you — " + needsWhat(ds[0], content)
	case 2:
		n.Body = name(ds[0]) + " and " + name(ds[1]) + " need you"
	default:
		n.Body = name(ds[0]) + ", " + name(ds[1]) + " and " + strconv.Itoa(len(ds)-2) + " more need you"
	}
	n.Body = state.Summary(n.Body, state.MessageMax)
	return n
}

// needsWhat is what a session in Needs you is waiting for.
func needsWhat(v state.Derived, content bool) string {
	switch say, text := state.Says(v.Rec); {
	case content && say == state.SayPermission:
		return "Allow " + text
	case content && say == state.SayAsk:
		return text
	}
	if s := state.Detail(v.Rec, v.D); s != "" {
		return s
	}
	return theme.StatusSpec(v.D.Status).Short
}

// Terminal notifications: the bell, OSC 9 (iTerm2, WezTerm, Windows
// Terminal, kitty, foot…) and OSC 777 (rxvt-unicode, foot, Ghostty,
// WezTerm…), each terminated by BEL. Inside tmux the OSCs go in tmux's
// passthrough wrapper: tmux drops them otherwise, and hands the wrapped
// ones on to the terminal only when the user set allow-passthrough (lanes
// never sets it). The bell stays outside: tmux rings it itself.
func terminalSeq(n Notice, inTmux bool) string {
	title := strings.ReplaceAll(oscText(n.Title), ";", ",") // the field separator
	body := oscText(n.Body)
	osc := "\x1b]9;" + title + ": " + body + "\a" +
		"\x1b]777;notify;" + title + ";" + body + "\a"
	if inTmux {
		osc = "\x1bPtmux;" + strings.ReplaceAll(osc, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return "\a" + osc
}

// oscText is s safe inside an OSC string: no control character can end
// it early or start another sequence.
func oscText(s string) string { return state.CleanText(s) }

// notifyCmd writes the terminal's notification with tea.Raw: Bubble Tea
// queues it in the program's output buffer and writes it, whole, at the
// next frame before the renderer's own diff. The bell, OSC 9 and OSC 777
// move no cursor and draw no cell, so the renderer's idea of the screen
// stays true. outside, when set, tells the rest of the world meanwhile.
func notifyCmd(ctx context.Context, n Notice, inTmux, terminal bool, outside func(context.Context, Notice)) tea.Cmd {
	var cmds []tea.Cmd
	if terminal {
		cmds = append(cmds, tea.Raw(terminalSeq(n, inTmux)))
	}
	if outside != nil {
		cmds = append(cmds, func() tea.Msg { outside(ctx, n); return nil })
	}
	return tea.Batch(cmds...)
}

// Outside is the notification beyond the board's terminal, in the ways
// named (nil: all): notify-send when it is on PATH ("desktop"), and a
// tmux message on every client of each server the notice names ("tmux";
// tmuxFor gives its client). It runs off the event loop;
// failures are ignored (a notification is a courtesy), and every process
// it starts is waited for, within outsideTimeout.
func Outside(tmuxFor func(socket string) *tmux.Client, ways []string) func(context.Context, Notice) {
	return func(ctx context.Context, n Notice) {
		ctx, cancel := context.WithTimeout(ctx, outsideTimeout)
		defer cancel()
		n.Title, n.Body = state.CleanText(n.Title), state.CleanText(n.Body)
		if n.Jump == "" {
			n.Jump = "lanes next --attach"
		}
		for _, s := range n.Sockets {
			if !way(ways, "tmux") {
				break
			}
			_, _ = tmuxFor(s).Display(ctx, n.Title+": "+n.Body+" · "+n.Jump+" goes to what needs you", displayFor)
		}
		if path, err := exec.LookPath("notify-send"); err == nil && way(ways, "desktop") {
			// Notification servers read the body as markup: & < > are text.
			body := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(n.Body)
			cmd := exec.CommandContext(ctx, path, "--app-name=lanes", "--", n.Title, body)
			cmd.WaitDelay = time.Second
			_ = cmd.Run() // Run waits: no zombie, even when it fails
		}
	}
}

// notify tells the user about the sessions of this cycle's records that
// entered Needs you.
func (m *Model) notify(now time.Time) tea.Cmd {
	ds := m.notifier.entered(m.withHosts(), now, m.o.NoNotify || m.quiet)
	if len(ds) == 0 {
		return nil
	}
	m.pace.kick() // the bell and OSC are written on a tick, view or no view
	return notifyCmd(m.ctx, noticeFor(ds, !m.o.NoContent, m.recs), m.o.TmuxEnv != "", way(m.o.NotifyWays, "terminal"), m.o.Notify)
}

// way reports whether ways (nil: all of them) has w.
func way(ways []string, w string) bool { return ways == nil || slices.Contains(ways, w) }

// saveTheme keeps the theme t picked for the next board, off the event
// loop; it says so, or why not.
func (m *Model) saveTheme() tea.Cmd {
	save := m.o.SaveTheme
	if save == nil {
		return nil
	}
	theme := map[bool]string{true: "dark", false: "light"}[m.isDark]
	return func() tea.Msg {
		if err := save(theme); err != nil {
			return actionMsg{err: fmt.Errorf("theme %s for this board only: %w", theme, err)}
		}
		return actionMsg{text: "theme " + theme + ", kept in the config file for the next board"}
	}
}

// hushed notes whether another board notifies, and says so when that
// changes: once when this board starts quiet, once when it takes over.
func (m *Model) hushed(quiet bool) tea.Cmd {
	if quiet == m.quiet {
		return nil
	}
	m.quiet = quiet
	if quiet {
		return m.flash("another board sends the notifications: this one tells nobody while that one runs", false)
	}
	return m.flash("the other board quit: this board sends the notifications now", false)
}

// mute turns notifications about the selected session off or back on, in
// the store; its own cycle shows the mark. The change is the user's act,
// so the session's next move stays quiet for ActedQuiet either way.
func (m *Model) mute(sel *item) tea.Cmd {
	if sel == nil {
		return m.flash("select a session first", true)
	}
	r, on := *sel.Rec, !sel.Rec.Muted
	m.notifier.actedOn(sel.key(), m.o.Now())
	ctx, a := m.ctx, m.actionsOn(sel.Host)
	return func() tea.Msg {
		if err := a.Mute(ctx, &r, on); err != nil {
			return actionMsg{err: err}
		}
		if on {
			return actionMsg{text: "muted " + r.Name + ": entering Needs you tells nobody"}
		}
		return actionMsg{text: "unmuted " + r.Name}
	}
}
