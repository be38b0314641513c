package tmux

import (
	"context"
	"errors"
	"strings"
)

// Sentinel errors. Every error returned by a Client wraps at most one of
// them, so callers branch with errors.Is and still get tmux's own words in
// the message.
var (
	// ErrNoServer means no tmux server answered on the socket. It says
	// nothing about whether a session died: an unreachable server is not
	// proof of death.
	ErrNoServer = errors.New("no tmux server")

	// ErrNoSession means the server answered and the session, window or
	// pane named by the target does not exist.
	ErrNoSession = errors.New("no such session or pane")

	// ErrDuplicate means a session with the requested name already exists.
	ErrDuplicate = errors.New("duplicate session")

	// ErrTimeout means tmux did not answer before the deadline (the
	// caller's or the per-call timeout).
	ErrTimeout = errors.New("tmux timed out")

	// ErrInvalid means a request was refused before reaching tmux because
	// tmux would have silently changed its meaning (a session name it
	// rewrites, a pane target that is not a %id, a missing directory it
	// would replace with another, control characters in literal text).
	ErrInvalid = errors.New("invalid tmux request")
	// ErrOtherServer: the caller runs inside another tmux server than the
	// client's, where switch-client cannot reach the session.
	ErrOtherServer = errors.New("inside another tmux server")
)

// The stderr fragments tmux 3.x prints for each condition. They are matched
// case-sensitively, exactly as tmux spells them.
var (
	noServerText = []string{
		"no server running",
		// "error connecting to PATH (No such file or directory)" when the
		// socket does not exist, "(Connection refused)" when it is stale.
		"error connecting to",
		"server exited unexpectedly",
	}
	noSessionText = []string{
		"can't find session",
		"session not found",
		"can't find pane",
		"can't find window",
		"no such session",
	}
	duplicateText = []string{"duplicate session"}
)

// classify maps a failed tmux invocation to the sentinel that describes it,
// or returns err unchanged when none applies. The caller wraps the result
// with the command name and stderr.
func classify(stderr string, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return ErrTimeout
	case errors.Is(err, context.Canceled):
		// The caller gave up; that is neither a timeout nor a tmux fact.
		return err
	case containsAny(stderr, noServerText):
		return ErrNoServer
	case containsAny(stderr, duplicateText):
		return ErrDuplicate
	case containsAny(stderr, noSessionText):
		return ErrNoSession
	}
	return err
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
