package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

// manyLineSettings is a pretty-printed settings file of the size people
// keep: lines that installing hooks does not touch fill most of it.
func manyLineSettings() string {
	var b strings.Builder
	b.WriteString("{\n  \"untouched-first\": true,\n")
	for i := range 40 {
		fmt.Fprintf(&b, "  \"setting-%02d\": %d,\n", i, i)
	}
	b.WriteString("  \"model\": \"opus\"\n}\n")
	return b.String()
}

// The dry run shows the change as unified hunks with a little context, not
// the whole file, under headers that name the file; it writes nothing.
func TestHooksInstallDryRunShowsHunks(t *testing.T) {
	t.Parallel()
	e := offlineEnv(t)
	path := filepath.Join(e.home, ".claude", "settings.json")
	before := manyLineSettings()
	writeFile(t, path, before)
	out := e.must("hooks", "install", "claude", "--dry-run")
	if got := readFile(t, path); got != before {
		t.Fatalf("the dry run changed the file:\n%s", got)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 4 || lines[0] != "--- "+path || lines[1] != "+++ "+path+" (with lanes hooks)" {
		t.Fatalf("the headers do not name the file:\n%s", out)
	}
	if !strings.HasPrefix(lines[2], "@@ -") {
		t.Errorf("no hunk header after the file headers:\n%s", out)
	}
	for _, l := range []string{"untouched-first", "setting-00", "setting-20"} {
		if strings.Contains(out, l) {
			t.Errorf("the diff shows %q, far from the change: the whole file, not a hunk:\n%s", l, out)
		}
	}
	var context, added int
	for _, l := range lines[2:] {
		switch {
		case strings.HasPrefix(l, "@@ "):
		case strings.HasPrefix(l, " "):
			context++
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
		default:
			t.Errorf("line %q is not part of a unified diff:\n%s", l, out)
		}
	}
	if context == 0 || context > 8 || added == 0 || !strings.Contains(out, "hook claude") {
		t.Errorf("want the added hooks with a little context (%d context, %d added lines):\n%s", context, added, out)
	}
}

// A file that does not exist yet shows as all added; nothing is written.
func TestHooksInstallDryRunNewFile(t *testing.T) {
	t.Parallel()
	e := offlineEnv(t)
	path := filepath.Join(e.home, ".claude", "settings.json")
	out := e.must("hooks", "install", "claude", "--dry-run")
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("the dry run wrote %s: %v", path, err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 4 || lines[0] != "--- /dev/null" || lines[1] != "+++ "+path+" (new file, with lanes hooks)" {
		t.Fatalf("want /dev/null against the named new file:\n%s", out)
	}
	if !strings.HasPrefix(lines[2], "@@ -0,0 +1,") {
		t.Errorf("want one hunk adding from line 1:\n%s", out)
	}
	for _, l := range lines[3:] {
		if !strings.HasPrefix(l, "+") {
			t.Errorf("line %q of a new file is not an added line:\n%s", l, out)
		}
	}
}

// Once the hooks are in, a dry run says nothing would change.
func TestHooksInstallDryRunUnchanged(t *testing.T) {
	t.Parallel()
	e := offlineEnv(t)
	path := filepath.Join(e.home, ".claude", "settings.json")
	writeFile(t, path, manyLineSettings())
	e.must("hooks", "install", "claude")
	installed := readFile(t, path)
	out := e.must("hooks", "install", "claude", "--dry-run")
	if out != "claude hooks are already installed in "+path+": nothing would change\n" {
		t.Errorf("dry run over installed hooks said:\n%s", out)
	}
	if readFile(t, path) != installed {
		t.Errorf("the dry run changed the file")
	}
}

// hookDiff prints go-udiff's own unified format: the same bytes as its
// ToUnified (which the lanes binary does not link; see hookDiff).
func TestHookDiffIsUdiffs(t *testing.T) {
	t.Parallel()
	settings := manyLineSettings()
	far := strings.Replace(strings.Replace(settings, "setting-02", "setting-two", 1), "setting-38", "setting-38b", 1)
	near := strings.Replace(strings.Replace(settings, "setting-10", "x", 1), "setting-15", "y", 1)
	for _, c := range []struct{ name, before, after string }{
		{"append", settings, strings.Replace(settings, "\"opus\"\n", "\"opus\",\n  \"hooks\": {}\n", 1)},
		{"two hunks far apart", settings, far},
		{"one hunk for changes near each other", settings, near},
		{"deleted lines", settings, strings.Replace(settings, "  \"setting-05\": 5,\n  \"setting-06\": 6,\n", "", 1)},
		{"first line", "a\nb\nc\nd\ne\nf\ng\n", "z\nb\nc\nd\ne\nf\ng\n"},
		{"no newline at the end", "{\"model\": \"opus\"}", "{\n  \"model\": \"opus\"\n}\n"},
		{"short file", "{}\n", "{\n  \"hooks\": {}\n}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, err := udiff.ToUnified("f", "f (with lanes hooks)", c.before, udiff.Lines(c.before, c.after), udiff.DefaultContextLines)
			if err != nil {
				t.Fatal(err)
			}
			if got := hookDiff("f", true, true, []byte(c.before), []byte(c.after)); got != want {
				t.Errorf("hookDiff:\n%s\ngo-udiff:\n%s", got, want)
			}
		})
	}
	if got := hookDiff("f", true, true, []byte("same\n"), []byte("same\n")); got != "" {
		t.Errorf("no change: %q", got)
	}
}
