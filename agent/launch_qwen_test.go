package agent

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/state"
)

// Qwen Code takes lanes' hooks as Gemini CLI does, in a copy of the
// machine's system defaults named in its variable; with the variable
// unset, the defaults beside its system settings file (which its own
// variable may move) are the machine's.
func TestLaunchQwen(t *testing.T) {
	stateDir := t.TempDir()
	etc := t.TempDir()
	write(t, filepath.Join(etc, "system-defaults.json"), `{
  "model": {"name": "qwen3-coder-plus"},
  "hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "/etc/audit.sh"}]}]}
}`)
	p, err := Launch(state.AgentQwen, testBin, stateDir, testSession, []string{"--approval-mode", "default"},
		envOf(envQwenSystemSettings, filepath.Join(etc, "settings.json")))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(stateDir, "hooks", testSession, qwenDefaults)
	if !slices.Equal(p.Args, []string{"qwen", "--approval-mode", "default"}) || !p.Injected || p.Note != "" {
		t.Fatalf("Args %q Injected %v Note %q", p.Args, p.Injected, p.Note)
	}
	if !slices.Equal(p.Env, []string{"LANES_HOOKS_INJECTED=1", EnvQwenSystemDefaults + "=" + file}) {
		t.Fatalf("Env = %q", p.Env)
	}
	d := parseSettings(t, p.Files[file])
	checkHooks(t, d, claudeHooks, "'/usr/local/bin/lanes' hook qwen")
	if g := d.Hooks["PreToolUse"]; len(g) != 2 || g[0].Hooks[0].Command != "/etc/audit.sh" {
		t.Errorf("the machine's own PreToolUse hook was not kept first: %+v", g)
	}
	if !strings.Contains(string(p.Files[file]), `"qwen3-coder-plus"`) {
		t.Errorf("system defaults lost:\n%s", p.Files[file])
	}
	for ev := range d.Hooks {
		if _, ok := state.Translate(state.Line{Agent: "qwen", Event: ev}); !ok {
			t.Errorf("Translate does not know qwen %s", ev)
		}
	}
	// A defaults file lanes cannot reproduce is never shadowed.
	bad := writeTemp(t, []byte("{ not json"))
	p, err = Launch(state.AgentQwen, testBin, stateDir, testSession, nil, envOf(EnvQwenSystemDefaults, bad))
	if err != nil || p.Injected || len(p.Files) != 0 || !strings.HasPrefix(p.Note, "Qwen Code hooks not injected: system defaults "+bad) {
		t.Errorf("an unreadable defaults file: injected %v files %d note %q err %v", p.Injected, len(p.Files), p.Note, err)
	}
}

// Where Qwen Code finds the machine's system defaults: beside its system
// settings file, which its variable may move.
func TestQwenSystemDefaults(t *testing.T) {
	none := func(string) string { return "" }
	for goos, want := range map[string]string{"linux": "/etc/qwen-code/system-defaults.json",
		"darwin": "/Library/Application Support/QwenCode/system-defaults.json"} {
		if got := qwenSystemDefaults(goos, none); got != want {
			t.Errorf("%s: %q, want %q", goos, got, want)
		}
	}
	if got := qwenSystemDefaults("linux", envOf(envQwenSystemSettings, "/opt/q/settings.json")); got != "/opt/q/system-defaults.json" {
		t.Errorf("with its settings moved: %q", got)
	}
}

// Its "always" is the first of its two "Always allow …" options (this
// project's); a dialog that draws one only is refused, as it could be
// either.
func TestQwenAlwaysIsTheProjects(t *testing.T) {
	d := dialog{call: "touch a", options: optionLines([]string{"› 1. Yes, allow once",
		"  2. Always allow run 'touch *' commands in this project", "  3. Always allow run 'touch *' commands for this user",
		"  4. No, suggest changes (esc)"})}
	if key, ok := d.pick(qwen.keys.Options[Always]); !ok || key != "2" {
		t.Errorf("both drawn: key %q %v, want 2", key, ok)
	}
	d.options = append(d.options[:1], d.options[2:]...)
	if key, ok := d.pick(qwen.keys.Options[Always]); ok {
		t.Errorf("one drawn: key %q taken, want refused", key)
	}
}
