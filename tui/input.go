package tui

import (
	"slices"

	"lanes/state"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// onKey routes a key to the open dialog, or acts on the board.
func (m Model) onKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if k.String() == "ctrl+c" {
		return m, tea.Quit
	}
	switch m.mode {
	case modeHelp:
		if n := len(m.helpPages()); n > 1 && (k.String() == "tab" || k.String() == "shift+tab") {
			step := map[bool]int{true: 1, false: n - 1}[k.String() == "tab"]
			m.helpPage = (m.helpPage + step) % n
			return m, nil
		}
		m.mode = modeBoard
		return m, nil
	case modeHistory:
		return m.onHistoryKey(k)
	case modeDiff:
		return m.onDiffKey(k)
	case modeNew, modeSend:
		return m.toDialog(k)
	case modeConfirm:
		var cmd tea.Cmd
		m.confirm, cmd = m.confirm.Update(k)
		return m, cmd
	case modeFilter:
		return m.onFilterKey(k)
	}
	return m.onBoardKey(k)
}

func (m Model) onFilterKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "enter":
		m.mode = modeBoard
		m.filterIn.Blur()
		if m.board.selectFirstCard() {
			return m, tea.Batch(m.capture(), m.loadHistory(false))
		}
		return m, nil
	case "esc":
		m.mode = modeBoard
		m.filterIn.Blur()
		m.filterIn.SetValue("")
		m.filter = ""
		m.rebuild()
		return m, nil
	}
	var cmd tea.Cmd
	m.filterIn, cmd = m.filterIn.Update(k)
	if v := m.filterIn.Value(); v != m.filter {
		m.filter = v
		m.rebuild()
	}
	return m, cmd
}

func (m Model) onBoardKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	sel := m.board.selected()
	before := ""
	if sel != nil {
		before = sel.key()
		if sel.Host != "" {
			if cmd, ok := m.remoteKey(k, sel); ok {
				return m, cmd
			}
		}
	}
	if cmd, ok := m.answerKey(k, sel); ok {
		return m, cmd
	}
	if cmd, ok := m.actionKey(k, sel); ok {
		return m, cmd
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		return m, tea.Quit
	case m.moveKey(k):
	case key.Matches(k, m.keys.Next):
		if !m.board.nextNeedsYou() {
			return m, m.flash("nothing needs you", false)
		}
	case key.Matches(k, m.keys.Idle):
		m.board.toggleIdle()
	case key.Matches(k, m.keys.Attach):
		if m.board.onIdleHead() {
			m.board.toggleIdle()
			return m, nil
		}
		return m, m.attach(sel)
	case key.Matches(k, m.keys.New):
		return m, m.openNew()
	case key.Matches(k, m.keys.Host):
		return m, tea.Batch(m.cycleHost(), m.capture(), m.loadHistory(false))
	case key.Matches(k, m.keys.Preview):
		m.showPrev = !m.showPrev
		m.layout()
		return m, m.capture()
	case key.Matches(k, m.keys.Diff):
		return m, m.openDiff(sel)
	case key.Matches(k, m.keys.History):
		m.mode, m.hist.off = modeHistory, 0
		return m, m.loadHistory(true)
	case key.Matches(k, m.keys.AllDone):
		m.showAll = !m.showAll
		m.rebuild()
		if m.showAll {
			return m, m.flash("Done shows every terminated session", false)
		}
		return m, m.flash("Done shows the last 24 h", false)
	case key.Matches(k, m.keys.Filter):
		m.mode = modeFilter
		return m, m.filterIn.Focus()
	case key.Matches(k, m.keys.ClearFilter):
		if m.filter != "" {
			m.filter = ""
			m.filterIn.SetValue("")
			m.rebuild()
		}
	case key.Matches(k, m.keys.Theme):
		m.isDark, m.themeSet = !m.isDark, true
		m.setLook()
		return m, m.saveTheme()
	case key.Matches(k, m.keys.Help):
		m.mode, m.helpPage = modeHelp, 0
	}
	after := ""
	if sel := m.board.selected(); sel != nil {
		after = sel.key()
	}
	if after != before {
		return m, tea.Batch(m.capture(), m.loadHistory(false), m.seen(m.board.selected()))
	}
	return m, nil
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

// actionKey acts on the selected session for an action key (kill,
// restart, remove, send, mute, PRs, restore) and reports whether k was one.
func (m *Model) actionKey(k tea.KeyPressMsg, sel *item) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, m.keys.Kill):
		return m.ask(killAction, sel), true
	case key.Matches(k, m.keys.Restart):
		return m.ask(restartAction, sel), true
	case key.Matches(k, m.keys.Remove):
		return m.ask(removeAction, sel), true
	case key.Matches(k, m.keys.ClearDone):
		return m.askClearDone(), true
	case key.Matches(k, m.keys.Send):
		return m.openSend(sel), true
	case key.Matches(k, m.keys.Mute):
		return m.mute(sel), true
	case key.Matches(k, m.keys.OpenPR):
		return m.openPR(sel), true
	case key.Matches(k, m.keys.CreatePR):
		return m.askCreatePR(sel), true
	case key.Matches(k, m.keys.Restore):
		return m.askRestore(sel), true
	}
	return nil, false
}

// moveKey moves the selection for a move key and reports whether k was one.
func (m *Model) moveKey(k tea.KeyPressMsg) bool {
	b := &m.board
	switch {
	case key.Matches(k, m.keys.Up):
		b.move(0, -1)
	case key.Matches(k, m.keys.Down):
		b.move(0, 1)
	case key.Matches(k, m.keys.Left):
		b.move(-1, 0)
	case key.Matches(k, m.keys.Right):
		b.move(1, 0)
	case key.Matches(k, m.keys.Top):
		b.jump(-len(b.lanes[b.lane].rows))
	case key.Matches(k, m.keys.Bottom):
		b.jump(len(b.lanes[b.lane].rows))
	case key.Matches(k, m.keys.PageUp):
		b.jump(-b.page())
	case key.Matches(k, m.keys.PageDown):
		b.jump(b.page())
	default:
		return false
	}
	return true
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
		keep.detail += " Its worktree stays at " + wt + " (lanes rm " + sel.Rec.Name + " --worktree removes it when clean)."
		do = &keep
	}
	m.confirm = newConfirm(pending{do: do, rec: *sel.Rec, host: sel.Host})
	m.mode = modeConfirm
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
	m.send = newSendDialog(m.look, *sel.Rec)
	m.send.host = sel.Host
	m.mode = modeSend
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
