package cli

import (
	"context"
	"os"
	"strings"
	"testing"
)

// attach with stdin not a terminal (a script, /dev/null: a character device
// but no terminal) says what it needs in lanes' words, not tmux's "open
// terminal failed" and an exit status (a new user's trial).
func TestAttachWithoutATerminal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "build", "--", "sleep", "600")

	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out, errb strings.Builder
	code := newApp(devnull, &out, &errb, e.getenv).main(context.Background(), []string{"attach", "build"})
	if code == exitOK || !strings.Contains(errb.String(), "attach needs a terminal") || strings.Contains(errb.String(), "exit status") {
		t.Errorf("attach with stdin /dev/null: exit %d, %q", code, errb.String())
	}
}
