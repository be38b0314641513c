package remote

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ssh trusts any socket in its ControlPath: the directory must be this
// user's alone, under parents no other user can change, with no byte ssh
// expands (a hostile re-run put its own socket in a swapped directory,
// and pointed ${VAR} elsewhere).
func TestPrivate(t *testing.T) {
	base := t.TempDir()
	mk := func(path string, mode os.FileMode) string {
		t.Helper()
		if err := os.Mkdir(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return path
	}
	good := mk(filepath.Join(mk(filepath.Join(base, "run"), 0o700), "ssh"), 0o700)
	open := mk(filepath.Join(mk(filepath.Join(base, "open"), 0o777), "ssh"), 0o700)
	sticky := mk(filepath.Join(mk(filepath.Join(base, "sticky"), 0o777|os.ModeSticky), "ssh"), 0o700)
	loose := mk(filepath.Join(base, "run", "loose"), 0o750)
	if err := os.Symlink(good, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	for dir, ok := range map[string]bool{
		good: true, sticky: true, open: false, loose: false, filepath.Join(base, "link"): false,
		filepath.Join(base, "run", "${HOME}"): false, "relative/ssh": false, filepath.Join(base, "none"): false,
	} {
		if err := Private(dir); (err == nil) != ok {
			t.Errorf("Private(%s) = %v, want ok %v", dir, err, ok)
		}
	}
	if os.Getuid() == 0 {
		other := mk(filepath.Join(base, "run", "other"), 0o700)
		if out, err := exec.Command("chown", "nobody", other).CombinedOutput(); err != nil {
			t.Fatalf("chown: %v %s", err, out)
		}
		if Private(other) == nil {
			t.Error("another user's directory taken as private")
		}
	}
	if s := (SSH{ControlDir: open}).shared(Host{Dest: "h"}); s != nil {
		t.Errorf("a ControlDir under a directory anyone may change shared: %q", s)
	}
}
