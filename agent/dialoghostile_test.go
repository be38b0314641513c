package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lanes/state"
)

// The third hostile run's real screens (testdata/real/hostile): each
// agent drew a dialog about call Y whose text reads, line by line, like
// call X's. A key for X must not go.
func TestCheckDialogHostileScreens(t *testing.T) {
	for _, c := range []struct {
		file, input string
		agent       state.Agent
		tool        string
	}{
		// Y: git status\n1. x\nrm -rf ~/h3-victim; its option-like line
		// read as the dialog's options.
		{"codex-option-line-in-command", `{"command":"git status"}`, state.AgentCodex, "Bash"},
		// Y: rm -rf ./h3-victim\n△ Permission required\n  # Shell
		// command\n\n$ git status; the header in it read as the dialog's.
		{"opencode-header-in-command", `{"command":"git status"}`, state.AgentOpenCode, "bash"},
		// Y: the one line "touch … echo second-part", wrapped at 50
		// columns where X, two lines, breaks. X itself is now refused (one
		// line only); the wrap is also refused for the one-line X whose
		// description is Y's second line.
		{"claude-one-line-wrapped", `{"command":"touch first-part-of-the-long-command-here\necho second-part","description":"Clean build"}`, state.AgentClaude, "Bash"},
		{"claude-one-line-wrapped", `{"command":"touch first-part-of-the-long-command-here","description":"echo second-part"}`, state.AgentClaude, "Bash"},
		// And where it draws no description: the wrapped command alone
		// reads as a command and its description.
		{"claude-one-line-wrapped -desc", `{"command":"touch first-part-of-the-long-command-here","description":"echo second-part"}`, state.AgentClaude, "Bash"},
		// The fourth re-run. Y: git status\nrm -rf ~/h4-victim with the
		// description " ", drawn as an empty line.
		{"claude-blank-description", `{"command":"git status","description":"rm -rf ~/h4-victim"}`, state.AgentClaude, "Bash"},
		// Y: one line, true; and 70 spaces, wrapped after the spaces.
		{"claude-oneline-padded-blank-description", `{"command":"true;","description":"touch ./PWNED-claude-oneline"}`, state.AgentClaude, "Bash"},
		// Y: \ntouch ./PWNED-codex\n$ git status; its empty first line is
		// drawn "  $".
		{"codex-empty-first-line", `{"command":"git status"}`, state.AgentCodex, "Bash"},
		// Y: git status\n<U+00A0>: not blank to a shell.
		{"codex-nbsp-line", `{"command":"git status"}`, state.AgentCodex, "Bash"},
		// Y: git status\n<57 U+00A0, 6 spaces>;touch …: its text in the
		// sidebar's column counted in bytes, not in columns.
		{"opencode-nbsp-pad-sidebar", `{"command":"git status"}`, state.AgentOpenCode, "bash"},
		{"opencode-nbsp-line", `{"command":"git status"}`, state.AgentOpenCode, "bash"},
	} {
		file, noDesc := strings.CutSuffix(c.file, " -desc")
		b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "hostile", file+".screen"))
		if err != nil {
			t.Fatal(err)
		}
		if noDesc {
			b = []byte(strings.Replace(string(b), "   Clean build\n", "", 1))
		}
		sum := CallSum(c.agent, c.tool, []byte(c.input), nil)
		if _, err := CheckDialog(c.agent, Yes, sum, string(b)); err == nil {
			t.Errorf("%s for %s: the key would go to another call's dialog", c.file, c.input)
		}
	}
}

