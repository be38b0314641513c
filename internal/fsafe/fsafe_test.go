package fsafe

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/testenv"
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

// open is OpenTarget, closed when the test ends.
func open(t *testing.T, path string, uid int) (*Target, error) {
	t.Helper()
	tg, err := OpenTarget(path, uid)
	if err == nil {
		t.Cleanup(func() { tg.Close() })
	}
	return tg, err
}

func TestOpenTarget(t *testing.T) {
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
	relLink := filepath.Join(dir, "rel.json")
	_ = os.Symlink("../"+filepath.Base(dir)+"/./plain.json", relLink)
	for _, c := range []struct {
		path, want string
		exists     bool
	}{
		{plain, plain, true},
		{filepath.Join(dir, "absent.json"), filepath.Join(dir, "absent.json"), false},
		{filepath.Join(dir, "new", "dirs", "x.json"), filepath.Join(dir, "new", "dirs", "x.json"), false},
		{link, dotfile, true},
		{relLink, plain, true},
	} {
		tg, err := open(t, c.path, me)
		if err != nil || tg.Path != c.want || tg.Exists() != c.exists {
			t.Errorf("OpenTarget(%s) = %v, %v; want %s (exists %v)", c.path, tg, err, c.want, c.exists)
		}
	}
	dangling := filepath.Join(dir, "dangling.json")
	_ = os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	if _, err := open(t, dangling, me); err == nil {
		t.Error("a dangling link opened")
	}

	// Another user's link, a link to another user's file, a path through
	// another user's directory link, and a file in another user's directory
	// are all refused.
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
		"dir": func(t *testing.T) (string, int) {
			d := filepath.Join(t.TempDir(), ".claude")
			write(t, filepath.Join(d, "settings.json"), "{}")
			return filepath.Join(d, "settings.json"), asOther(t, d)
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			path, uid := setup(t)
			_, err := open(t, path, uid)
			if !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "is owned by") {
				t.Fatalf("OpenTarget through another user's %s: %v", name, err)
			}
		})
	}
}

// Root writes only where no other user can: not in a directory others can
// write, and through no link in one (they could repoint it).
func TestOpenTargetAsRootRefusesWhatOthersCanChange(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skip(t, "the rules are root's")
	}
	d := filepath.Join(t.TempDir(), "project")
	write(t, filepath.Join(d, ".claude", "settings.json"), "{}")
	_ = os.Chmod(filepath.Join(d, ".claude"), 0o777)
	if _, err := open(t, filepath.Join(d, ".claude", "settings.json"), 0); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "writable by other users") {
		t.Errorf("a 0777 config dir: %v", err)
	}
	_ = os.Chmod(filepath.Join(d, ".claude"), 0o755)
	_ = os.Chmod(d, 0o775)
	_ = os.Symlink(".claude", filepath.Join(d, ".gemini"))
	if _, err := open(t, filepath.Join(d, ".gemini", "settings.json"), 0); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "will not follow") {
		t.Errorf("root's link in a group-writable dir: %v", err)
	}
	if _, err := open(t, filepath.Join(d, ".claude", "settings.json"), 0); err != nil {
		t.Errorf("a 0755 dir of root's in a group-writable one: %v", err)
	}
}

// Once open, a target is read and replaced in the directory that was
// checked, whatever its name leads to by then.
func TestTargetWritesTheDirectoryItChecked(t *testing.T) {
	d := t.TempDir()
	path := filepath.Join(d, ".claude", "settings.json")
	write(t, path, "old")
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other")
	write(t, filepath.Join(other, "settings.json"), "other")
	tg, err := open(t, path, os.Geteuid())
	if err != nil {
		t.Fatal(err)
	}
	aside := filepath.Join(d, "aside")
	if err := os.Rename(filepath.Dir(path), aside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	before, err := tg.ReadFile()
	if err != nil || string(before) != "old" {
		t.Fatalf("read %q %v, want the checked file's bytes", before, err)
	}
	backup, err := tg.Backup(".bak-", before)
	if err != nil || filepath.Dir(backup) != filepath.Dir(path) {
		t.Fatalf("backup %s %v", backup, err)
	}
	if err := tg.Replace([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(other, "settings.json")); got != "other" {
		t.Fatalf("the swapped-in dir was written: %q", got)
	}
	if fi, err := os.Stat(filepath.Join(aside, "settings.json")); err != nil || read(t, filepath.Join(aside, "settings.json")) != "new" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("the checked dir does not hold the new file with its mode: %v %v", fi, err)
	}
	if got := read(t, filepath.Join(aside, filepath.Base(backup))); got != "old" {
		t.Fatalf("backup holds %q", got)
	}
	if entries, _ := os.ReadDir(other); len(entries) != 1 {
		t.Errorf("files left in the swapped-in dir: %v", entries)
	}
}

// Missing directories are made 0700 when the file is written, not before.
func TestTargetMakesMissingDirsOnWrite(t *testing.T) {
	d := t.TempDir()
	path := filepath.Join(d, ".config", "opencode", "plugins", "lanes.js")
	tg, err := open(t, path, os.Geteuid())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d, ".config")); err == nil {
		t.Fatal("opening made directories")
	}
	if b, err := tg.ReadFile(); b != nil || err != nil {
		t.Fatalf("read of an absent file: %q %v", b, err)
	}
	if err := tg.Replace([]byte("x")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Dir(path))
	if err != nil || fi.Mode().Perm() != 0o700 || read(t, path) != "x" {
		t.Fatalf("made %v %v", fi, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", fi.Mode().Perm())
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
