package cli

import (
	"context"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

var parseArgsCases = []struct {
	args      string
	textAfter int
	want      string // fs.Args(), then |tail when "--" ended the flags, then flags set
	err       string // "help" for flag.ErrHelp
}{
	// Flags before, between and after positional arguments, any spelling.
	{"--agent codex x", -1, "[x] agent=codex", ""},
	{"x --agent codex", -1, "[x] agent=codex", ""},
	{"a --force b", -1, "[a b] force", ""},
	{"-agent=codex x -force", -1, "[x] agent=codex force", ""},
	{"x -", -1, "[x -]", ""}, // "-" alone is an argument (send's stdin)
	// "--" ends the flags and is not an argument; after it nothing is a flag.
	{"x -- --force -y", -1, "[x --force -y] |[--force -y]", ""},
	{"-- sh", -1, "[sh] |[sh]", ""},
	{"x --", -1, "[x] |[]", ""},
	{"x -- --bogus -h", -1, "[x --bogus -h] |[--bogus -h]", ""},
	{"pr --force -- a -- b", -1, "[pr a -- b] |[a -- b] force", ""},
	// new: the agent's argv after "--", flags of lanes before it.
	{"api --agent codex -- --model m", -1, "[api --model m] |[--model m] agent=codex", ""},
	// A flag's value is the next word, whatever it is.
	{"--agent -- x", -1, "[x] agent=--", ""},
	// A flag missing its value is an error, not a positional taken for it.
	{"x --agent", -1, "", "flag needs an argument: -agent"},
	{"--agent", 1, "", "flag needs an argument: -agent"},
	// Help anywhere a flag may be.
	{"-h x", -1, "", "help"},
	{"x --help", -1, "", "help"},
	{"x y -help", -1, "", "help"},
	{"api -h", 1, "", "help"},
	// Unknown flags.
	{"x --bogus", -1, "", "flag provided but not defined: -bogus"},
	{"api --forse hi", 1, "", "flag provided but not defined: -forse"},
	{"api -x", 1, "", "flag provided but not defined: -x"},
	// send: after NAME everything is text, dashes and "--" too; a "--"
	// before the text ends the flags and is not text.
	{"api --force -- -x", 1, "[api -x] |[-x] force", ""},
	{"api hi --force", 1, "[api hi --force]", ""},
	{"api hi -h", 1, "[api hi -h]", ""},
	{"api a -- b", 1, "[api a -- b]", ""},
	{"api -- --force -y", 1, "[api --force -y] |[--force -y]", ""},
	{"-- api -z", 1, "[api -z] |[api -z]", ""},
	{"--force api -- -- x", 1, "[api -- x] |[-- x] force", ""},
	// The global flags: the command and its words are the command's.
	{"--agent codex ls --force", 0, "[ls --force] agent=codex", ""},
	{"ls --agent codex", 0, "[ls --agent codex]", ""},
	{"-- ls", 0, "[ls] |[ls]", ""},
	{"--bogus ls", 0, "", "flag provided but not defined: -bogus"},
}

// TestParseArgs: every rule of the one parser, and its special case
// (send: text after 1 positional; the global flags: the command after 0).
func TestParseArgs(t *testing.T) {
	for _, c := range parseArgsCases {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		agent := fs.String("agent", "", "")
		force := fs.Bool("force", false, "")
		tail, err := parseArgs(fs, strings.Fields(c.args), c.textAfter)
		switch {
		case c.err == "help":
			if !errors.Is(err, flag.ErrHelp) {
				t.Errorf("%q (textAfter %d): err %v, want help", c.args, c.textAfter, err)
			}
			continue
		case c.err != "":
			if err == nil || err.Error() != c.err {
				t.Errorf("%q (textAfter %d): err %v, want %q", c.args, c.textAfter, err, c.err)
			}
			continue
		case err != nil:
			t.Errorf("%q (textAfter %d): %v", c.args, c.textAfter, err)
			continue
		}
		got := []string{"[" + strings.Join(fs.Args(), " ") + "]"}
		if tail != nil {
			got = append(got, "|["+strings.Join(tail, " ")+"]")
		}
		if *agent != "" {
			got = append(got, "agent="+*agent)
		}
		if *force {
			got = append(got, "force")
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q (textAfter %d): %s, want %s", c.args, c.textAfter, g, c.want)
		}
	}
}

// Usage mistakes found by the parser exit 2 before lanes touches tmux or
// the state dir; help exits 0.
func TestParseUsageExits(t *testing.T) {
	for _, c := range []struct {
		args string
		code int
		want string // in stderr, or stdout for exit 0
	}{
		// A flag's mistake says lanes: and the flag with two dashes, for
		// the global flags and a command's alike (trial 3, item 15).
		{"--bogus", exitUsage, "lanes: flag provided but not defined: --bogus\n"},
		{"--socket", exitUsage, "lanes: flag needs an argument: --socket\n"},
		{"ls --jsn", exitUsage, "lanes: flag provided but not defined: --jsn\n\nUsage: lanes ls"},
		{"ls -jsn", exitUsage, "lanes: flag provided but not defined: --jsn\n\nUsage: lanes ls"},
		{"--help", exitOK, "Global flags:"},
		{"ls --bogus", exitUsage, "Usage: lanes ls"},
		{"version --socket s", exitUsage, "lanes: flag provided but not defined: --socket\n"},
		{"version -h", exitOK, "Usage: lanes version"},
		{"new -- sh", exitUsage, "new needs a NAME before --"},
		{"new --agent codex -- sh", exitUsage, "new needs a NAME before --"},
		{"new", exitUsage, "new needs a NAME\n"},
		{"new api sh", exitUsage, `unexpected "sh": put agent arguments after --`},
		{"new api --dir", exitUsage, "lanes: flag needs an argument: --dir\n"},
		// The board names command sessions custom; nothing after -- is no
		// command, not Claude (trial 5, item 9).
		{"new api --", exitUsage, "nothing after --: give the command to run"},
		{"new api --agent custom", exitUsage, "--agent custom runs the command after --"},
		{"new api --agent custom --", exitUsage, "nothing after --: give the command to run"},
		{"new api --agent vim -- x", exitUsage, `unknown agent "vim" (want one of claude, codex, gemini, opencode, qwen, pi, shell, or custom with a command after --)`},
		{"new --dir /tmp api --help", exitOK, "Usage: lanes new NAME"},
		{"send api --forse hi", exitUsage, "put -- before it"},
		{"send api", exitUsage, "send needs a NAME and TEXT"},
	} {
		var out, errs strings.Builder
		a := newApp(strings.NewReader(""), &out, &errs, func(string) string { return "" })
		code := a.main(context.Background(), strings.Fields(c.args))
		got := errs.String()
		if c.code == exitOK {
			got = out.String()
		}
		if code != c.code || !strings.Contains(got, c.want) {
			t.Errorf("lanes %s: exit %d\n%s%s\nwant exit %d and %q", c.args, code, out.String(), errs.String(), c.code, c.want)
		}
	}
}
