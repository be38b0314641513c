// Package cli owns the lanes command line: each command's flags, the wiring
// of state, tmux and theme behind it, and exit codes (docs/design.md §10).
// What a command does to a session (create, kill, restart, send, …) is
// internal/session's, which the board runs too; cli parses, resolves the
// session, asks where a command asks, and prints.
// Both binaries run it: cmd/lanes without a board (given no command it
// execs lanes-board) and cmd/lanes-board with the board wired in, so the
// two can never disagree about a command.
package cli
