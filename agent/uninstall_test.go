package agent

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/state"
)

// uninstall is Uninstall for tests: the target is closed when the test ends.
func uninstall(t *testing.T, a state.Agent, home, projectDir string) (before, after []byte) {
	t.Helper()
	tg, before, after, err := Uninstall(a, home, projectDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return before, after
}

// Installing and then uninstalling gives back the user's file byte for
// byte, for every agent with a JSON config and every layout people keep.
func TestInstallThenUninstallRoundTrips(t *testing.T) {
	files := map[string]string{
		"compact":    `{"model":"opus","env":{"A":"1"}}`,
		"one member": `{"model": "opus"}` + "\n",
		"tabs":       "{\n\t\"model\": \"caf\\u00e9\",\n\t\"x\": 1,\n\t\"x\": 2\n}\n",
		"comments":   "{\n  // mine\n  \"model\": \"opus\", /* inline */\n  /* env */ \"env\": {}, // trailing comma next\n}\n",
		"own hooks": "{\n  \"hooks\": {\n    // mine\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}],\n" +
			"    \"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"npx guard\"}]}] // end\n  }\n}\n",
	}
	for _, a := range []state.Agent{state.AgentClaude, state.AgentGemini, state.AgentCodex} {
		for name, user := range files {
			t.Run(string(a)+"/"+name, func(t *testing.T) {
				home := t.TempDir()
				path, err := InstallPath(a, home, "")
				if err != nil {
					t.Fatal(err)
				}
				write(t, path, user)
				_, _, installed, err := install(t, a, testBin, home, "")
				if err != nil {
					t.Fatal(err)
				}
				write(t, path, string(installed))
				before, after := uninstall(t, a, home, "")
				if string(before) != string(installed) {
					t.Fatalf("read %q, want the installed file", before)
				}
				if string(after) != user {
					t.Fatalf("uninstalling from\n%s\ngave\n%s\nwant\n%s", installed, after, user)
				}
				if bins, err := InstalledBinaries(a, after); err != nil || len(bins) != 0 {
					t.Errorf("hooks left after uninstall: %q %v", bins, err)
				}
			})
		}
	}
}

// Only what install wrote goes: the user's handler in the same group as
// lanes', and a lanes command without --installed (the user's own, typed
// by hand), stay; an installed hook of an old binary path goes too.
func TestUninstallKeepsTheUsersHooks(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "settings.json")
	write(t, path, userClaudeSettings)
	before, after := uninstall(t, state.AgentClaude, home, "")
	if string(before) != userClaudeSettings {
		t.Fatalf("before %q", before)
	}
	s := string(after)
	if strings.Contains(s, "/old/path/lanes") || strings.Contains(s, "WorktreeCreate") {
		t.Errorf("the installed hooks are still there:\n%s", s)
	}
	for _, keep := range []string{"guard.sh", "afplay", `"npx cchook hook claude"}` + "\n", `"statusLine"`, `"DISABLE_TELEMETRY"`} {
		if !strings.Contains(s, keep) {
			t.Errorf("%q lost:\n%s", keep, s)
		}
	}
	d := parseSettings(t, after)
	if g := d.Hooks["Stop"]; len(g) != 1 || len(g[0].Hooks) != 2 {
		t.Errorf("Stop group: %+v", g)
	}

	// A lanes command without --installed is not one install wrote.
	const handTyped = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "'/usr/local/bin/lanes' hook claude"}]}]}}`
	write(t, path, handTyped)
	if _, after := uninstall(t, state.AgentClaude, home, ""); string(after) != handTyped {
		t.Errorf("a hook install did not write was removed:\n%s", after)
	}

	// Nothing installed: the bytes are left alone.
	write(t, path, s)
	if before, after := uninstall(t, state.AgentClaude, home, ""); string(after) != string(before) {
		t.Errorf("a second uninstall changed the file:\n%s", after)
	}
	// No file at all: nothing to do.
	if before, after := uninstall(t, state.AgentGemini, home, ""); before != nil || after != nil {
		t.Errorf("no file: %q %q", before, after)
	}
}

// OpenCode's plugin file is lanes' alone: uninstalling removes it (after is
// nil), and leaves a lanes.js someone else wrote.
func TestUninstallOpenCode(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	path, _, plugin, err := install(t, state.AgentOpenCode, testBin, home, "")
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, string(plugin))
	if bins, err := InstalledBinaries(state.AgentOpenCode, plugin); err != nil || !slices.Equal(bins, []string{testBin}) {
		t.Fatalf("InstalledBinaries = %q %v", bins, err)
	}
	before, after := uninstall(t, state.AgentOpenCode, home, "")
	if string(before) != string(plugin) || after != nil {
		t.Fatalf("want the plugin removed: before %d bytes, after %q", len(before), after)
	}

	ppath, _ := InstallPath(state.AgentOpenCode, home, project)
	const mine = "export const Mine = async () => ({})\n"
	write(t, ppath, mine)
	if before, after := uninstall(t, state.AgentOpenCode, home, project); string(after) != mine || string(before) != mine {
		t.Errorf("someone else's lanes.js: after %q", after)
	}
}

// InstalledBinaries names the binary of each installed hook, whatever its
// path, and not the injected ones or the user's.
func TestInstalledBinaries(t *testing.T) {
	bins, err := InstalledBinaries(state.AgentClaude, []byte(userClaudeSettings))
	if err != nil || !slices.Equal(bins, []string{"/old/path/lanes", "/old/path/lanes"}) {
		t.Fatalf("InstalledBinaries = %q %v", bins, err)
	}
	quoted := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ` + string(mustJSON(hookCommand("/it's/lanes", "claude", true))) + `}]}]}}`
	if bins, err := InstalledBinaries(state.AgentClaude, []byte(quoted)); err != nil || !slices.Equal(bins, []string{"/it's/lanes"}) {
		t.Fatalf("quoted path: %q %v", bins, err)
	}
	if _, err := InstalledBinaries(state.AgentClaude, []byte("{broken")); err == nil {
		t.Error("broken settings not reported")
	}
}
