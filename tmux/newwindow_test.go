package tmux_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// A window named by another host's words opens under exactly those words,
// and nothing in them runs: tmux expands -n as a format.
func TestNewWindowArgvNameIsLiteral(t *testing.T) {
	srv := tmuxtest.Server(t)
	if _, err := srv.Run(t.Context(), "new-session", "-d", "-s", "work", "sleep", "600"); err != nil {
		t.Fatal(err)
	}
	ran := filepath.Join(t.TempDir(), "ran")
	name := "x#(touch " + ran + ")#{session_name}@evil"
	argv := tmux.NewWindowArgv(name, []string{"sleep", "600"})
	if argv[0] != "tmux" || argv[1] != "new-window" {
		t.Fatalf("argv %q", argv)
	}
	if _, err := srv.Run(t.Context(), append([]string{"new-window", "-d", "-t", "work"}, argv[2:]...)...); err != nil {
		t.Fatal(err)
	}
	out, err := srv.Run(t.Context(), "list-windows", "-t", "work", "-F", "#{window_name}")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), name+"\n") {
		t.Errorf("windows %q, want one named %q", out, name)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the name's #(…) ran")
	}
}
