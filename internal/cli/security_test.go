package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/testenv"
	"lanes/state/store"
)

// nobody is the uid tests give files "another user" owns (needs root).
const nobody = 65534

// offlineEnv is an env for commands that need no tmux server.
func offlineEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, state: filepath.Join(t.TempDir(), "state"), home: t.TempDir()}
	e.vars = map[string]string{
		"LANES_STATE_DIR":   e.state,
		"LANES_TMUX_SOCKET": "lanes-test-offline-none",
		"HOME":              e.home,
		"PATH":              os.Getenv("PATH"),
	}
	return e
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A user who can write the project dir plants links at every name the
// install used to write through (the fixed temp name and the backup names
// of the coming seconds); the install writes none of their targets.
func TestHooksInstallFollowsNoPlantedLink(t *testing.T) {
	e := offlineEnv(t)
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	e.now = func() time.Time { return now }
	project := t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	old := `{"model": "opus"}` + "\n"
	writeFile(t, settings, old)
	victim := filepath.Join(t.TempDir(), "profile")
	writeFile(t, victim, "root's profile\n")
	links := []string{settings + ".lanes-tmp"}
	for s := range 5 {
		links = append(links, settings+".lanes-backup-"+now.Add(time.Duration(s)*time.Second).Format("20060102T150405Z"))
	}
	for _, l := range links {
		if err := os.Symlink(victim, l); err != nil {
			t.Fatal(err)
		}
	}

	out := e.must("hooks", "install", "claude", "--project", project)

	if got := readFile(t, victim); got != "root's profile\n" {
		t.Fatalf("a planted link was followed: the victim now holds %q", got)
	}
	fi, err := os.Lstat(settings)
	if err != nil || !fi.Mode().IsRegular() || !strings.Contains(readFile(t, settings), "hook claude") {
		t.Fatalf("settings.json not installed as a regular file: %v %v", fi, err)
	}
	backup := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "backup: "))
	for _, l := range links {
		if backup == l {
			t.Fatalf("the backup %s has a predictable name", backup)
		}
	}
	if got := readFile(t, backup); got != old {
		t.Fatalf("backup holds %q, want the old bytes", got)
	}
}

// A dotfile manager's symlink stays a symlink: lanes writes its target.
func TestHooksInstallKeepsADotfileLink(t *testing.T) {
	e := offlineEnv(t)
	dotfiles := t.TempDir()
	target := filepath.Join(dotfiles, "claude-settings.json")
	writeFile(t, target, `{"model": "opus"}`+"\n")
	link := filepath.Join(e.home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	out := e.must("hooks", "install", "claude")
	if dest, err := os.Readlink(link); err != nil || dest != target {
		t.Fatalf("settings.json is no longer the dotfile link: %q %v", dest, err)
	}
	if !strings.Contains(readFile(t, target), "hook claude") {
		t.Fatalf("the link's target was not installed into:\n%s", readFile(t, target))
	}
	if got := readFile(t, target); !strings.HasPrefix(got, `{"model": "opus", "hooks": {"SessionStart":[`) || strings.Count(got, "\n") != 1 {
		t.Errorf("the dotfile's own bytes or its one-line layout were rewritten:\n%s", got)
	}
	if !strings.Contains(out, "backup: "+dotfiles+string(filepath.Separator)) {
		t.Errorf("the backup is not beside the target:\n%s", out)
	}
}

// A settings link another user planted, or one to another user's file, is
// refused; the file it points to is left alone.
func TestHooksInstallRefusesAForeignLink(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skip(t, "needs root to chown to nobody; fsafe's tests cover the rule with an injected uid")
	}
	for _, foreign := range []string{"link", "target"} {
		t.Run(foreign, func(t *testing.T) {
			e := offlineEnv(t)
			project := t.TempDir()
			victim := filepath.Join(t.TempDir(), "victim.json")
			writeFile(t, victim, `{"untouched": true}`)
			link := filepath.Join(project, ".claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(victim, link); err != nil {
				t.Fatal(err)
			}
			owned := map[string]string{"link": link, "target": victim}[foreign]
			if err := os.Lchown(owned, nobody, nobody); err != nil {
				t.Fatal(err)
			}
			_, errs, code := e.run("hooks", "install", "claude", "--project", project)
			if code == 0 || !strings.Contains(errs, "owned by") {
				t.Fatalf("install through a foreign %s: exit %d, stderr %q", foreign, code, errs)
			}
			if got := readFile(t, victim); got != `{"untouched": true}` {
				t.Fatalf("the victim was written: %q", got)
			}
		})
	}
}

// Files lanes writes in its state dir replace a planted link rather than
// write through it.
func TestStateWritesFollowNoLink(t *testing.T) {
	e := newEnv(t)
	e.must("ls")
	victim := filepath.Join(t.TempDir(), "victim")
	writeFile(t, victim, "victim\n")
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(victim, old, old); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"names/w", "last-cycle", "hook-errors.log"} {
		p := filepath.Join(e.state, rel)
		_ = os.Remove(p)
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
	}
	e.must("new", "w", "--", "sleep", "3600")
	e.must("ls")
	e.run("hook", "nonsense") // an error, for hook-errors.log
	fi, err := os.Stat(victim)
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, victim); got != "victim\n" || !fi.ModTime().Equal(old) {
		t.Fatalf("a link in the state dir was followed: %q, mtime %v", got, fi.ModTime())
	}
	if fi, err := os.Lstat(filepath.Join(e.state, "names", "w")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("names/w is not a regular file: %v %v", fi, err)
	}
}