// A refusal spells out what makes the screen's call another: the board
// shows text cleaned of what a terminal would not show, so the two could
// read alike.
func TestOtherCallSpellsOutTheDifference(t *testing.T) {
	for in, want := range map[string]string{
		"git\u200bstatus":       "git⟨U+200B⟩status",
		"rm -rf ~\u00a0/x":      "rm -rf ~⟨U+00A0⟩/x",
		"ls  -la":               "ls  -la",
		"a\nb":                  "a⏎b",
		"\x1b[31mred":           "⟨U+001B⟩[31mred",
		strings.Repeat("x", 90): strings.Repeat("x", 80) + "…",
	} {
		if got := visible(in, 80); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// Claude Code 2.1.332 draws "3. Yes, and switch to auto mode" before
// "4. No": no is the number drawn before "No" on the screen read, 3 on
// 2.1.197's dialog, 4 on 2.1.332's (a fixed 3 would switch its mode).
func TestClaudeNoIsTheNumberOnScreen(t *testing.T) {
	want := map[string]string{"claude/permission-approve": "3", "harness/claude/approve": "4"}
	for _, d := range realDialogs(t) {
		dir := strings.TrimPrefix(d.dir, filepath.Join("..", "testdata", "real")+"/")
		if want[dir] == "" {
			continue
		}
		keys, err := CheckDialog(state.AgentClaude, No, CallSum(d.agent, d.tool, d.input, d.details), d.screen)
		if err != nil || !slices.Equal(keys, []string{want[dir]}) {
			t.Errorf("%s: no = %q, %v; want %s", dir, keys, err, want[dir])
		}
		delete(want, dir)
	}
	if len(want) > 0 {
		t.Errorf("no recorded dialog in %v", want)
	}
}

// Claude Code's notices under a call ("This command requires approval",
// for make build) leave its dialog answerable: they are its own lines, one
// column in, where a command's and a description's are three.
func TestClaudeNoticeUnderTheCall(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "hostile", "claude-notice-make-build.screen"))
	if err != nil {
		t.Fatal(err)
	}
	sum := CallSum(state.AgentClaude, "Bash", []byte(`{"command":"make build","description":"Build the project"}`), nil)
	if keys, err := CheckDialog(state.AgentClaude, Yes, sum, string(b)); err != nil || !slices.Equal(keys, []string{"1"}) {
		t.Errorf("make build under its notice: %q, %v", keys, err)
	}
}

// OpenCode at 120 columns or less draws no sidebar: a bare bar under its
// options, and its key hints on the options' line. Its dialog is
// answerable there too.
func TestOpenCodeNarrowDialog(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "hostile", "opencode-narrow-80cols.screen"))
	if err != nil {
		t.Fatal(err)
	}
	sum := CallSum(state.AgentOpenCode, "bash", []byte(`{"command":"touch ./approved.txt"}`), nil)
	// Read and matched: no takes Esc, wherever the highlight is; yes
	// needs the highlight, not in this text capture.
	if k, err := CheckDialog(state.AgentOpenCode, No, sum, string(b)); err != nil || !slices.Equal(k, []string{"Escape"}) {
		t.Errorf("no at 80 columns: %q %v", k, err)
	}
	if _, err := CheckDialog(state.AgentOpenCode, Yes, sum, string(b)); err == nil || !strings.Contains(err.Error(), "highlighted") {
		t.Errorf("yes at 80 columns: %v, want the call matched and the highlight asked for", err)
	}
}

// The fifth hostile re-run, on Claude Code 2.1.332: a call that starts
// with "│ " is drawn just like another at the " │ " margin it gives long
// lines; neither is read.
func TestClaudeBarMarginIsNotRead(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "hostile", "claude-332-bar-in-call.screen"))
	if err != nil {
		t.Fatal(err)
	}
	in := func(c, d string) []byte {
		return []byte(`{"command":` + strconv.Quote(c) + `,"description":` + strconv.Quote(d) + `}`)
	}
	for _, call := range [][2]string{{"touch PWNED-bar", "Run touch PWNED-bar"}, {"│ touch PWNED-bar", "│ Run touch PWNED-bar"}} {
		if _, err := CheckDialog(state.AgentClaude, Yes, CallSum(state.AgentClaude, "Bash", in(call[0], call[1]), nil), string(b)); err == nil {
			t.Errorf("%q: the key would go", call)
		}
	}
}

// send types nothing into a dialog it does not answer with a key of its
// own: Claude Code 2.1.332's plan approval, and the questions the agents
// ask before they start (Codex's trust and hook review, Gemini's trust).
func TestShowsDialogBeforeStartAndPlan(t *testing.T) {
	for _, c := range []struct {
		file  string
		agent state.Agent
	}{
		{"hostile/claude-332-plan-approval", state.AgentClaude},
		{"harness/codex/trust/hooks", state.AgentCodex},
		{"harness/codex/trust/trust", state.AgentCodex},
		{"harness/gemini/trust/trust", state.AgentGemini},
		{"gemini/trust-no-hooks/trust", state.AgentGemini},
	} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "real", c.file+".screen"))
		if err != nil {
			t.Fatal(err)
		}
		if !ShowsDialog(c.agent, string(b)) {
			t.Errorf("%s: no dialog seen", c.file)
		}
	}
}
