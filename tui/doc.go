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
package tui
