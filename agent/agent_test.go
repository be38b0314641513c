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
		!strings.Contains(src, `const ARGS = ["hook","opencode"];`) || !strings.Contains(src, "const INSTALLED = false;") {
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
