package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"lanes/internal/config"
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

// TestHelpListsReadmeVariables: every LANES_ variable the README and the
// user's docs tell users about is in `lanes --help` too (trial 3, item
// 15), and every config key is in docs/configuration.md.
func TestHelpListsReadmeVariables(t *testing.T) {
	t.Parallel()
	docs, _ := filepath.Glob("../../docs/*.md")
	var readme []byte
	for _, f := range append([]string{"../../README.md"}, docs...) {
		if strings.HasSuffix(f, "design.md") || strings.HasSuffix(f, "research.md") || strings.HasSuffix(f, "real-agents.md") {
			continue // the project's own notes, not the user's
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		readme = append(readme, b...)
	}
	cfg, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range config.Settings {
		if !strings.Contains(string(cfg), "`"+s.Key+"`") {
			t.Errorf("docs/configuration.md does not name the setting %s", s.Key)
		}
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

// Every command's usage line names each of its flags, and no help points
// into the design notes, which are not the user's documentation.
func TestUsageLinesNameEveryFlag(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, c := range commands() {
		help := e.must(c.name, "--help")
		if strings.Contains(help, "design.md") {
			t.Errorf("`lanes %s --help` points into docs/design.md:\n%s", c.name, help)
		}
		usage, _, _ := strings.Cut(help, "\n")
		for _, f := range regexp.MustCompile(`(?m)^  --([a-z][a-z-]*)`).FindAllStringSubmatch(help, -1) {
			if c.name != "pr" && !strings.Contains(usage, "--"+f[1]) {
				t.Errorf("`lanes %s` usage %q does not show --%s", c.name, usage, f[1])
			}
		}
	}
	if ls := e.must("ls", "--help"); !strings.Contains(ls, "/dev/null") {
		t.Errorf("`lanes ls --help` does not say a stdin of /dev/null does not end --watch:\n%s", ls)
	}
}
