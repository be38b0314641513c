package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/internal/testenv"
	"lanes/state"
	"lanes/state/store"
)

// fullDisk mounts a small tmpfs at dir and fills it; it skips the test
// where mounting is not allowed (not root).
func fullDisk(t *testing.T, dir string) (free func()) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		testenv.Skip(t, fmt.Sprintf("a full disk needs a tmpfs mount, which is not allowed here: %v %s", err, out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	filler := filepath.Join(dir, "filler")
	return func() { os.Remove(filler) }
}

func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "filler"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for {
		if _, err := f.Write(make([]byte, 4096)); errors.Is(err, syscall.ENOSPC) {
			return
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// TestLsOnAFullDisk: when the store cannot be written, ls prints what it
// holds with a warning, and doctor says the disk is full.
func TestLsOnAFullDisk(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	e := &env{t: t, state: filepath.Join(t.TempDir(), "state"), home: t.TempDir()}
	e.vars = map[string]string{"LANES_STATE_DIR": e.state, "HOME": e.home, "LANES_TMUX_SOCKET": "lanes-test-nosuch-full"}
	free := fullDisk(t, e.state)
	r := lsRecord("full0001", "api", state.ActivityIdle, now)
	if err := store.New(e.state).Update(func(tx *store.Tx) error { return tx.Put(r) }); err != nil {
		t.Fatal(err)
	}
	if err := store.AppendLine(e.state, state.Line{V: 1, At: now, Session: r.ID, Agent: "generic", Event: "active"}); err != nil {
		t.Fatal(err)
	}
	fill(t, e.state)
	out, errs, code := e.run("ls")
	if code != 0 || !strings.Contains(out, "api") || !strings.Contains(errs, "cannot be written") {
		t.Fatalf("ls on a full disk: exit %d\nstdout %q\nstderr %q\nwant the stored records and a warning", code, out, errs)
	}
	doc, _, code := e.run("doctor")
	if code == 0 || !strings.Contains(doc, "disk full") {
		t.Errorf("doctor on a full disk: exit %d\n%s", code, doc)
	}
	free()
	if got := e.ls()["api"]; got.EventsApplied != 1 {
		t.Errorf("after space came back: applied %d, want the waiting line", got.EventsApplied)
	}
}
