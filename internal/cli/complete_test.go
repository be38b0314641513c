package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lanes/internal/testenv"
)

// What `lanes __complete` offers at each kind of word: commands, a
// command's flags from its synopsis, a flag's values, the sessions of the
// last cycle, NAME@HOST's hosts, answer's words; the word's prefix
// filters them.
func TestCompleteWords(t *testing.T) {
	e := newEnv(t)
	e.must("new", "api", "--", "sleep", "600")
	e.must("new", "db", "--", "sleep", "600")
	e.must("ls") // a cycle: its snapshot holds both
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte("gpu me@gpu.box\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.vars["XDG_CONFIG_HOME"] = cfg
	for _, c := range []struct {
		line string // the words, the last one being completed
		want []string
	}{
		{"lanes a", []string{"attach", "answer"}},
		{"lanes --theme d", []string{"dark"}},
		{"lanes --socket x h", []string{"history", "hook", "hooks", "help"}},
		{"lanes attach ", []string{"api", "db"}},
		{"lanes kill --yes d", []string{"db"}},
		{"lanes rm api@", []string{"api@gpu"}},
		{"lanes new x --", []string{"--profile", "--agent", "--dir", "--worktree", "--branch", "--from", "--help"}},
		{"lanes new x --agent c", []string{"claude", "codex", "custom"}},
		{"lanes new x --dir ", nil}, // a directory: the shell's own
		{"lanes new x -- ", nil},    // the agent's argv
		{"lanes answer api ", []string{"yes", "no", "always"}},
		{"lanes status-line --format ", []string{"tmux", "plain", "json"}},
		{"lanes status-line --session a", []string{"api"}},
		{"lanes hooks ", []string{"install", "uninstall"}},
		{"lanes hooks install s", nil}, // no agent of hooks is "shell"
		{"lanes rm --", []string{"--yes", "--worktree", "--merged", "--done", "--help"}},
		{"lanes completion ", []string{"bash", "zsh", "fish"}},
		{"lanes help re", []string{"restart", "restore"}},
		{"lanes send api hello ", nil},
	} {
		words := strings.Split(c.line, " ")
		out := e.must(append([]string{"__complete", strconv.Itoa(len(words) - 1)}, words...)...)
		if got := strings.Fields(out); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.line, got, c.want)
		}
	}
	if out := e.must("help"); strings.Contains(out, "__complete") {
		t.Error("help lists __complete, the shells' own")
	}
}

// Each shell's script, as `lanes completion SHELL` prints it, run by the
// shell itself: bash's COMPREPLY, zsh's compadd (stood in for: it works
// only inside the completion system), fish's own `complete -C`.
func TestCompletionInEachShell(t *testing.T) {
	e := newEnv(t)
	e.must("new", "api", "--", "sleep", "600")
	e.must("ls")
	path := filepath.Dir(lanesBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	dir := filepath.Join(e.home, "projects", "alpha")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	partial := strings.TrimSuffix(dir, "pha")
	for _, c := range []struct{ shell, script, want string }{
		{"bash", `eval "$(lanes completion bash)"; COMP_WORDS=(lanes attach a); COMP_CWORD=2; _lanes; printf '%s\n' "${COMPREPLY[@]}"`, "api"},
		{"zsh", `compdef() { :; }; compadd() { print -l -- ${(P)${@[-1]}}; }; _files() { print FILES; }
eval "$(lanes completion zsh)"; words=(lanes attach a); CURRENT=3; _lanes`, "api"},
		{"fish", `lanes completion fish | source; complete -C 'lanes attach a'`, "api"},
		// A directory is the shell's own to complete.
		{"zsh", `compdef() { :; }; compadd() { print -l -- ${(P)${@[-1]}}; }; _files() { print FILES; }
eval "$(lanes completion zsh)"; words=(lanes new x --dir ` + partial + `); CURRENT=5; _lanes`, "FILES"},
		{"fish", `lanes completion fish | source; complete -C 'lanes new x --dir ` + partial + `'`, dir + "/"},
	} {
		t.Run(c.shell, func(t *testing.T) {
			bin, err := exec.LookPath(c.shell)
			if err != nil {
				testenv.Skip(t, c.shell+" is not installed")
			}
			args := []string{"-c", c.script}
			if c.shell != "bash" {
				args = append([]string{map[string]string{"zsh": "-f", "fish": "-N"}[c.shell]}, args...)
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = []string{"PATH=" + path, "HOME=" + e.home, "LANES_STATE_DIR=" + e.state, "LANES_TMUX_SOCKET=" + e.tc.Socket}
			out, err := cmd.CombinedOutput()
			if got := strings.TrimSpace(string(out)); err != nil || got != c.want {
				t.Errorf("%s completes as %q (%v), want %q", c.shell, got, err, c.want)
			}
		})
	}
}
