package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

const good = `# my lanes
agent = "codex"   # the one I use
theme = "light"

[worktree]
enabled = true
root = "~/wt"

[notify]
ways = ["tmux"]

[pr]
every = "2m"

[profiles.opus]
agent = "claude"
args = ["--model", "opus"]
env = { ANTHROPIC_LOG = "debug", A_B = "x y" }
dir = "~/src/api"
worktree = false
`

func TestParseGood(t *testing.T) {
	f, warnings, problems := Parse([]byte(good), "/home/u")
	if len(warnings)+len(problems) > 0 {
		t.Fatalf("warnings %v, problems %v", warnings, problems)
	}
	for key, want := range map[string]string{"agent": "codex", "theme": "light", "worktree.enabled": "true",
		"worktree.root": "/home/u/wt", "notify.ways": "tmux", "pr.every": "2m"} {
		if got := f.Values[key].Text; got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if v := f.Values["theme"]; v.Line != 3 || v.Col != 1 {
		t.Errorf("theme at %d:%d, want 3:1", v.Line, v.Col)
	}
	p, ok := f.Profile("opus")
	if !ok || p.Agent != "claude" || !slices.Equal(p.Args, []string{"--model", "opus"}) || p.Dir != "/home/u/src/api" ||
		p.Worktree == nil || *p.Worktree || !slices.Equal(p.Env, []string{"ANTHROPIC_LOG=debug", "A_B=x y"}) || p.Line != 15 {
		t.Errorf("profile opus = %+v", p)
	}
}

func TestParseProblems(t *testing.T) {
	cases := []struct {
		name, text string
		warn, bad  string // the first of each, "" for none
	}{
		{"syntax", "theme = \"dark\"\nagent = [\n", "", "2:10: array is incomplete"},
		{"unclosed string", "theme = \"dark\n", "", "1:14: basic strings cannot have new lines"},
		{"type", "\n[worktree]\nenabled = \"yes\"\n", "", "3:1: worktree.enabled: want true or false, not the string \"yes\""},
		{"out of set", "theme = \"drak\"\n", "", `1:1: theme: want "auto", "dark" or "light", not "drak"`},
		{"agent", "agent = \"cluade\"\n", "", `agent: want "claude"`},
		{"duration", "[pr]\nevery = \"1s\"\n", "", "2:1: pr.every: want a duration of at least 5s"},
		{"number for a string", "socket = 3\n", "", "1:1: socket: want a string (in quotes), not the number 3"},
		{"section not a table", "notify = true\n", "", "1:1: notify: want a table ([notify]), not the boolean true"},
		{"ways", "[notify]\nways = [\"bell\"]\n", "", `notify.ways: want each of "terminal", "tmux" or "desktop", not "bell"`},
		{"unknown", "them = \"dark\"\n", `1:1: unknown key "them" (lanes ignores it); did you mean "theme"?`, ""},
		{"unknown in a section", "[notify]\nway = [\"tmux\"]\n", `2:1: unknown key "notify.way" (lanes ignores it); did you mean "notify.ways"?`, ""},
		{"unknown far", "colour = 1\n", `1:1: unknown key "colour" (lanes ignores it)`, ""},
		{"unknown profile key", "[profiles.x]\nagnet = \"codex\"\n", `2:1: unknown key "profiles.x.agnet" (lanes ignores it); did you mean "agent"?`, ""},
		{"profile env of lanes", "[profiles.x]\nenv = { LANES_STATE_DIR = \"/tmp\" }\n", "", "2:1: profiles.x.env: LANES_STATE_DIR is lanes' and tmux's to set"},
		{"profile env name", "[profiles.x]\nenv = { \"A B\" = \"1\" }\n", "", `profiles.x.env: "A B" is not a variable name`},
		{"profile dir", "[profiles.x]\ndir = \"src\"\n", "", `2:1: profiles.x.dir: want an absolute directory (or ~/…), not "src"`},
		{"custom without args", "[profiles.x]\nagent = \"custom\"\n", "", "profiles.x.agent: a custom profile runs its args"},
		{"profile name", "[profiles.\"a b\"]\nagent = \"codex\"\n", "", "1:2: profiles.a b: a profile's name is letters"},
	}
	for _, c := range cases {
		_, warnings, problems := Parse([]byte(c.text), "/home/u")
		for _, x := range []struct {
			what string
			got  []Problem
			want string
		}{{"warning", warnings, c.warn}, {"problem", problems, c.bad}} {
			switch {
			case x.want == "" && len(x.got) > 0:
				t.Errorf("%s: unexpected %s %v", c.name, x.what, x.got)
			case x.want != "" && len(x.got) == 0:
				t.Errorf("%s: no %s, want %q", c.name, x.what, x.want)
			case x.want != "" && !strings.Contains(Says("f", x.got[:1]), x.want):
				t.Errorf("%s: %s %q, want it to contain %q", c.name, x.what, Says("f", x.got[:1]), x.want)
			}
		}
	}
}

func TestGetPrecedence(t *testing.T) {
	f, _, _ := Parse([]byte("socket = \"work\"\ncontent = false\n"), "")
	f.Path = "/c.toml"
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if v, from := f.Get("socket", getenv); v != "work" || from != "/c.toml:1" {
		t.Errorf("socket = %q from %q, want the file's", v, from)
	}
	env["LANES_TMUX_SOCKET"] = "mine"
	if v, from := f.Get("socket", getenv); v != "mine" || from != "$LANES_TMUX_SOCKET" {
		t.Errorf("socket = %q from %q, want the environment's", v, from)
	}
	if v, from := f.Get("theme", getenv); v != "auto" || from != "default" {
		t.Errorf("theme = %q from %q, want the default", v, from)
	}
	layered := f.Getenv(getenv)
	if layered("LANES_TMUX_SOCKET") != "mine" || layered("LANES_CONTENT") != "false" || layered("HOME") != "" {
		t.Errorf("layered getenv: socket %q content %q", layered("LANES_TMUX_SOCKET"), layered("LANES_CONTENT"))
	}
	if f.On("content", getenv) || !f.On("notify.enabled", getenv) {
		t.Error("content should be off and notify on")
	}
}

func TestReadRefusesOthersFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if f, w, err := Read(path, dir, os.Getuid()); err != nil || f.Found || len(w) > 0 {
		t.Fatalf("missing file: %+v %v %v", f, w, err)
	}
	if err := os.WriteFile(path, []byte("theme = \"dark\"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(path, 0o666)
	if _, _, err := Read(path, dir, os.Getuid()); err == nil || !strings.Contains(err.Error(), "chmod go-w") {
		t.Errorf("a file anyone may write: %v", err)
	}
	_ = os.Chmod(path, 0o600)
	if _, _, err := Read(path, dir, os.Getuid()+1); err == nil || !strings.Contains(err.Error(), "not you") {
		t.Errorf("another user's file: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(fifo, dir, os.Getuid()); err == nil || !strings.Contains(err.Error(), "not a file") {
		t.Errorf("a FIFO: %v", err)
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	f, _, err := Read(link, dir, os.Getuid())
	if err != nil || f.Values["theme"].Text != "dark" {
		t.Errorf("through a link: %+v %v", f, err)
	}
	if err := os.WriteFile(path, []byte("theme = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var ce *Error
	if _, _, err := Read(path, dir, os.Getuid()); err == nil || !strings.HasPrefix(err.Error(), path+":1:1: theme") {
		t.Errorf("bad value: %v", err)
	} else if !asError(err, &ce) {
		t.Errorf("bad value is a %T, want *Error", err)
	}
}

func asError(err error, ce **Error) bool {
	e, ok := err.(*Error)
	*ce = e
	return ok
}

// Whatever the file holds, Parse answers without a panic, and every
// problem it names has a place in the file.
func FuzzParse(f *testing.F) {
	for _, s := range []string{good, "theme = 1", "[profiles.x]\nenv = { A = 1 }", "[[profiles]]\n", "a.b.c = 1",
		"[worktree]\nroot = \"~\"", "notify = { ways = [1] }", "[profiles]\nx = 1", "\x00", "theme = \"\\u0000\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		_, warnings, problems := Parse([]byte(text), "/home/u")
		for _, p := range append(warnings, problems...) {
			if p.Line < 1 || p.Col < 1 || p.Msg == "" {
				t.Errorf("a problem without its place: %+v", p)
			}
		}
	})
}
