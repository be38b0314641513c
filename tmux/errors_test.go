package tmux

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	exitErr := errors.New("exit status 1")
	tests := []struct {
		name   string
		stderr string
		err    error
		want   error
	}{
		{"no server", "no server running on /tmp/tmux-0/x", exitErr, ErrNoServer},
		{"no socket", "error connecting to /tmp/tmux-0/x (No such file or directory)", exitErr, ErrNoServer},
		{"stale socket", "error connecting to /tmp/tmux-0/x (Connection refused)", exitErr, ErrNoServer},
		{"server died", "server exited unexpectedly", exitErr, ErrNoServer},
		{"no session", "can't find session: foo", exitErr, ErrNoSession},
		{"session not found", "session not found: foo", exitErr, ErrNoSession},
		{"no pane", "can't find pane: %99", exitErr, ErrNoSession},
		{"no window", "can't find window: 3", exitErr, ErrNoSession},
		{"no such session", "no such session: =foo", exitErr, ErrNoSession},
		{"duplicate", "duplicate session: foo", exitErr, ErrDuplicate},
		{"deadline", "", context.DeadlineExceeded, ErrTimeout},
		{"deadline beats stderr", "no server running", context.DeadlineExceeded, ErrTimeout},
		{"canceled stays canceled", "", context.Canceled, context.Canceled},
		{"unknown keeps err", "unknown command: frob", exitErr, exitErr},
		{"tmux missing", "", exec.ErrNotFound, exec.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(tt.stderr, tt.err)
			if !errors.Is(got, tt.want) {
				t.Errorf("classify(%q, %v) = %v, want %v", tt.stderr, tt.err, got, tt.want)
			}
		})
	}
}

func TestWrapErrKeepsSentinelAndStderr(t *testing.T) {
	err := wrapErr("kill-session", classify("can't find session: x", errors.New("exit status 1")), "can't find session: x")
	if !errors.Is(err, ErrNoSession) {
		t.Fatalf("%v does not wrap ErrNoSession", err)
	}
	if want := "tmux kill-session: no such session or pane: can't find session: x"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if err := wrapErr("list-panes", ErrTimeout, ""); strings.HasSuffix(err.Error(), ": ") {
		t.Errorf("empty stderr leaves a dangling separator: %q", err)
	}
}
