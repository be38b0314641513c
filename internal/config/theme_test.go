package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetThemeKeepsTheFile(t *testing.T) {
	cases := []struct{ name, before, after string }{
		{"replaces the value alone",
			"# mine\ntheme   =  'dark'   # the board's t changes it\nagent = \"codex\"\n",
			"# mine\ntheme   =  \"light\"   # the board's t changes it\nagent = \"codex\"\n"},
		{"inserts before the first table and its comments",
			"agent = \"codex\"\n\n# worktrees\n[worktree]\nenabled = true\n",
			"agent = \"codex\"\n\ntheme = \"light\"\n# worktrees\n[worktree]\nenabled = true\n"},
		{"a theme in a table is not the board's",
			"[profiles.x]\nagent = \"codex\"\n",
			"theme = \"light\"\n[profiles.x]\nagent = \"codex\"\n"},
		{"appends to a file without a newline", "agent = \"codex\"", "agent = \"codex\"\ntheme = \"light\"\n"},
		{"takes the template's commented line",
			"# the board's colours\n# theme = \"auto\"\n\n[pr]\n# theme = \"x\"\n",
			"# the board's colours\ntheme = \"light\"\n\n[pr]\n# theme = \"x\"\n"},
		{"reads a profile's ~/ as the user's home",
			"[profiles.x]\ndir = \"~/src\"\n",
			"theme = \"light\"\n[profiles.x]\ndir = \"~/src\"\n"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		path := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(path, []byte(c.before), 0o640); err != nil {
			t.Fatal(err)
		}
		if err := SetTheme(path, "light", dir, os.Getuid()); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != c.after {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.after)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v, want the file's own 0640", c.name, fi.Mode().Perm())
		}
		if f, _, problems := Parse(got, dir); len(problems) > 0 || f.Values["theme"].Text != "light" {
			t.Errorf("%s: the result reads %+v %v", c.name, f.Values, problems)
		}
	}
}

func TestSetThemeNewAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lanes", "config.toml")
	if err := SetTheme(path, "dark", dir, os.Getuid()); err != nil {
		t.Fatal(err)
	}
	f, _, err := Read(path, dir, os.Getuid())
	if err != nil || f.Values["theme"].Text != "dark" {
		t.Fatalf("a new file: %+v %v", f, err)
	}
	bad := "theme = \"dark\"\nagent = [\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SetTheme(path, "light", dir, os.Getuid()); err == nil || !strings.Contains(err.Error(), "not saved") || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("a bad file: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != bad {
		t.Errorf("a bad file changed: %q", got)
	}
	// A dotfiles link stays a link, and the file it names changes.
	real := filepath.Join(dir, "dotfiles.toml")
	link := filepath.Join(dir, "link.toml")
	_ = os.WriteFile(real, []byte("theme = \"dark\"\n"), 0o600)
	_ = os.Symlink(real, link)
	if err := SetTheme(link, "light", dir, os.Getuid()); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if got, _ := os.ReadFile(real); string(got) != "theme = \"light\"\n" {
		t.Errorf("the linked file: %q", got)
	}
}

// The template reads as every default, and its theme is written back in
// the top-level part, not under a table.
func TestTemplate(t *testing.T) {
	f, warnings, problems := Parse([]byte(Template()), "")
	if len(warnings)+len(problems) > 0 || len(f.Values) > 0 {
		t.Fatalf("template: %v %v %v", f.Values, warnings, problems)
	}
	for _, s := range Settings {
		sec, key, dotted := strings.Cut(s.Key, ".")
		at := 0
		if dotted {
			at = strings.Index(Template(), "\n["+sec+"]\n")
		} else {
			key = s.Key
		}
		uncommented := Template()[:at] + strings.Replace(Template()[at:], "# "+key+" = ", key+" = ", 1)
		g, w, p := Parse([]byte(uncommented), "")
		if len(w)+len(p) > 0 || g.Values[s.Key].Text != s.Default {
			t.Errorf("%s uncommented: %v %v %v", s.Key, g.Values[s.Key], w, p)
		}
	}
	out := withTheme([]byte(Template()), []byte(`"dark"`))
	g, _, p := Parse(out, "")
	if len(p) > 0 || g.Values["theme"].Text != "dark" {
		t.Errorf("theme written into the template: %v %v", g.Values, p)
	}
}

// Any file lanes can read still reads after t writes the theme into it,
// with that theme, and every other setting as it was.
func FuzzWithTheme(f *testing.F) {
	for _, s := range []string{good, "", "theme = 'dark'", "# c\n[pr]\nevery = \"5s\"", "agent = \"codex\"\r\n[x]\n", "theme = \"\"\"dark\"\"\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		before, _, problems := Parse([]byte(text), "")
		if len(problems) > 0 {
			return
		}
		after, _, problems := Parse(withTheme([]byte(text), []byte(`"light"`)), "")
		if len(problems) > 0 {
			t.Fatalf("%q became unreadable: %v", text, problems)
		}
		if after.Values["theme"].Text != "light" {
			t.Fatalf("%q: theme %q after writing light", text, after.Values["theme"].Text)
		}
		for k, v := range before.Values {
			if k != "theme" && after.Values[k].Text != v.Text {
				t.Fatalf("%q: %s changed from %q to %q", text, k, v.Text, after.Values[k].Text)
			}
		}
	})
}
