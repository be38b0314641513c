package tui

import (
	"slices"

	"lanes/state"

	tea "charm.land/bubbletea/v2"
)

// onKey hands a key to the overlay on top, or acts on the board.
func (m Model) onKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if k.String() == "ctrl+c" {
		return m, tea.Quit
	}
	if m.top() != nil {
		return m.toTop(k)
	}
	return m.onBoardKey(k)
}

// situation is the board as its keys see it, sel selected.
func (m *Model) situation(sel *item) situation {
	s := situation{idleHead: m.board.onIdleHead(), hosts: len(m.hosts) > 0}
	if sel == nil {
		return s
	}
	s.card, s.merged = true, sel.Rec.Merged()
	if sel.Host != "" {
		if h, ok := m.host(sel.Host); ok {
			s.remote, s.down = true, h.down()
		}
	}
	return s
}

// onBoardKey runs the row of the key table that k and the situation pick;
// where the selection moved, the preview, the history and the seen mark
// follow it.
func (m Model) onBoardKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	sel := m.board.selected()
	b, ok := m.keys.find(k, m.situation(sel))
	if !ok {
		return m, nil
	}
	before := keyOf(sel) // now: a rebuild may reuse the item
	cmd := b.do(&m, sel)
	if !b.moves {
		return m, cmd
	}
	if now := m.board.selected(); keyOf(now) != before {
		return m, tea.Batch(cmd, m.capture(), m.loadHistory(false), m.seen(now))
	}
	return m, cmd
}

// keyOf is sel's key, "" for no card.
func keyOf(sel *item) string {
	if sel == nil {
		return ""
	}
	return sel.key()
}

// seen tells the store the human looked at sel (docs/design.md §4): the
// selection moved onto it, or they attach to it. Another host's card is
// told there.
func (m *Model) seen(sel *item) tea.Cmd {
	if sel == nil || !state.NeedsSeen(sel.Rec) {
		return nil
	}
	r, ctx, a := *sel.Rec, m.ctx, m.actionsOn(sel.Host)
	return func() tea.Msg {
		_ = a.Seen(ctx, &r) // the next cycle shows it, or the mark stays
		return nil
	}
}

// ask opens the confirmation of a kill, restart or remove, or says why the
// selection does not allow it.
func (m *Model) ask(do *action, sel *item) tea.Cmd {
	if cmd := m.refuseStale(do.verb); cmd != nil {
		return cmd
	}
	switch {
	case sel == nil:
		return m.flash("select a session first", true)
	case sel.Rec.Adopted && (do == killAction || do == restartAction):
		return m.flash("lanes did not start "+sel.Rec.Name+" (adopted), so it does not "+do.verb+" it: stop it in its pane (enter), or d to stop watching it", true)
	case do == removeAction && sel.Rec.Merged():
		return m.askCleanUp(sel)
	case sel.Rec.Adopted && do == removeAction:
		// Removing an adopted session only stops watching it: allowed live.
	case !do.live && sel.Rec.Live() && !sel.Rec.Pane.Dead: // an exited agent's goes in one step
		return m.flash(sel.Rec.Name+" is live; kill it (x) before removing it", true)
	case do.live && !sel.Rec.Live():
		return m.flash(sel.Rec.Name+" is terminated; "+do.verb+" needs a live session", true)
	}
	if do == killAction && slices.Contains(sel.D.Marks, state.MarkUnreachable) {
		do = killDownAction
	}
	removing := do == removeAction
	if removing && sel.Rec.Live() && !sel.Rec.Adopted {
		exited := *do
		exited.detail = "Its agent exited: its tmux session closes. " + do.detail
		do = &exited
	}
	if wt := sel.Rec.Git.Worktree; removing && wt != "" {
		keep := *do
		keep.detail += " Its worktree stays at " + wt + ". To remove it too, when clean, answer no and run lanes rm " + sel.Rec.Name + " --worktree."
		do = &keep
	}
	m.push(newConfirm(pending{do: do, rec: *sel.Rec, host: sel.Host}))
	return nil
}

// openSend opens the prompt dialog, unless the agent may not receive text.
func (m *Model) openSend(sel *item) tea.Cmd {
	if cmd := m.refuseStale("send"); cmd != nil {
		return cmd
	}
	if sel == nil {
		return m.flash("select a session first", true)
	}
	if err := state.CanSend(sel.Rec, false); err != nil {
		return m.flash("can't send to "+sel.Rec.Name+": "+err.Error(), true)
	}
	d := newSendDialog(m.look, *sel.Rec)
	d.host = sel.Host
	m.push(d)
	return nil
}

// attach hands the terminal to the selected session.
func (m *Model) attach(sel *item) tea.Cmd {
	switch {
	case sel == nil:
		return m.flash("select a session first", true)
	case !sel.Rec.Live():
		return m.flash(sel.Rec.Name+": "+state.ErrTerminated.Error()+"; nothing to attach to", true)
	case sel.Rec.Runtime.SessionID == "" && sel.Rec.Runtime.TmuxSession == "":
		return m.flash(sel.Rec.Name+" has no tmux session yet", true)
	}
	return tea.Batch(m.seen(sel), attachCmd(m.ctx, m.o.Tmux(sel.Rec.Runtime.Socket), m.o.TmuxEnv, sel.Rec))
}

// The board's own keys (keyrows.go) that are not an action on a session.

func (m *Model) nextNeedsYou(*item) tea.Cmd {
	if !m.board.nextNeedsYou() {
		return m.flash("nothing needs you", false)
	}
	return nil
}

func (m *Model) toggleIdle(*item) tea.Cmd {
	m.board.toggleIdle()
	return nil
}

func (m *Model) newSession(*item) tea.Cmd { return m.openNew() }

func (m *Model) turnHost(*item) tea.Cmd {
	return tea.Batch(m.cycleHost(), m.capture(), m.loadHistory(false))
}

func (m *Model) togglePreview(*item) tea.Cmd {
	m.showPrev = !m.showPrev
	m.layout()
	return m.capture()
}

func (m *Model) toggleAllDone(*item) tea.Cmd {
	m.showAll = !m.showAll
	m.rebuild()
	if m.showAll {
		return m.flash("Done shows every terminated session", false)
	}
	return m.flash("Done shows the last 24 h", false)
}

func (m *Model) clearFilter(*item) tea.Cmd {
	if m.filter != "" {
		m.filter = ""
		m.rebuild()
	}
	return nil
}

func (m *Model) toggleTheme(*item) tea.Cmd {
	m.isDark, m.themeSet = !m.isDark, true
	m.setLook()
	return m.saveTheme()
}

func (m *Model) clearDone(*item) tea.Cmd { return m.askClearDone() }

// cleanUp asks to clean up a merged card (d), unless the board cannot
// read the store now.
func (m *Model) cleanUp(sel *item) tea.Cmd {
	if cmd := m.refuseStale(removeAction.verb); cmd != nil {
		return cmd
	}
	return m.askCleanUp(sel)
}
