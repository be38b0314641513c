// Package session owns the session operations the command line and the
// board both run: create, kill, restart, restore, remove, send, answer,
// diff, mute, history and the PR keys. A Service is configured by its
// fields (the store and tmux client factories, the socket new sessions
// start on, the clock, the environment, where warnings go), never by
// flags: it returns results and errors and prints nothing, so each
// operation can be tested without flag parsing and its error paths
// without a tmux server. *Service is the board's tui.Actions.
package session
