package fsafe

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// victim is a file a planted link points at; unchanged reports whether it
// still holds its bytes and time.
func victim(t *testing.T) (path string, unchanged func() bool) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "victim")
	write(t, path, "victim\n")
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return path, func() bool {
		fi, err := os.Stat(path)
		return err == nil && fi.ModTime().Equal(old) && read(t, path) == "victim\n"
	}
}

func TestWritesReplaceOrRefuseALinkNeverFollowIt(t *testing.T) {
	dir := t.TempDir()
	v, unchanged := victim(t)
	for _, n := range []string{"w", "a", "t"} {
		if err := os.Symlink(v, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(filepath.Join(dir, "w"), []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "w")); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o640 {
		t.Fatalf("WriteFile left %v %v, want a regular file 0640", fi, err)
	}
	if err := Append(filepath.Join(dir, "a"), []byte("x"), 0o600); err == nil {
		t.Error("Append wrote through a symlink")
	}
	if err := Touch(filepath.Join(dir, "t"), time.Now()); err == nil {
		t.Error("Touch touched through a symlink")
	}
	if !unchanged() {
		t.Fatal("a write followed a planted link")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

func TestWriteNewNeverOpensAnExistingName(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "settings.json.lanes-backup-")
	a, err := WriteNew(prefix, []byte("a"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	b, err := WriteNew(prefix, []byte("b"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if a == b || !strings.HasPrefix(a, prefix) || len(a) < len(prefix)+8 || read(t, a) != "a" || read(t, b) != "b" {
		t.Fatalf("WriteNew gave %q and %q", a, b)
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644 whatever the umask", fi.Mode().Perm())
	}
}

func TestTouchSetsTheTime(t *testing.T) {
	p := filepath.Join(t.TempDir(), "last-cycle")
	at := time.Date(2025, 5, 1, 10, 0, 0, 123456000, time.UTC)
	for range 2 { // creates, then updates
		if err := Touch(p, at); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(p); err != nil || !fi.ModTime().Equal(at) {
			t.Fatalf("mtime %v %v, want %v", fi.ModTime(), err, at)
		}
		at = at.Add(time.Second)
	}
}

// asOther makes paths belong to "another user" for the rest of the test and
// returns the uid to check them as: as root it chowns them to nobody; any
// other user checks as a uid that is neither theirs nor root's.
func asOther(t *testing.T, paths ...string) int {
	t.Helper()
	if os.Geteuid() != 0 {
		return os.Geteuid() + 1
	}
	for _, p := range paths {
		if err := os.Lchown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	return 0
}

func TestResolve(t *testing.T) {
	me := os.Geteuid()
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.json")
	write(t, plain, "{}")
	dotfile := filepath.Join(t.TempDir(), "dotfiles", "settings.json")
	write(t, dotfile, "{}")
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(dotfile, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{plain, plain},
		{filepath.Join(dir, "absent.json"), filepath.Join(dir, "absent.json")},
		{link, dotfile},
	} {
		if got, err := Resolve(c.path, me); err != nil || got != c.want {
			t.Errorf("Resolve(%s) = %q, %v; want %q", c.path, got, err, c.want)
		}
	}
	dangling := filepath.Join(dir, "dangling.json")
	_ = os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	if _, err := Resolve(dangling, me); err == nil {
		t.Error("a dangling link resolved")
	}

	// Another user's link, a link to another user's file, and a path through
	// another user's directory link are all refused.
	cases := map[string]func(t *testing.T) (path string, uid int){
		"link": func(t *testing.T) (string, int) {
			d := t.TempDir()
			l := filepath.Join(d, "settings.json")
			write(t, filepath.Join(d, "mine.json"), "{}")
			_ = os.Symlink(filepath.Join(d, "mine.json"), l)
			return l, asOther(t, l)
		},
		"target": func(t *testing.T) (string, int) {
			d := t.TempDir()
			target := filepath.Join(d, "theirs.json")
			write(t, target, "{}")
			l := filepath.Join(d, "settings.json")
			_ = os.Symlink(target, l)
			return l, asOther(t, target)
		},
		"dir link": func(t *testing.T) (string, int) {
			d := t.TempDir()
			write(t, filepath.Join(d, "elsewhere", "settings.json"), "{}")
			_ = os.Symlink(filepath.Join(d, "elsewhere"), filepath.Join(d, ".claude"))
			return filepath.Join(d, ".claude", "settings.json"), asOther(t, filepath.Join(d, ".claude"))
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			path, uid := setup(t)
			_, err := Resolve(path, uid)
			if !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "is owned by") {
				t.Fatalf("Resolve through another user's %s: %v", name, err)
			}
		})
	}
}

func TestPrivate(t *testing.T) {
	me := os.Geteuid()
	dir := filepath.Join(t.TempDir(), "state")
	if err := Private(dir, me); err != nil {
		t.Fatalf("a dir not made yet: %v", err)
	}
	// MkdirAll under the usual umasks gives a private dir.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Private(dir, me); err != nil {
		t.Fatalf("lanes' own dir: %v", err)
	}
	if err := Private(dir, me+1); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "is owned by") {
		t.Fatalf("a dir another user owns: %v", err)
	}
	for _, mode := range []os.FileMode{0o770, 0o707, 0o1777} {
		_ = os.Chmod(dir, mode)
		if err := Private(dir, me); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "writable by other users") {
			t.Fatalf("mode %v: %v", mode, err)
		}
	}
	_ = os.Chmod(dir, 0o755)
	if err := Private(dir, me); err != nil {
		t.Fatalf("mode 0755: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	_ = os.Symlink(dir, link)
	if err := Private(link, me); err != nil {
		t.Fatalf("the user's own link to their dir: %v", err)
	}
}

func TestWho(t *testing.T) {
	if got := Who(0); got != "root (uid 0)" {
		t.Errorf("Who(0) = %q", got)
	}
	if got := Who(2147483000); got != "uid 2147483000" {
		t.Errorf("Who(unknown) = %q", got)
	}
}
