package git

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/internal/fsafe"
)

// The sixteenth hostile re-run: a global config named by GIT_CONFIG_GLOBAL
// that is missing, or empty (git lists no file without a setting), in a
// directory another user may write, was theirs to fill later; and an
// include through /proc/self is lanes' own view there, git's in git.
func TestConfigChecksWhereGitLooks(t *testing.T) {
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	shared := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for name, global := range map[string]string{"missing": filepath.Join(shared, "none"), "empty": filepath.Join(shared, "empty")} {
		if name == "empty" {
			if err := os.WriteFile(global, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		t.Setenv("GIT_CONFIG_GLOBAL", global)
		configVerdicts.Clear()
		if err := ForeignCheckout(repo); !errors.Is(err, fsafe.ErrForeign) {
			t.Errorf("a global config %s in a directory others may write: %v, want a refusal", name, err)
		}
	}
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	configVerdicts.Clear()
	if err := ForeignCheckout(repo); err != nil {
		t.Fatalf("a repository of the user's own: %v", err)
	}
	// GIT_CONFIG set makes git config list that file alone; git status
	// still reads the repository's (the seventeenth re-run).
	t.Setenv("GIT_CONFIG", "/dev/null")
	f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("[include]\n\tpath = /proc/self/cwd/x.gitconfig\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := ForeignCheckout(repo); !errors.Is(err, fsafe.ErrForeign) {
		t.Errorf("an include through /proc/self: %v, want a refusal", err)
	}
	// A relative path is walked from nowhere lanes knows (the eighteenth:
	// a relative HOME under an include of "~/…").
	c := &configCheck{root: repo, seen: map[string]bool{}}
	if _, err := c.pathOwned("../shared/h/inc.cfg"); !errors.Is(err, fsafe.ErrForeign) {
		t.Errorf("a relative include: %v, want a refusal", err)
	}
}

// git in lanes reads the checkout lanes names, whatever the environment
// says of another repository (the nineteenth re-run: a relative GIT_DIR
// made git, run from a session directory, read a repository another user
// built, while the check had read the checkout's).
func TestGitIgnoresTheEnvironmentsRepository(t *testing.T) {
	repo, other := t.TempDir(), t.TempDir()
	for _, d := range []string{repo, other} {
		if out, err := exec.Command("git", "init", "-q", d).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
	}
	if err := os.Chmod(filepath.Join(other, ".git", "config"), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	configVerdicts.Clear()
	if err := ForeignCheckout(repo); err != nil {
		t.Errorf("GIT_DIR naming another repository: the check read it (%v)", err)
	}
	if got := Env([]string{"GIT_DIR=x", "GIT_WORK_TREE=y", "HOME=/h", "GIT_EXEC_PATH=/tmp/pub", "GIT_ALLOW_PROTOCOL=file", "GIT_CONFIG_GLOBAL=/g"}); len(got) != 2 {
		t.Errorf("Env kept %q", got)
	}
}

// git gets PATH's absolute entries only: git looks its helpers (ssh, a
// credential helper) up on PATH, a relative entry included.
func TestGitEnvDropsRelativePATHEntries(t *testing.T) {
	got := Env([]string{"PATH=bin:/usr/bin::./x:~/bin:/bin", "HOME=/h"})
	if want := []string{"PATH=/usr/bin:/bin", "HOME=/h"}; !slices.Equal(got, want) {
		t.Errorf("Env = %q, want %q", got, want)
	}
}

// A program git runs named by a relative path is found under the
// checkout's top: git never gets one (the twenty-third hostile re-run).
func TestGitEnvDropsRelativePrograms(t *testing.T) {
	if got := Env([]string{"HOME=../h", "GIT_SSH_COMMAND=ssh -oProxyCommand=~/x"}); len(got) != 1 {
		t.Errorf("a relative HOME: Env kept %q", got)
	}
	got := Env([]string{"GIT_SSH=tools/ssh", "GIT_SSH_COMMAND=./ssh -i key", "GIT_PROXY_COMMAND=~/p", "GIT_ASKPASS=bin/ask",
		"SSH_ASKPASS=../a", "GIT_SSH=/usr/bin/ssh", "GIT_SSH_COMMAND=ssh -o BatchMode=yes", "GIT_ASKPASS=", "HOME=/h",
		"GIT_SSH_COMMAND=FOO=1 tools/ssh", "GIT_SSH_COMMAND='tools/ssh' -x", "GIT_SSH_COMMAND=sh -c tools/ssh",
		"GIT_SSH_COMMAND=ssh -oProxyCommand=tools/p", "GIT_SSH_COMMAND='~/bin/ssh'", "GIT_SSH=~/bin/ssh",
		"GIT_SSH_COMMAND=cd tools; sh ssh", "GIT_SSH_COMMAND=true && tools/ssh", "GIT_SSH_COMMAND=/usr/bin/ssh -o ProxyCommand=tools/ssh",
		"GIT_SSH=x tools/ssh", "GIT_ASKPASS=x tools/ssh", "GIT_PROXY_COMMAND=sh tools/ssh", "SSH_ASKPASS=ssh-askpass",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.sshCommand", "GIT_CONFIG_VALUE_0=tools/ssh", "GIT_CONFIG_PARAMETERS='core.askpass'='tools/ssh'", "GIT_SSH_COMMAND=ssh -i ~/.ssh/k -oUserKnownHostsFile=/dev/null"})
	want := []string{"GIT_SSH=/usr/bin/ssh", "GIT_SSH_COMMAND=ssh -o BatchMode=yes", "GIT_ASKPASS=", "HOME=/h",
		"SSH_ASKPASS=ssh-askpass", "GIT_SSH_COMMAND=ssh -i ~/.ssh/k -oUserKnownHostsFile=/dev/null"}
	if !slices.Equal(got, want) {
		t.Errorf("Env = %q, want %q", got, want)
	}
}

// Command finds git on its env's PATH, the absolute entries alone,
// wherever it runs: a bin/git under the current directory never runs
// (the twentieth hostile re-run), and git still runs.
func TestGitCommandSkipsRelativeGit(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "git"), []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	cmd := Command(context.Background(), []string{"PATH=bin:" + filepath.Dir(real)}, "--version")
	out, err := cmd.Output()
	if err != nil || cmd.Path != real || !strings.HasPrefix(string(out), "git version") {
		t.Errorf("Command ran %s: %q, %v; want %s", cmd.Path, out, err, real)
	}
}
