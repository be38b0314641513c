// Package tui is the lanes board: a Bubble Tea program that shows every
// session in its lane (Working with its idle stack, Needs you, In review,
// Ready to merge, Done), a sidebar of activity dots, a pane preview, and the
// dialogs that start, kill, restart, remove and prompt sessions.
//
// It is the only package that builds UI with Bubble Tea or Bubbles. It never
// decides a status itself: every card, badge and lane comes from
// state.Derive, and every dot from theme.ActivitySpec of the raw activity.
// All I/O (collector cycles, tmux captures, actions) runs in tea.Cmds that
// return messages; Update and View only read and arrange what they carry.
//
// What opens over the board (help, history, diff, the new-session, send
// and confirm dialogs, the filter) is an overlay (overlay.go), one type a
// file with its own update, view and keys, on a stack in the Model: the
// top one has the keyboard, closing pops it, and it asks the board to act
// through messages (submitNewMsg, confirmedMsg, submitSendMsg). The
// board's own keys are one table (keyrows.go): each row a binding, its
// handler, when it applies (a merged card, another host's card, a host
// that is down, other hosts at all) and where `?` and the key line show
// it; onBoardKey walks it, both are drawn from it, and a test checks that
// no key has two rows that apply at once.
//
// The frame pacer (pace.go) sees each view through a wrapper model and sets
// the renderer's tick rate; it reaches Bubble Tea's unexported ticker by
// reflection, the one use of unsafe in lanes, and a test fails when an
// upgrade moves it.
package tui
