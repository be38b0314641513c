package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tailscale/hujson"

	"lanes/internal/testenv"
	"lanes/state"
)

const (
	testBin     = "/usr/local/bin/lanes"
	testSession = "k3v9x2ab"
)

// envOf is an environment with only the given variables.
func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// settingsDoc is the generic shape of every agent's hook settings.
type settingsDoc struct {
	Hooks map[string][]struct {
		Matcher *string `json:"matcher"`
		Hooks   []struct {
			Name    string `json:"name"`
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout int    `json:"timeout"`
		} `json:"hooks"`
	} `json:"hooks"`
}

func parseSettings(t *testing.T, b []byte) settingsDoc {
	t.Helper()
	var d settingsDoc
	std, err := hujson.Standardize(bytes.Clone(b)) // JSONC as the agents read it; Standardize writes over its input
	if err != nil {
		t.Fatalf("settings do not parse: %v\n%s", err, b)
	}
	if err := json.Unmarshal(std, &d); err != nil {
		t.Fatalf("settings do not parse: %v\n%s", err, b)
	}
	return d
}

// checkHooks: every spec's event has exactly one lanes handler running cmd,
// with the spec's matcher.
func checkHooks(t *testing.T, d settingsDoc, specs []hookSpec, cmd string) {
	t.Helper()
	for _, s := range specs {
		n := 0
		for _, g := range d.Hooks[s.Event] {
			for _, h := range g.Hooks {
				if h.Command != cmd {
					continue
				}
				n++
				if h.Type != "command" {
					t.Errorf("%s: type %q", s.Event, h.Type)
				}
				m := ""
				if g.Matcher != nil {
					m = *g.Matcher
				}
				if m != s.Matcher {
					t.Errorf("%s: matcher %q, want %q", s.Event, m, s.Matcher)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d handlers running %q, want 1", s.Event, n, cmd)
		}
	}
}

func TestLaunchClaude(t *testing.T) {
	stateDir := t.TempDir()
	p, err := Launch(state.AgentClaude, testBin, stateDir, testSession, []string{"--model", "opus"}, envOf())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(stateDir, "hooks", testSession, "claude-settings.json")
	want := []string{"claude", "--settings", file, "--model", "opus"}
	if !slices.Equal(p.Args, want) {
		t.Fatalf("Args = %q, want %q", p.Args, want)
	}
	if !p.Injected || !slices.Equal(p.Env, []string{"LANES_HOOKS_INJECTED=1"}) {
		t.Fatalf("Injected %v Env %q", p.Injected, p.Env)
	}
	if len(p.Files) != 1 || p.Files[file] == nil {
		t.Fatalf("Files = %v", keys(p.Files))
	}
	d := parseSettings(t, p.Files[file])
	if len(d.Hooks) != len(claudeHooks) {
		t.Errorf("%d events, want %d", len(d.Hooks), len(claudeHooks))
	}
	checkHooks(t, d, claudeHooks, "'/usr/local/bin/lanes' hook claude")
	for _, ev := range []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"PostToolUseFailure", "PermissionRequest", "Notification", "Stop", "StopFailure", "SubagentStart",
		"SubagentStop", "PreCompact"} {
		if _, ok := d.Hooks[ev]; !ok {
			t.Errorf("event %s missing", ev)
		}
	}
	if d.Hooks["Stop"][0].Hooks[0].Timeout != claudeTimeoutSec {
		t.Errorf("timeout %d", d.Hooks["Stop"][0].Hooks[0].Timeout)
	}
	// Every event Claude will send is one Translate knows.
	for ev := range d.Hooks {
		if _, ok := state.Translate(state.Line{Agent: "claude", Event: ev}); !ok {
			t.Errorf("Translate does not know claude %s", ev)
		}
	}
}

// The binary path survives the shell whatever it contains.
func TestHookCommandQuoting(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		testenv.Skip(t, "no sh")
	}
	for _, bin := range []string{
		"/usr/local/bin/lanes",
		"/home/o'brien/my tools/lanes",
		`/tmp/$(touch pwned)/"x"/lanes`,
		"/tmp/a\\b/`id`/*;lanes",
	} {
		cmd := hookCommand(bin, "claude", true)
		// Make the words the shell parses the positional parameters.
		words, err := exec.Command(sh, "-c", "set -- "+cmd+`; printf '%s\n' "$@"`).Output()
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		got := strings.Split(strings.TrimSuffix(string(words), "\n"), "\n")
		want := []string{bin, "hook", "claude", "--installed"}
		if !slices.Equal(got, want) {
			t.Errorf("command %s\n words %q, want %q", cmd, got, want)
		}
		if !isLanesCommand(cmd, "claude") || isLanesCommand(cmd, "gemini") {
			t.Errorf("isLanesCommand(%q) wrong", cmd)
		}
	}
}

