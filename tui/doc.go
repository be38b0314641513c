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
// The frame pacer (pace.go) sees each view through a wrapper model and sets
// the renderer's tick rate; it reaches Bubble Tea's unexported ticker by
// reflection, the one use of unsafe in lanes, and a test fails when an
// upgrade moves it.
package tui
