package cli

import (
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"lanes/state"
)

// TestHelpListsBoardFlags: `lanes --help` names every flag the board
// parses (`lanes` alone opens the board, so its flags are lanes' own) and
// the variables the board reads.
func TestHelpListsBoardFlags(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	help := e.must("--help")
	boardHelp := e.must("board", "--help")
	flags := regexp.MustCompile(`(?m)^  --([a-z][a-z-]*)`).FindAllStringSubmatch(boardHelp, -1)
	if len(flags) == 0 {
		t.Fatalf("found no flags in `lanes board --help`:\n%s", boardHelp)
	}
	for _, f := range flags {
		if !strings.Contains(help, "--"+f[1]) {
			t.Errorf("`lanes --help` does not list --%s:\n%s", f[1], help)
		}
	}
	for _, want := range []string{"dark|light", "LANES_CONTENT", "NO_COLOR"} {
		if !strings.Contains(help, want) {
			t.Errorf("`lanes --help` does not mention %s:\n%s", want, help)
		}
	}
}

// TestBoardContentOff: LANES_CONTENT=off reaches the board as NoContent,
// read once where the board's options are built.
func TestBoardContentOff(t *testing.T) {
	for _, v := range []string{"", "on", "off"} {
		var got BoardOptions
		dir := t.TempDir()
		a := newApp(strings.NewReader(""), io.Discard, io.Discard, func(k string) string {
			return map[string]string{"LANES_STATE_DIR": dir, "LANES_TMUX_SOCKET": "lanes-test-noserver", state.EnvContent: v}[k]
		})
		a.board = func(_ context.Context, o BoardOptions) error { got = o; return nil }
		if code := a.main(t.Context(), []string{"--theme", "dark"}); code != exitOK {
			t.Fatalf("LANES_CONTENT=%q: exit %d", v, code)
		}
		if got.NoContent != (v == "off") {
			t.Errorf("LANES_CONTENT=%q: NoContent = %v", v, got.NoContent)
		}
	}
}

// TestHelpListsReadmeVariables: every LANES_ variable the README tells
// users about is in `lanes --help` too (trial 3, item 15).
func TestHelpListsReadmeVariables(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	a := newApp(strings.NewReader(""), &out, io.Discard, func(string) string { return "" })
	a.main(context.Background(), []string{"--help"})
	for _, v := range regexp.MustCompile(`LANES_[A-Z_]+`).FindAllString(string(readme), -1) {
		if !strings.Contains(out.String(), v) {
			t.Errorf("the README names %s; `lanes --help` does not:\n%s", v, out.String())
		}
	}
}
