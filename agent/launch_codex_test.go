package agent

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/state"
)

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
