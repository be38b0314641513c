package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// nobody is the uid the security drills give "another user" (needs root).
const nobody = 65534

// asNobody gives paths to nobody (the links themselves, not their targets)
// when the drill runs as root, as another local user would have made them;
// it reports whether it could.
func asNobody(paths ...string) bool {
	if os.Geteuid() != 0 {
		return false
	}
	for _, p := range paths {
		if err := os.Lchown(p, nobody, nobody); err != nil {
			return false
		}
	}
	return true
}

// drillPlantedLinks: another user's links sit at every name `lanes hooks
// install --project` used to write through (the fixed temp name, the backup
// names of the coming seconds), and a settings.json links to a root-owned
// file; the install writes none of their targets. Root installs only into
// a config dir no other user owns or can write, and says so.
func drillPlantedLinks(w *world.World) (string, error) {
	victim := filepath.Join(w.Root, "root-profile")
	const profile = "# root's shell profile\n"
	if err := os.WriteFile(victim, []byte(profile), 0o644); err != nil {
		return "", err
	}
	project := filepath.Join(w.Root, "project")
	settings := filepath.Join(project, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(settings, []byte(`{"model": "opus"}`+"\n"), 0o644); err != nil {
		return "", err
	}
	planted := []string{settings + ".lanes-tmp"}
	now := time.Now().UTC()
	for s := range 10 {
		planted = append(planted, settings+".lanes-backup-"+now.Add(time.Duration(s)*time.Second).Format("20060102T150405Z"))
	}
	for _, p := range planted {
		if err := os.Symlink(victim, p); err != nil {
			return "", err
		}
	}
	owner := "you"
	if asNobody(append(planted, project)...) {
		owner = "nobody"
	}
	r := w.Lanes("", "hooks", "install", "claude", "--project", project)
	got, _ := os.ReadFile(victim)
	fi, _ := os.Lstat(settings)
	body, _ := os.ReadFile(settings)
	backup, _, _ := strings.Cut(strings.TrimPrefix(r.Stdout, "backup: "), "\n")
	evidence := fmt.Sprintf("%d links planted by %s (temp name, backup names for the next 10 s) → root-owned profile: install exit %d, %s; profile now %d bytes (was %d), unchanged %v",
		len(planted), owner, r.Code, filepath.Base(backup), len(got), len(profile), string(got) == profile)
	switch {
	case string(got) != profile:
		return evidence, fmt.Errorf("the install wrote through a planted link: the profile now holds %q", firstLine(string(got)))
	case r.Code != 0:
		return evidence, fmt.Errorf("install failed: %s", r.Stderr)
	case fi == nil || !fi.Mode().IsRegular() || !strings.Contains(string(body), "hook claude"):
		return evidence, fmt.Errorf("settings.json was not installed as a regular file")
	}

	// settings.json itself a link, planted by another user, to a root-owned
	// JSON file: refused, the file untouched.
	if os.Geteuid() != 0 {
		return evidence + "\nnot root: the foreign-link part needs another user (run as root)", nil
	}
	rootJSON := filepath.Join(w.Root, "root-settings.json")
	const rootBody = `{"root": true}` + "\n"
	if err := os.WriteFile(rootJSON, []byte(rootBody), 0o600); err != nil {
		return evidence, err
	}
	project2 := filepath.Join(w.Root, "project2")
	link := filepath.Join(project2, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return evidence, err
	}
	if err := os.Symlink(rootJSON, link); err != nil {
		return evidence, err
	}
	asNobody(project2, filepath.Dir(link), link)
	r = w.Lanes("", "hooks", "install", "claude", "--project", project2)
	got, _ = os.ReadFile(rootJSON)
	evidence += fmt.Sprintf("\nsettings.json → root's file by nobody's link: install exit %d: %s; root's file unchanged %v",
		r.Code, firstLine(r.Stderr), string(got) == rootBody)
	switch {
	case string(got) != rootBody:
		return evidence, fmt.Errorf("the install wrote through another user's link")
	case r.Code == 0 || !strings.Contains(r.Stderr, "owned by nobody"):
		return evidence, fmt.Errorf("the install through another user's link was not refused")
	}

	// The config dir nobody's, or writable by others: root refuses it.
	for _, c := range []struct {
		what, want string
		set        func(dir string) error
	}{
		{"owned by nobody", "owned by nobody", func(d string) error { return os.Chown(d, nobody, nobody) }},
		{"mode 0777", "writable by other users", func(d string) error { return os.Chmod(d, 0o777) }},
	} {
		dir := filepath.Join(w.Root, "project-"+strings.Fields(c.what)[0], ".claude")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return evidence, err
		}
		if err := c.set(dir); err != nil {
			return evidence, err
		}
		r = w.Lanes("", "hooks", "install", "claude", "--project", filepath.Dir(dir))
		_, statErr := os.Lstat(filepath.Join(dir, "settings.json"))
		evidence += fmt.Sprintf("\n.claude %s: install exit %d: %s", c.what, r.Code, firstLine(r.Stderr))
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || statErr == nil {
			return evidence, fmt.Errorf("root installed into a config dir %s", c.what)
		}
	}
	return evidence, nil
}