func TestLaunchCodex(t *testing.T) {
	stateDir := t.TempDir()
	codexHomeDir := t.TempDir()
	write(t, filepath.Join(codexHomeDir, "config.toml"), `model = "gpt-5-codex"
notify = ["notify-send", "Codex finished"] # desktop toast

[tui]
notifications = true
`)
	p, err := Launch(state.AgentCodex, testBin, stateDir, testSession, []string{"--search"}, envOf("CODEX_HOME", codexHomeDir, "HOME", "/nonexistent"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Args[0] != "codex" || p.Args[len(p.Args)-1] != "--search" || !p.Injected {
		t.Fatalf("Args = %q Injected %v", p.Args, p.Injected)
	}
	if len(p.Files) != 0 {
		t.Errorf("Codex needs no files, got %v", keys(p.Files))
	}
	overrides := codexOverrides(t, p.Args)
	for _, h := range codexHooks {
		v, ok := overrides["hooks."+h.Event]
		if !ok {
			t.Errorf("no -c hooks.%s", h.Event)
			continue
		}
		want := `[{hooks=[{type="command",command="'/usr/local/bin/lanes' hook codex"}]}]`
		if v != want {
			t.Errorf("hooks.%s = %s, want %s", h.Event, v, want)
		}
		if _, _, err := parseTopLevelNotify("hooks = " + v); err != nil {
			t.Errorf("hooks.%s is not TOML: %v", h.Event, err)
		}
		if _, ok := state.Translate(state.Line{Agent: "codex", Event: h.Event}); !ok {
			t.Errorf("Translate does not know codex %s", h.Event)
		}
	}
	// Esc on a dialog and Ctrl-C mid-turn fire only Interrupt (Codex 0.171).
	if _, ok := overrides["hooks.Interrupt"]; !ok {
		t.Error("no -c hooks.Interrupt: an Esc or Ctrl-C would leave the card Needs input or Working")
	}
	notify, _, err := parseTopLevelNotify("notify = " + overrides["notify"])
	if err != nil {
		t.Fatalf("notify override %q: %v", overrides["notify"], err)
	}
	if want := []string{testBin, "hook", "codex", "notify"}; !slices.Equal(notify, want) {
		t.Errorf("notify = %q, want %q", notify, want)
	}
	wantEnv := []string{"LANES_HOOKS_INJECTED=1", `LANES_CODEX_NOTIFY_CHAIN=["notify-send","Codex finished"]`}
	if !slices.Equal(p.Env, wantEnv) {
		t.Errorf("Env = %q, want %q", p.Env, wantEnv)
	}
}

// codexOverrides collects the -c key=value pairs of a Codex argv.
func codexOverrides(t *testing.T, args []string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for i := 0; i < len(args); i++ {
		if args[i] != "-c" {
			continue
		}
		if i+1 >= len(args) {
			t.Fatalf("-c without a value in %q", args)
		}
		k, v, ok := strings.Cut(args[i+1], "=")
		if !ok {
			t.Fatalf("-c %q has no '='", args[i+1])
		}
		m[k] = v
		i++
	}
	return m
}

func TestLaunchCodexNotifyChain(t *testing.T) {
	cases := []struct {
		name      string
		config    string // "" = no config.toml
		wantChain string // "" = no chain variable
		notify    bool   // lanes' notify override present
	}{
		{"no config", "", "", true},
		{"no notify key", "model = \"o3\"\n", "", true},
		{"notify in a table is not the top-level key", "[profiles.fast]\nnotify = [\"x\"]\n", "", true},
		{"multi-line with comments and literal strings", "approval_policy = \"on-request\"\nnotify = [\n  'python3', # interpreter\n  '/Users/me/.codex/notify.py',\n]\n",
			`["python3","/Users/me/.codex/notify.py"]`, true},
		{"escapes", `notify = ["/opt/bin/say \"done\"", "C:\\tools\\n.exe"]` + "\n", `["/opt/bin/say \"done\"","C:\\tools\\n.exe"]`, true},
		{"after tricky values", "a = [[1, 2], [\"[x]\"]]\nb = \"\"\"\n[not a table]\n\"\"\"\nc = { d = [1], e = '[' }\nnotify = [\"ntfy\"]\n", `["ntfy"]`, true},
		{"already lanes", `notify = ["/usr/local/bin/lanes", "hook", "codex", "notify"]` + "\n", "", true},
		{"empty array", "notify = []\n", "", true},
		{"unreadable notify keeps the user's", "notify = \"notify-send\"\n", "", false},
		{"broken file keeps the user's", "notify = [\"unterminated\n", "", false},
		{"a file Codex would refuse keeps the user's", "notify = [\"ntfy\"]\nmodel = o3\n", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if tc.config != "" {
				write(t, filepath.Join(home, ".codex", "config.toml"), tc.config)
			}
			p, err := Launch(state.AgentCodex, testBin, t.TempDir(), testSession, nil, envOf("HOME", home))
			if err != nil {
				t.Fatal(err)
			}
			chain := ""
			for _, kv := range p.Env {
				if v, ok := strings.CutPrefix(kv, EnvCodexNotifyChain+"="); ok {
					chain = v
				}
			}
			if chain != tc.wantChain {
				t.Errorf("chain = %s, want %s", chain, tc.wantChain)
			}
			_, has := codexOverrides(t, p.Args)["notify"]
			if has != tc.notify {
				t.Errorf("notify override present = %v, want %v (note %q)", has, tc.notify, p.Note)
			}
			// The note names the file, so the user knows what to fix.
			config := filepath.Join(home, ".codex", "config.toml")
			if !tc.notify && (!strings.Contains(p.Note, "notify left as configured") || !strings.Contains(p.Note, config)) {
				t.Errorf("Note = %q", p.Note)
			}
		})
	}
}

func TestLaunchGemini(t *testing.T) {
	stateDir := t.TempDir()
	defaults := filepath.Join(t.TempDir(), "system-defaults.json")
	write(t, defaults, `{
  "ui": {"theme": "GitHub"},
  "hooks": {
    "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "/etc/audit.sh"}]}]
  }
}`)
	p, err := Launch(state.AgentGemini, testBin, stateDir, testSession, []string{"-m", "gemini-2.5-pro"},
		envOf(EnvGeminiSystemDefaults, defaults))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(stateDir, "hooks", testSession, "gemini-system-defaults.json")
	if !slices.Equal(p.Args, []string{"gemini", "-m", "gemini-2.5-pro"}) || !p.Injected {
		t.Fatalf("Args %q Injected %v", p.Args, p.Injected)
	}
	if !slices.Equal(p.Env, []string{"LANES_HOOKS_INJECTED=1", EnvGeminiSystemDefaults + "=" + file}) {
		t.Fatalf("Env = %q", p.Env)
	}
	b := p.Files[file]
	d := parseSettings(t, b)
	checkHooks(t, d, geminiHooks, "'/usr/local/bin/lanes' hook gemini")
	if g := d.Hooks["BeforeTool"]; len(g) != 2 || g[0].Hooks[0].Command != "/etc/audit.sh" {
		t.Errorf("the machine's own BeforeTool hook was not kept first: %+v", g)
	}
	if !strings.Contains(string(b), `"theme": "GitHub"`) {
		t.Errorf("system defaults lost:\n%s", b)
	}
	if d.Hooks["BeforeModel"][0].Hooks[0].Timeout != geminiTimeoutMs || d.Hooks["BeforeModel"][0].Hooks[0].Name != "lanes" {
		t.Errorf("handler = %+v", d.Hooks["BeforeModel"][0].Hooks[0])
	}
	for ev := range d.Hooks {
		if _, ok := state.Translate(state.Line{Agent: "gemini", Event: ev}); !ok {
			t.Errorf("Translate does not know gemini %s", ev)
		}
	}

	// Launching from inside a lanes Gemini session (the variable points at
	// another session's copy) does not stack lanes' hooks.
	p2, err := Launch(state.AgentGemini, "/other/lanes", stateDir, "zz9plur1", nil, envOf(EnvGeminiSystemDefaults, writeTemp(t, b)))
	if err != nil {
		t.Fatal(err)
	}
	d2 := parseSettings(t, p2.Files[filepath.Join(stateDir, "hooks", "zz9plur1", "gemini-system-defaults.json")])
	checkHooks(t, d2, geminiHooks, "'/other/lanes' hook gemini")
	if strings.Contains(string(p2.Files[filepath.Join(stateDir, "hooks", "zz9plur1", "gemini-system-defaults.json")]), "/usr/local/bin/lanes") {
		t.Error("the other session's lanes hooks were kept")
	}
}

func TestLaunchGeminiDefaults(t *testing.T) {
	t.Run("missing defaults file", func(t *testing.T) {
		p, err := Launch(state.AgentGemini, testBin, t.TempDir(), testSession, nil,
			envOf(EnvGeminiSystemDefaults, filepath.Join(t.TempDir(), "none.json")))
		if err != nil || !p.Injected || len(p.Files) != 1 {
			t.Fatalf("%+v %v", p, err)
		}
	})
	t.Run("defaults with comments keep them", func(t *testing.T) {
		const admin = "{\n  // admin\n  \"ui\": {}\n}\n"
		f := writeTemp(t, []byte(admin))
		p, err := Launch(state.AgentGemini, testBin, t.TempDir(), testSession, []string{"-y"}, envOf(EnvGeminiSystemDefaults, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range p.Files {
			if !p.Injected || !strings.HasPrefix(string(b), "{\n  // admin\n  \"ui\": {},\n  \"hooks\": {") {
				t.Fatalf("%+v\n%s", p, b)
			}
		}
	})
	t.Run("defaults that are not JSON are not shadowed", func(t *testing.T) {
		f := writeTemp(t, []byte("ui = {}\n"))
		p, err := Launch(state.AgentGemini, testBin, t.TempDir(), testSession, []string{"-y"}, envOf(EnvGeminiSystemDefaults, f))
		if err != nil {
			t.Fatal(err)
		}
		if p.Injected || len(p.Env) != 0 || len(p.Files) != 0 || !strings.Contains(p.Note, "not JSON") || !slices.Equal(p.Args, []string{"gemini", "-y"}) {
			t.Fatalf("%+v", p)
		}
	})
}

func TestLaunchOpenCode(t *testing.T) {
	stateDir := t.TempDir()
	p, err := Launch(state.AgentOpenCode, testBin, stateDir, testSession, []string{"--continue"}, envOf())
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(stateDir, "hooks", testSession, "opencode")
	file := filepath.Join(cfg, "plugins", "lanes.js")
	if !p.Injected || !slices.Equal(p.Args, []string{"opencode", "--continue"}) ||
		!slices.Equal(p.Env, []string{"LANES_HOOKS_INJECTED=1", "OPENCODE_CONFIG_DIR=" + cfg}) {
		t.Fatalf("%+v", p)
	}
	src := string(p.Files[file])
	if !isLanesPlugin(p.Files[file]) || !strings.Contains(src, `const LANES = "/usr/local/bin/lanes";`) ||
		!strings.Contains(src, `const ARGS = ["hook", "opencode"];`) || !strings.Contains(src, "const INSTALLED = false;") {
		t.Fatalf("plugin:\n%s", src)
	}
	for _, ev := range pluginEvents(src) {
		if _, ok := state.Translate(state.Line{Agent: "opencode", Event: ev}); !ok {
			t.Errorf("plugin sends %q, which Translate does not know", ev)
		}
	}

	p, err = Launch(state.AgentOpenCode, testBin, stateDir, testSession, nil, envOf(EnvOpenCodeConfigDir, "/home/me/oc-profile"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Injected || len(p.Env) != 0 || len(p.Files) != 0 || !strings.Contains(p.Note, "/home/me/oc-profile") {
		t.Fatalf("user's OPENCODE_CONFIG_DIR must be left alone: %+v", p)
	}
}

// pluginEvents lists the event names the plugin source sends.
func pluginEvents(src string) []string {
	var out []string
	for _, part := range strings.Split(src, `send("`)[1:] {
		out = append(out, part[:strings.IndexByte(part, '"')])
	}
	for _, part := range strings.Split(src, `case "`)[1:] {
		ev := part[:strings.IndexByte(part, '"')]
		if strings.HasPrefix(ev, "permission.") || strings.HasPrefix(ev, "question.") {
			out = append(out, ev) // forwarded as send(event.type, …)
		}
	}
	return out
}

func TestLaunchNoHooks(t *testing.T) {
	p, err := Launch(state.AgentShell, testBin, t.TempDir(), testSession, nil, envOf("SHELL", "/bin/zsh"))
	if err != nil || p.Injected || !slices.Equal(p.Args, []string{"/bin/zsh"}) || len(p.Env) != 0 {
		t.Fatalf("shell: %+v %v", p, err)
	}
	p, err = Launch(state.AgentShell, testBin, t.TempDir(), testSession, nil, nil)
	if err != nil || !slices.Equal(p.Args, []string{"/bin/sh"}) {
		t.Fatalf("shell without $SHELL: %+v %v", p, err)
	}
	p, err = Launch(state.AgentCustom, testBin, t.TempDir(), testSession, []string{"aider", "--model", "sonnet"}, envOf())
	if err != nil || p.Injected || !slices.Equal(p.Args, []string{"aider", "--model", "sonnet"}) || len(p.Files) != 0 {
		t.Fatalf("custom: %+v %v", p, err)
	}
	if _, err := Launch(state.AgentCustom, testBin, t.TempDir(), testSession, nil, envOf()); err == nil {
		t.Fatal("custom without a command accepted")
	}
}

func TestLaunchRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, call := range map[string]func() error{
		"relative lanes binary": func() error {
			_, err := Launch(state.AgentClaude, "lanes", dir, testSession, nil, nil)
			return err
		},
		"relative state dir": func() error {
			_, err := Launch(state.AgentClaude, testBin, "state", testSession, nil, nil)
			return err
		},
		"bad session id": func() error {
			_, err := Launch(state.AgentClaude, testBin, dir, "../../etc", nil, nil)
			return err
		},
		"unknown agent": func() error {
			_, err := Launch("aider", testBin, dir, testSession, nil, nil)
			return err
		},
	} {
		if call() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "file.json")
	write(t, path, string(b))
	return path
}

func TestIsLanesCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"'/usr/local/bin/lanes' hook claude":               true,
		"'/usr/local/bin/lanes' hook claude --installed":   true,
		"  '/home/o'\\''brien/lanes' hook claude  ":        true,
		"'/usr/local/bin/lanes' hook gemini":               false,
		"npx cchook hook claude":                           false,
		"/usr/local/bin/lanes hook claude":                 false, // not how lanes writes it: the user's
		"'/usr/local/bin/lanes' hook claude; rm -rf ~":     false,
		"'/usr/local/bin/lanes' hook claude --installed x": false,
		"'' hook claude":                                   false,
		"'unterminated hook claude":                        false,
		"":                                                 false,
	} {
		if got := isLanesCommand(cmd, "claude"); got != want {
			t.Errorf("isLanesCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// realGeminiReads is the check TestMain stubs out: the tests' temp dirs
// sit under a world-writable /tmp, where Gemini CLI would skip the file.
var realGeminiReads = geminiReads

func TestMain(m *testing.M) {
	geminiReads = func(string) error { return nil }
	os.Exit(m.Run())
}

// Gemini CLI 0.61 skips a system defaults file that is not root's or sits
// under a directory others may write (the real agent said "Security
// Warning: Skipping system defaults file … Parent directory '/tmp' is
// insecure" and ran with no hooks): lanes says so instead of injecting
// hooks that never report.
func TestGeminiDefaultsWhereGeminiSkipsThem(t *testing.T) {
	err := realGeminiReads(filepath.Join(t.TempDir(), "hooks", "s1"))
	switch {
	case os.Geteuid() != 0 && (err == nil || !strings.Contains(err.Error(), "uid")):
		t.Fatalf("as uid %d: %v, want a refusal naming the uid", os.Geteuid(), err)
	case os.Geteuid() == 0 && (err == nil || !strings.Contains(err.Error(), "writable by group or others")):
		t.Fatalf("under a world-writable temp dir: %v, want a refusal", err)
	}
	err = realGeminiReads("/lanes-test-absent/hooks/s1") // only / exists: root's, 0755
	if (os.Geteuid() == 0) != (err == nil) {
		t.Fatalf("as uid %d under /: %v", os.Geteuid(), err)
	}
	geminiReads = realGeminiReads
	defer func() { geminiReads = func(string) error { return nil } }()
	p, err := Launch(state.AgentGemini, testBin, t.TempDir(), testSession, nil, envOf(EnvGeminiSystemDefaults, filepath.Join(t.TempDir(), "none.json")))
	if err != nil || p.Injected || len(p.Files) != 0 || !strings.Contains(p.Note, "lanes hooks install gemini") {
		t.Fatalf("Gemini launch under a world-writable dir: %+v %v", p, err)
	}
}
