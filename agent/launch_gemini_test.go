package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/state"
)

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