// drillForeignStateDir: a state dir another user owns (they could rewrite a
// stored command) or can write is refused by ls and restart with who owns
// it and what to do, doctor names the owner, and a hook writes nothing and
// exits 0 silently.
func drillForeignStateDir(w *world.World) (string, error) {
	if err := w.NewSleeper("s"); err != nil {
		return "", err
	}
	var evidence []string
	refused := func(what, want string) error {
		before := tree(w.State)
		ls := w.Lanes("", "ls")
		restart := w.Lanes("", "restart", "s")
		doc := w.Lanes("", "doctor")
		hook := w.Lanes("", "hook", "generic", "active", "--session", "s")
		evidence = append(evidence, fmt.Sprintf("%s: ls exit %d, restart exit %d: %s; doctor exit %d; hook exit %d, output %q, state dir unchanged %v",
			what, ls.Code, restart.Code, firstLine(ls.Stderr), doc.Code, hook.Code, hook.Stdout+hook.Stderr, tree(w.State) == before))
		switch {
		case ls.Code != 1 || restart.Code != 1 || !strings.Contains(ls.Stderr, want) || !strings.Contains(restart.Stderr, want):
			return fmt.Errorf("%s: ls and restart were not refused with %q", what, want)
		case !strings.Contains(ls.Stderr, ".untrusted`") || !strings.Contains(ls.Stderr, "LANES_STATE_DIR"):
			return fmt.Errorf("%s: the refusal does not say to move it aside and start afresh", what)
		case doc.Code == 0 || !strings.Contains(doc.Stdout, want):
			return fmt.Errorf("%s: doctor does not say it", what)
		case hook.Code != 0 || hook.Stdout != "" || hook.Stderr != "" || tree(w.State) != before:
			return fmt.Errorf("%s: the hook must write nothing and exit 0 silently", what)
		}
		return nil
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(w.State, nobody, nobody); err != nil {
			return "", err
		}
		if err := refused("state dir owned by nobody", "owned by nobody (uid 65534)"); err != nil {
			return strings.Join(evidence, "\n"), err
		}
		_ = os.Chown(w.State, 0, 0)
	} else {
		evidence = append(evidence, "not root: the other-owner part needs root to chown")
	}
	if err := os.Chmod(w.State, 0o777); err != nil {
		return "", err
	}
	if err := refused("state dir mode 0777", "writable by other users"); err != nil {
		return strings.Join(evidence, "\n"), err
	}
	_ = os.Chmod(w.State, 0o700)
	s, err := w.Ls()
	evidence = append(evidence, fmt.Sprintf("after chmod 700: ls works (%d session(s))", len(s)))
	return strings.Join(evidence, "\n"), err
}

// tree is every name under root with its size and time, to see a write.
func tree(root string) string {
	var b strings.Builder
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			if fi, err := d.Info(); err == nil {
				fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
			}
		}
		return nil
	})
	return b.String()
}
