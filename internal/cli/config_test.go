package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeConfig puts text in the env's config file and returns its path.
func (e *env) writeConfig(text string) string {
	e.t.Helper()
	path := filepath.Join(e.home, ".config", "lanes", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// waitPeek waits until the session's pane shows want.
func (e *env) waitPeek(name, want string) string {
	e.t.Helper()
	end := time.Now().Add(10 * time.Second)
	for {
		out, _, _ := e.run("peek", name)
		if strings.Contains(out, want) {
			return out
		}
		if time.Now().After(end) {
			e.t.Fatalf("%s never showed %q; it shows:\n%s", name, want, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A profile starts its command with its variables in its directory, on
// the file's tmux server; a restart gives the agent the same variables.
func TestConfigProfile(t *testing.T) {
	e := newEnv(t)
	socket := e.vars["LANES_TMUX_SOCKET"]
	delete(e.vars, "LANES_TMUX_SOCKET") // the file says it
	dir := t.TempDir()
	e.writeConfig(`socket = "` + socket + `"
[profiles.greet]
agent = "custom"
args = ["sh", "-c", "echo \"$GREETING from $PWD\"; sleep 60"]
env = { GREETING = "hi there" }
dir = "` + dir + `"
`)
	e.must("new", "g1", "--profile", "greet")
	want := "hi there from " + dir
	e.waitPeek("g1", want)
	e.must("restart", "g1")
	e.waitPeek("g1", want)
	if out := e.must("ls", "--json", "--all"); strings.Contains(out, "hi there") {
		t.Errorf("ls --json shows a profile's variable: %s", out)
	}
	// Arguments after -- replace the profile's; its variables stay.
	e.must("new", "g2", "--profile", "greet", "--", "sh", "-c", "echo \"$GREETING again\"; sleep 60")
	e.waitPeek("g2", "hi there again")

	_, errs, code := e.run("new", "g3", "--profile", "gret")
	if code != exitUsage || !strings.Contains(errs, `no profile "gret"`) || !strings.Contains(errs, "did you mean greet?") {
		t.Errorf("an unknown profile: exit %d, %s", code, errs)
	}
	if out := e.must("__complete", "4", "lanes", "new", "x", "--profile", ""); strings.TrimSpace(out) != "greet" {
		t.Errorf("completion of --profile: %q", out)
	}
}

// Worktrees on by default, with the file's branch prefix;
// --worktree=false starts one without.
func TestConfigWorktreeDefaults(t *testing.T) {
	e := gitEnv(t)
	repo := tempRepo(t, 1)
	e.writeConfig("[worktree]\nenabled = true\nbranch_prefix = \"me/\"\n")
	out := e.must("new", "w1", "--dir", repo, "--", "sleep", "60")
	if !strings.Contains(out, "on new branch me/w1") {
		t.Errorf("new with worktrees on: %s", out)
	}
	out = e.must("new", "w2", "--dir", repo, "--worktree=false", "--", "sleep", "60")
	if strings.Contains(out, "worktree") {
		t.Errorf("--worktree=false made one: %s", out)
	}
}

// Where each setting comes from; what a bad file and an unknown key do.
func TestConfigSourcesAndProblems(t *testing.T) {
	e := newEnv(t)
	path := e.writeConfig("# mine\ntheme = \"light\"\n[pr]\nevery = \"2m\"\n")
	e.vars["LANES_PR_EVERY"] = "off"
	out := e.must("config")
	for _, want := range []string{"theme                   light                   " + path + ":2  (--theme wins)",
		"pr.every                off                     $LANES_PR_EVERY", "agent                   claude                  default",
		"A flag wins over the environment"} {
		if !strings.Contains(out, want) {
			t.Errorf("lanes config lacks %q:\n%s", want, out)
		}
	}
	if out := e.must("config", "--check"); !strings.Contains(out, "fine (2 settings, 0 profiles)") {
		t.Errorf("--check of a good file: %s", out)
	}
	// A global flag of the command line is what it says it is: the winner.
	if out := e.must("--theme", "dark", "--socket", "other", "config"); !strings.Contains(out, "theme                   dark                    --theme\n") ||
		!strings.Contains(out, "socket                  other                   --socket\n") {
		t.Errorf("lanes --theme dark --socket other config:\n%s", out)
	}

	e.writeConfig("theme = \"light\"\n[notify]\nway = [\"tmux\"]\n")
	_, errs, code := e.run("ls")
	if code != exitOK || !strings.Contains(errs, path+`:3:1: unknown key "notify.way" (lanes ignores it); did you mean "notify.ways"?`) {
		t.Errorf("an unknown key: exit %d, %s", code, errs)
	}
	if _, errs, code := e.run("config", "--check"); code != exitError || !strings.Contains(errs, "did you mean") {
		t.Errorf("--check with an unknown key: exit %d, %s", code, errs)
	}

	e.writeConfig("theme = \"light\"\n[worktree]\nenabled = \"yes\"\n")
	for _, cmd := range [][]string{{"ls"}, {"new", "x", "--", "true"}, {}} {
		_, errs, code := e.run(cmd...)
		if code != exitError || !strings.Contains(errs, path+":3:1: worktree.enabled: want true or false") || !strings.Contains(errs, "lanes config --check") {
			t.Errorf("lanes %v with a bad file: exit %d, %s", cmd, code, errs)
		}
	}
	if out, _, code := e.run("doctor"); !strings.Contains(out, "!!  config: "+path+":3:1") {
		t.Errorf("doctor with a bad file: exit %d\n%s", code, out)
	}
	if _, errs, code := e.run("config", "--check"); code != exitError || !strings.Contains(errs, ":3:1:") {
		t.Errorf("--check of a bad file: exit %d, %s", code, errs)
	}
	if _, _, code := e.run("status-line", "--format", "plain"); code != exitOK {
		t.Errorf("status-line with a bad file: exit %d (tmux draws it whatever happens)", code)
	}
}

func TestConfigInit(t *testing.T) {
	e := newEnv(t)
	path := filepath.Join(e.home, ".config", "lanes", "config.toml")
	if out := e.must("config", "--path"); strings.TrimSpace(out) != path {
		t.Errorf("--path: %q", out)
	}
	e.must("config", "--init")
	if out := e.must("config", "--check"); !strings.Contains(out, "fine (0 settings, 0 profiles)") {
		t.Errorf("the written file: %s", out)
	}
	if _, errs, code := e.run("config", "--init"); code != exitError || !strings.Contains(errs, "exists") {
		t.Errorf("a second --init: exit %d, %s", code, errs)
	}
	e.vars["XDG_CONFIG_HOME"] = filepath.Join(e.home, "xdg")
	if out := e.must("config", "--path"); strings.TrimSpace(out) != filepath.Join(e.home, "xdg", "lanes", "config.toml") {
		t.Errorf("--path under XDG_CONFIG_HOME: %q", out)
	}
}