// A state dir another user can write is refused by every command but the
// hook, which writes nothing and stays silent.
func TestStateDirWritableByOthersIsRefused(t *testing.T) {
	e := offlineEnv(t)
	if err := os.MkdirAll(e.state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(e.state, 0o777); err != nil {
		t.Fatal(err)
	}
	_, errs, code := e.run("ls")
	if code != exitError || !strings.Contains(errs, "writable by other users") || !strings.Contains(errs, "chmod -R go-rwx "+e.state) {
		t.Fatalf("ls in a world-writable state dir: exit %d, stderr %q", code, errs)
	}
	out, _, _ := e.run("doctor")
	if !strings.Contains(out, "writable by other users") {
		t.Errorf("doctor does not say the state dir is writable by others:\n%s", out)
	}
	assertHookWritesNothing(t, e)
}

// A state dir another user owns (they can rewrite stored commands) is
// refused with who owns it and what to do.
func TestStateDirOwnedByAnotherUserIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skip(t, "needs root to chown to nobody; state's tests cover the rule with an injected uid")
	}
	e := offlineEnv(t)
	if err := os.MkdirAll(e.state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := store.New(e.state).Update(func(*store.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(e.state, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"ls"}, {"restart", "x"}, {"new", "x", "--", "true"}} {
		_, errs, code := e.run(cmd...)
		if code != exitError || !strings.Contains(errs, "owned by nobody (uid 65534)") || !strings.Contains(errs, "LANES_STATE_DIR") {
			t.Fatalf("%v in a state dir nobody owns: exit %d, stderr %q", cmd, code, errs)
		}
	}
	out, _, _ := e.run("doctor")
	if !strings.Contains(out, "owned by nobody (uid 65534)") {
		t.Errorf("doctor does not name the state dir's owner:\n%s", out)
	}
	assertHookWritesNothing(t, e)

	// The store or the spool owned by someone else is refused just the same.
	if err := os.Chown(e.state, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(filepath.Join(e.state, "lanes.db"), nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := e.run("ls"); code != exitError || !strings.Contains(errs, "lanes.db") {
		t.Fatalf("ls with a store nobody owns: exit %d, stderr %q", code, errs)
	}
}

func assertHookWritesNothing(t *testing.T, e *env) {
	t.Helper()
	cwd := t.TempDir()
	t.Chdir(cwd)
	before := listTree(t, e.state)
	e.vars["LANES_SESSION"], e.vars["LANES_LAUNCH"] = "abcdefgh", "l1"
	defer delete(e.vars, "LANES_SESSION")
	defer delete(e.vars, "LANES_LAUNCH")
	for _, args := range [][]string{{"hook", "generic", "active"}, {"hook", "nonsense"}} {
		out, errs, code := e.run(args...)
		if code != 0 || out != "" || errs != "" {
			t.Fatalf("%v: the hook must exit 0 silently: %d %q %q", args, code, out, errs)
		}
	}
	if after := listTree(t, e.state); after != before {
		t.Errorf("the hook wrote into the refused state dir:\nbefore %s\nafter  %s", before, after)
	}
	if got := listTree(t, cwd); got != "" {
		t.Errorf("the hook wrote into its working dir: %s", got)
	}
}

func listTree(t *testing.T, root string) string {
	t.Helper()
	var b bytes.Buffer
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != root {
			fi, _ := d.Info()
			rel, _ := filepath.Rel(root, p)
			b.WriteString(rel + ":" + fi.ModTime().String() + " ")
		}
		return nil
	})
	return b.String()
}

// Another user who can write the project dir swaps .claude for a link to
// someone else's config dir (root's ~/.claude, say) between lanes reading
// the project's settings and writing them: lanes writes the directory it
// read from, never the one the link leads to.
func TestHooksInstallRacedSwapWritesNoOtherDir(t *testing.T) {
	e := offlineEnv(t)
	project := t.TempDir()
	claude := filepath.Join(project, ".claude")
	writeFile(t, filepath.Join(claude, "settings.json"), `{"planted": true}`+"\n")
	victim := filepath.Join(t.TempDir(), "root-claude")
	const victimBody = `{"root": true}` + "\n"
	writeFile(t, filepath.Join(victim, "settings.json"), victimBody)
	victimTree := listTree(t, victim)
	aside := filepath.Join(project, ".claude-checked")
	installRace = func() {
		if err := os.Rename(claude, aside); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(victim, claude); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { installRace = nil })

	out, errs, code := e.run("hooks", "install", "claude", "--project", project)

	if got := readFile(t, filepath.Join(victim, "settings.json")); got != victimBody || listTree(t, victim) != victimTree {
		t.Fatalf("the install wrote through the swapped-in link: the victim dir now holds %s; its settings are the planted ones: %v",
			listTree(t, victim), strings.Contains(got, "planted"))
	}
	if code != 0 || !strings.Contains(readFile(t, filepath.Join(aside, "settings.json")), "hook claude") {
		t.Fatalf("the dir lanes checked was not installed into: exit %d\n%s%s", code, out, errs)
	}
}
