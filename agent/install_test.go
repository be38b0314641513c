package agent

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state"
)

// A user's Claude settings with keys and hooks of their own, including a
// group that mixes their handler with one an older lanes installed.
const userClaudeSettings = `{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(npm run test *)", "Read(~/.zshrc)"],
        "deny": ["Read(./.env)"]
    },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh", "timeout": 5}
                ]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {"type": "command", "command": "afplay /System/Library/Sounds/Glass.aiff"},
                    {"type": "command", "command": "npx cchook hook claude"},
                    {"type": "command", "command": "'/old/path/lanes' hook claude --installed"}
                ]
            }
        ],
        "WorktreeCreate": [
            {"hooks": [{"type": "command", "command": "'/old/path/lanes' hook claude --installed"}]}
        ]
    },
    "env": {"DISABLE_TELEMETRY": "1"},
    "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"}
}
`

func TestInstallClaudeMerge(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "settings.json")
	write(t, path, userClaudeSettings)

	gotPath, before, after, err := install(t, state.AgentClaude, testBin, home, "")
	if err != nil {
		t.Fatal(err)
	}
	if gotPath != path || string(before) != userClaudeSettings {
		t.Fatalf("path %s, before %q", gotPath, before)
	}
	d := parseSettings(t, after)
	cmd := "'/usr/local/bin/lanes' hook claude --installed"
	checkHooks(t, d, claudeHooks, cmd)

	s := string(after)
	// Every other key survives, in its place, with its indentation.
	order := []string{`"model": "opus"`, `"permissions"`, `"Bash(npm run test *)"`, `"hooks"`, `"env"`, `"DISABLE_TELEMETRY": "1"`, `"statusLine"`}
	last := -1
	for _, k := range order {
		i := strings.Index(s, k)
		if i < 0 || i < last {
			t.Fatalf("key %s lost or moved:\n%s", k, s)
		}
		last = i
	}
	if !strings.Contains(s, "\n    \"model\"") {
		t.Errorf("indentation not kept:\n%s", s)
	}
	// The user's hooks are kept, first; the old lanes handler is gone, and the
	// event only lanes used (WorktreeCreate) with it.
	if g := d.Hooks["PreToolUse"]; len(g) != 2 || *g[0].Matcher != "Bash" || !strings.HasSuffix(g[0].Hooks[0].Command, "guard.sh") {
		t.Errorf("user PreToolUse hook not kept first: %+v", g)
	}
	if g := d.Hooks["Stop"]; len(g) != 2 || len(g[0].Hooks) != 2 || g[0].Hooks[0].Command != "afplay /System/Library/Sounds/Glass.aiff" ||
		g[0].Hooks[1].Command != "npx cchook hook claude" {
		t.Errorf("user Stop hook: %+v", g)
	}
	if strings.Contains(s, "/old/path/lanes") {
		t.Errorf("the old lanes hook is still there:\n%s", s)
	}
	if _, ok := d.Hooks["WorktreeCreate"]; ok {
		t.Error("an event only lanes used was kept empty")
	}

	// Installing again gives the same bytes.
	write(t, path, string(after))
	_, before2, after2, err := install(t, state.AgentClaude, testBin, home, "")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before2, after) || !bytes.Equal(after2, after) {
		t.Fatalf("second install changed the file:\n%s", after2)
	}

	// A new binary path replaces, never adds.
	_, _, after3, err := install(t, state.AgentClaude, "/opt/lanes/bin/lanes", home, "")
	if err != nil {
		t.Fatal(err)
	}
	checkHooks(t, parseSettings(t, after3), claudeHooks, "'/opt/lanes/bin/lanes' hook claude --installed")
	if strings.Contains(string(after3), "/usr/local/bin/lanes") {
		t.Error("the previous path's hooks were kept")
	}
}

