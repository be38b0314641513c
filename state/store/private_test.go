package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/fsafe"
)

// The owner is injected: any user can check a dir "as" another uid.
func TestCheckPrivate(t *testing.T) {
	me := os.Geteuid()
	dir := filepath.Join(t.TempDir(), "a", "state")
	if err := checkPrivate(dir, me); err != nil {
		t.Fatalf("a state dir not made yet: %v", err)
	}
	if err := New(dir).Update(func(*Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(SpoolDir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := checkPrivate(dir, me); err != nil {
		t.Fatalf("a state dir lanes made: %v", err)
	}
	err := checkPrivate(dir, me+1)
	if !errors.Is(err, fsafe.ErrForeign) || !strings.Contains(err.Error(), "owned by "+fsafe.Who(me)) {
		t.Fatalf("a state dir another user owns: %v", err)
	}
	// Another user may have rewritten its commands: the advice is to start
	// afresh; adopting it comes only after "if you trust", with a look first.
	msg := err.Error()
	fresh, trust := strings.Index(msg, "mv "+dir+" "+dir+".untrusted"), strings.Index(msg, "Only if you trust")
	if fresh < 0 || !strings.Contains(msg, "LANES_STATE_DIR") || trust < fresh ||
		strings.Index(msg, "chown -R") < trust || !strings.Contains(msg[trust:], "lanes ls --json") {
		t.Fatalf("the refusal does not say to move it aside and start afresh first: %v", err)
	}
	for _, p := range []string{filepath.Join(dir, "lanes.db"), SpoolDir(dir)} {
		fi, _ := os.Stat(p)
		_ = os.Chmod(p, fi.Mode().Perm()|0o020)
		if err := checkPrivate(dir, me); !errors.Is(err, fsafe.ErrForeign) || !strings.Contains(err.Error(), p+" is writable by other users") {
			t.Fatalf("%s group-writable: %v", p, err)
		}
		_ = os.Chmod(p, fi.Mode().Perm())
	}
	// lanes.db as a link: refused here, with what to do.
	db := filepath.Join(dir, "lanes.db")
	_ = os.Rename(db, db+".real")
	for _, target := range []string{db + ".real", db + ".nowhere"} {
		_ = os.Remove(db)
		_ = os.Symlink(target, db)
		if err := checkPrivate(dir, me); err == nil || !strings.Contains(err.Error(), db+" is a symlink") {
			t.Fatalf("a lanes.db link to %s: %v", target, err)
		}
	}
}

func TestDirRefusesAWorldWritableDir(t *testing.T) {
	dir := t.TempDir()
	_ = os.Chmod(dir, 0o777)
	getenv := func(k string) string { return map[string]string{"LANES_STATE_DIR": dir}[k] }
	if got, err := Dir(getenv); got != "" || !errors.Is(err, fsafe.ErrForeign) {
		t.Fatalf("Dir = %q, %v", got, err)
	}
	_ = os.Chmod(dir, 0o700)
	if got, err := Dir(getenv); got != dir || err != nil {
		t.Fatalf("Dir = %q, %v", got, err)
	}
}

// The files a cycle writes beside the store replace a planted link, never
// write through it.
func TestCycleFilesFollowNoLink(t *testing.T) {
	s := New(t.TempDir())
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	_ = os.Chtimes(victim, old, old)
	for _, p := range []string{s.lastCyclePath(), s.reapNextPath()} {
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.Remove(s.reapNextPath())
	_ = os.Symlink(filepath.Join(t.TempDir(), "planted-elsewhere"), s.reapNextPath()) // dangling: reapNext() is false
	s.markCycle(time.Now())
	s.setReapNext(true)
	if fi, err := os.Stat(victim); err != nil || !fi.ModTime().Equal(old) {
		t.Fatalf("last-cycle touched the link's target: %v %v", fi.ModTime(), err)
	}
	if fi, err := os.Lstat(s.reapNextPath()); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("reap-next was written through the link: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "victim\n" {
		t.Fatalf("victim now %q", b)
	}
}
