package tui

import (
	"lanes/agent"

	tea "charm.land/bubbletea/v2"
)

// The key lines' order (footRank): what acts on the card first, then the
// board's keys, ? help and q quit last.
const (
	rankRestore = iota + 1
	rankRestart
	rankRemove
	rankOpenPR
	rankHistory
	rankAllow
	rankDeny
	rankAlways
	rankAttach
	rankNew
	rankSend
	rankKill
	rankPreview
	rankFilter
	rankHelp
	rankQuit
)

// newKeyTable is the board's keys, the `?` columns in their order: moves
// and answers, what acts on a session, what the board shows. y, N and A
// act only on a card in a permission dialog (their handler says why not
// elsewhere), and mean nothing else: n is new and a all done on every
// card, so a person who pressed n to start a session never denies a
// dialog.
func newKeyTable() keyTable {
	t := keyTable{
		{key: bind([]string{"up", "k"}, "↑/k", "up"), when: always, do: move(0, -1), moves: true,
			col: 1, helpAs: helpBinding("↑↓/jk", "up, down")},
		{key: bind([]string{"down", "j"}, "↓/j", "down"), when: always, do: move(0, 1), moves: true},
		{key: bind([]string{"left", "h"}, "←/h", "lane left"), when: always, do: move(-1, 0), moves: true,
			col: 1, helpAs: helpBinding("←→/hl", "lane left, right")},
		{key: bind([]string{"right", "l"}, "→/l", "lane right"), when: always, do: move(1, 0), moves: true},
		{key: bind([]string{"g", "home"}, "g", "lane's first"), when: always, do: jump(-1), moves: true,
			col: 1, helpAs: helpBinding("g/G", "lane's first, last")},
		{key: bind([]string{"G", "end"}, "G", "lane's last"), when: always, do: jump(1), moves: true},
		{key: bind([]string{"pgup", "ctrl+u"}, "pgup", "page up"), when: always, do: page(-1), moves: true,
			col: 1, helpAs: helpBinding("pgup", "page up; pgdn down")},
		{key: bind([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"), when: always, do: page(1), moves: true},
		{key: helpBinding("space", "next needs you"), when: always, do: (*Model).nextNeedsYou, moves: true, col: 1},
		{key: helpBinding("enter", "attach"), when: localCard, do: (*Model).attach, col: 1,
			foot: on(footLive, footExited, footAnswer), footRank: rankAttach},
		{key: helpBinding("enter", "attach"), when: remoteUp, do: (*Model).attachRemote},
		{key: helpBinding("enter", "open the idle stack"), when: onIdleHead, do: (*Model).toggleIdle,
			foot: on(footIdle), footAs: helpBinding("enter", "open, close"), footRank: rankAttach},
		answerRow("y", "allow", agent.Yes, rankAllow),
		answerRow("N", "deny", agent.No, rankDeny),
		answerRow("A", "always", agent.Always, rankAlways),
		{key: bind([]string{"enter", "x", "r", "d", "s", "y", "N", "A", "m", "D", "R", "P"}, "", ""),
			when: hostDown, do: (*Model).refuseHostDown},

		{key: helpBinding("n", "new"), when: always, do: (*Model).newSession, col: 2, foot: everyFoot, footRank: rankNew},
		{key: helpBinding("s", "send"), when: hostUp, do: (*Model).openSend, col: 2, foot: on(footLive), footRank: rankSend},
		{key: helpBinding("r", "restart"), when: hostUp, do: ask(restartAction), col: 2,
			foot: on(footExited), footRank: rankRestart},
		{key: helpBinding("R", "restore (tmux gone)"), when: hostUp, do: (*Model).askRestore, col: 2,
			foot: on(footRestorable), footAs: helpBinding("R", "restore"), footRank: rankRestore},
		{key: helpBinding("x", "kill"), when: hostUp, do: ask(killAction), col: 2, foot: on(footLive), footRank: rankKill},
		{key: helpBinding("d", "remove"), when: unmergedCard, do: ask(removeAction), col: 2,
			foot: on(footExited, footEnded, footRestorable), footRank: rankRemove},
		{key: helpBinding("d", "clean up"), when: mergedCard, do: (*Model).cleanUp,
			foot: on(footMerged), footRank: rankRemove},
		{key: helpBinding("C", "clear all of Done"), when: always, do: (*Model).clearDone, col: 2},
		{key: helpBinding("m", "mute"), when: hostUp, do: (*Model).mute, col: 2},
		{key: helpBinding("o", "open PR"), when: always, do: (*Model).openPR, col: 2, foot: on(footMerged), footRank: rankOpenPR},
		{key: helpBinding("P", "push, create PR"), when: hostUp, do: (*Model).askCreatePR, col: 2},
		// The host filter: in the help only where there are hosts to filter.
		{key: helpBinding("@", "host filter"), when: otherHosts, do: (*Model).turnHost, col: 2},
		{key: helpBinding("@", "host filter"), when: noHosts, do: (*Model).turnHost},

		{key: helpBinding("p", "preview"), when: always, do: (*Model).togglePreview, col: 3,
			foot: on(footLive, footExited), footRank: rankPreview},
		{key: helpBinding("H", "history"), when: always, do: (*Model).openHistory, col: 3,
			foot: on(footEnded, footRestorable, footMerged), footRank: rankHistory},
		{key: helpBinding("D", "diff"), when: hostUp, do: (*Model).openDiff, col: 3},
		{key: helpBinding("i", "idle stack"), when: always, do: (*Model).toggleIdle, moves: true, col: 3},
		{key: helpBinding("a", "all done"), when: always, do: (*Model).toggleAllDone, col: 3},
		{key: helpBinding("/", "filter"), when: always, do: (*Model).openFilter, col: 3, foot: everyFoot, footRank: rankFilter},
		{key: helpBinding("esc", "clear filter"), when: always, do: (*Model).clearFilter, moves: true, col: 3},
		{key: helpBinding("t", "theme"), when: always, do: (*Model).toggleTheme, col: 3},
		{key: helpBinding("?", "help"), when: always, do: (*Model).openHelp, col: 3,
			foot: everyFoot | on(footAnswer), footRank: rankHelp},
		{key: bind([]string{"q", "ctrl+c"}, "q", "quit"), when: always, do: quit, col: 3,
			foot: everyFoot | on(footAnswer), footRank: rankQuit},
	}
	return t
}

// answerRow is the row of the key that gives ans to a dialog card.
func answerRow(k, desc string, ans agent.Answer, rank int) binding {
	return binding{key: helpBinding(k, desc), when: hostUp, answer: ans,
		do:  func(m *Model, sel *item) tea.Cmd { return m.answer(sel, ans) },
		col: 1, helpAs: helpBinding(k, desc+" (dialog card)"), foot: on(footAnswer), footRank: rank}
}

func move(dx, dy int) func(*Model, *item) tea.Cmd {
	return func(m *Model, _ *item) tea.Cmd {
		m.board.move(dx, dy)
		return nil
	}
}

// jump goes to the lane's first (-1) or last (1) session.
func jump(dir int) func(*Model, *item) tea.Cmd {
	return func(m *Model, _ *item) tea.Cmd {
		m.board.jump(dir * len(m.board.lanes[m.board.lane].rows))
		return nil
	}
}

// page goes a screenful of the lane up (-1) or down (1).
func page(dir int) func(*Model, *item) tea.Cmd {
	return func(m *Model, _ *item) tea.Cmd {
		m.board.jump(dir * m.board.page())
		return nil
	}
}

// ask opens the confirmation of do on the selection.
func ask(do *action) func(*Model, *item) tea.Cmd {
	return func(m *Model, sel *item) tea.Cmd { return m.ask(do, sel) }
}

func quit(*Model, *item) tea.Cmd { return tea.Quit }