func TestInstallNewFiles(t *testing.T) {
	for _, tc := range []struct {
		agent state.Agent
		path  string
		specs []hookSpec
		cmd   string
	}{
		{state.AgentClaude, ".claude/settings.json", claudeHooks, "'/usr/local/bin/lanes' hook claude --installed"},
		{state.AgentGemini, ".gemini/settings.json", geminiHooks, "'/usr/local/bin/lanes' hook gemini --installed"},
		{state.AgentCodex, ".codex/hooks.json", codexHooks, "'/usr/local/bin/lanes' hook codex --installed"},
		{state.AgentQwen, ".qwen/settings.json", claudeHooks, "'/usr/local/bin/lanes' hook qwen --installed"},
	} {
		t.Run(string(tc.agent), func(t *testing.T) {
			home, project := t.TempDir(), t.TempDir()
			for _, scope := range []struct{ base, dir string }{{home, ""}, {project, project}} {
				path, before, after, err := install(t, tc.agent, testBin, home, scope.dir)
				if err != nil {
					t.Fatal(err)
				}
				if path != filepath.Join(scope.base, tc.path) || before != nil {
					t.Fatalf("path %s before %q", path, before)
				}
				d := parseSettings(t, after)
				checkHooks(t, d, tc.specs, tc.cmd)
				if len(d.Hooks) != len(tc.specs) {
					t.Errorf("%d events, want %d", len(d.Hooks), len(tc.specs))
				}
			}
			ok, err := Installed(tc.agent, home)
			if err != nil || ok {
				t.Fatalf("Installed before writing = %v, %v", ok, err)
			}
			path, _, after, _ := install(t, tc.agent, testBin, home, "")
			write(t, path, string(after))
			if ok, err := Installed(tc.agent, home); err != nil || !ok {
				t.Fatalf("Installed after writing = %v, %v", ok, err)
			}
		})
	}
}

func TestInstallGeminiKeepsSettings(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".gemini", "settings.json")
	const user = `{
  "general": {"vimMode": true},
  "hooksConfig": {"enabled": true, "disabled": ["noisy"]},
  "hooks": {
    "AfterAgent": [{"hooks": [{"name": "notify", "type": "command", "command": "notify-send done", "timeout": 3000}]}]
  },
  "mcpServers": {"github": {"command": "github-mcp", "args": ["stdio"]}}
}
`
	write(t, path, user)
	_, _, after, err := install(t, state.AgentGemini, testBin, home, "")
	if err != nil {
		t.Fatal(err)
	}
	d := parseSettings(t, after)
	checkHooks(t, d, geminiHooks, "'/usr/local/bin/lanes' hook gemini --installed")
	if g := d.Hooks["AfterAgent"]; len(g) != 2 || g[0].Hooks[0].Command != "notify-send done" {
		t.Errorf("user AfterAgent hook: %+v", g)
	}
	for _, k := range []string{`"vimMode": true`, `"disabled": [`, `"github-mcp"`, `"stdio"`} {
		if !strings.Contains(string(after), k) {
			t.Errorf("%s lost:\n%s", k, after)
		}
	}
}

// A plugin agent's file (OpenCode's plugin, pi's extension) is lanes'
// alone: written whole, rewritten in place, never over another's.
func TestInstallPlugins(t *testing.T) {
	for _, tc := range []struct {
		agent         state.Agent
		user, project string
	}{
		{state.AgentOpenCode, ".config/opencode/plugins/lanes.js", ".opencode/plugins/lanes.js"},
		{state.AgentPi, ".pi/agent/extensions/lanes.ts", ".pi/extensions/lanes.ts"},
	} {
		t.Run(string(tc.agent), func(t *testing.T) { installPlugin(t, tc.agent, tc.user, tc.project) })
	}
}

