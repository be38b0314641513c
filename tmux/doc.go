// Package tmux is lanes' typed client over the tmux command line.
//
// It owns every conversation with a tmux server: creating, killing and
// respawning sessions and panes, the single per-cycle read of all panes
// (ListPanes), capturing a pane's tail, typing text into a pane, and the argv
// for attaching or switching a terminal client. It imports only the standard
// library and knows nothing about agents: a session is marked as ours by the
// user option @lanes_id, whose value it stores and reports but never
// interprets.
//
// Rules every call follows, because tmux quietly does something else
// otherwise:
//
//   - Targets are exact. Sessions are addressed by "$id" or "=name"
//     (SessionTarget); a bare name is a prefix match, so "foo" would find
//     "foo-bar". Panes are addressed only by "%id".
//   - Options are set per session or per pane, never globally: the user's
//     own tmux configuration is not ours to change.
//   - Nothing goes through a shell. Commands reach tmux as separate argv
//     words, and every word is escaped against tmux's own argv parsing
//     (see escapeArg), which would otherwise read a trailing ';' as a
//     command separator.
//   - Text a user wrote never goes in argv, which every local user can read
//     in /proc/PID/cmdline: SendText hands it to tmux on standard input.
//   - Each call runs under the caller's context plus a per-call timeout, and
//     failures are classified into sentinel errors (ErrNoServer,
//     ErrNoSession, ErrDuplicate, ErrTimeout, ErrInvalid) so callers can tell
//     "tmux is unreachable" from "the session is gone".
package tmux
