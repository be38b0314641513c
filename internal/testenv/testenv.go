// Package testenv says when a lanes test may skip. On a developer's
// machine a test whose tool is missing (tmux, node, go, root's rights)
// skips, and `go test -short` skips the tmux tier on purpose (the fast
// tier: README). In CI ($CI set) a full run may skip nothing: CI installs
// what the tests need, so a skip there is a test that stopped testing, and
// it fails instead.
package testenv

import (
	"os"
	"testing"
)

// Skip skips t for why, or fails it in a full CI run.
func Skip(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" && !testing.Short() {
		t.Fatalf("this test would skip in CI (%s): CI must provide what it needs", why)
	}
	t.Skip(why)
}

// TmuxTier skips t in the fast tier (`go test -short`): it drives a real
// tmux server, or a real board.
func TmuxTier(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("the tmux tier: runs without -short")
	}
}