func installPlugin(t *testing.T, agent state.Agent, user, proj string) {
	home, project := t.TempDir(), t.TempDir()
	path, before, after, err := install(t, agent, testBin, home, "")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(home, user) || before != nil {
		t.Fatalf("path %s before %q", path, before)
	}
	if !strings.Contains(string(after), `const ARGS = ["hook","`+string(agent)+`","--installed"];`) ||
		!strings.Contains(string(after), "const INSTALLED = true;") {
		t.Fatalf("plugin:\n%s", after)
	}
	if ok, _ := Installed(agent, home); ok {
		t.Fatal("installed before writing")
	}
	write(t, path, string(after))
	if ok, err := Installed(agent, home); !ok || err != nil {
		t.Fatalf("Installed = %v, %v", ok, err)
	}
	_, before2, after2, err := install(t, agent, testBin, home, "")
	if err != nil || !bytes.Equal(before2, after) || !bytes.Equal(after2, after) {
		t.Fatalf("reinstall: %v", err)
	}

	ppath, _, _, err := install(t, agent, testBin, home, project)
	if err != nil || ppath != filepath.Join(project, proj) {
		t.Fatalf("project path %s %v", ppath, err)
	}
	write(t, ppath, "export const Mine = async () => ({})\n")
	if _, _, _, err := install(t, agent, testBin, home, project); !errors.Is(err, ErrNotOurs) {
		t.Fatalf("someone else's file overwritten: %v", err)
	}
}

func TestInstallRefuses(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct{ name, content string }{
		{"invalid JSON", `{"model": "opus",,}`},
		{"an unclosed comment", "{\n  /* mine\n  \"model\": \"opus\"\n}\n"},
		{"not an object", `["hooks"]`},
		{"hooks not an object", `{"hooks": []}`},
		{"event not an array", `{"hooks": {"Stop": {"command": "x"}}}`},
		{"trailing data", `{} {}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(home, ".claude", "settings.json")
			write(t, path, tc.content)
			if _, _, _, err := install(t, state.AgentClaude, testBin, home, ""); err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	for _, a := range []state.Agent{state.AgentShell, state.AgentCustom} {
		if _, _, _, err := install(t, a, testBin, home, ""); !errors.Is(err, ErrNoHooks) {
			t.Errorf("%s: err = %v", a, err)
		}
		if ok, err := Installed(a, home); ok || err != nil {
			t.Errorf("%s: Installed %v %v", a, ok, err)
		}
	}
	if _, _, _, err := install(t, state.AgentClaude, "lanes", home, ""); err == nil {
		t.Error("relative binary accepted")
	}
	if _, _, _, err := install(t, state.AgentClaude, testBin, "", ""); err == nil {
		t.Error("no home accepted")
	}
}

func TestInstallEmptyFile(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".codex", "hooks.json")
	write(t, path, "\n")
	_, before, after, err := install(t, state.AgentCodex, testBin, home, "")
	if err != nil || string(before) != "\n" {
		t.Fatalf("%q %v", before, err)
	}
	checkHooks(t, parseSettings(t, after), codexHooks, "'/usr/local/bin/lanes' hook codex --installed")
}

func TestInstalledPartial(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "settings.json")
	write(t, path, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "'/usr/local/bin/lanes' hook claude --installed"}]}]}}`)
	if ok, err := Installed(state.AgentClaude, home); ok || err != nil {
		t.Fatalf("one event of many counts as installed: %v %v", ok, err)
	}
	write(t, path, "{broken")
	if _, err := Installed(state.AgentClaude, home); err == nil {
		t.Fatal("broken settings not reported")
	}
	// Injected hook files (no --installed) are not an installation.
	p, err := Launch(state.AgentClaude, testBin, t.TempDir(), testSession, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range p.Files {
		write(t, path, string(b))
	}
	if ok, _ := Installed(state.AgentClaude, home); ok {
		t.Fatal("injected settings counted as installed")
	}
	_ = os.Remove(path)
}

// install is Install for tests: the file's path; the target is closed when
// the test ends.
func install(t *testing.T, a state.Agent, bin, home, projectDir string) (path string, before, after []byte, err error) {
	t.Helper()
	tg, before, after, err := Install(a, bin, home, projectDir)
	if tg == nil {
		return "", before, after, err
	}
	t.Cleanup(func() { tg.Close() })
	return tg.Path, before, after, err
}
