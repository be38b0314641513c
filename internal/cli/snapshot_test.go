package cli

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"lanes/state"
)

// holdLock has a child process (TestStatusLineBusy's helper) hold the
// store's lock until release, or the test's end.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStatusLineBusy$")
	cmd.Env = append(os.Environ(), "LANES_STATUSLINE_HOLD_LOCK="+path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	release = sync.OnceFunc(func() { stdin.Close(); _ = cmd.Wait() })
	t.Cleanup(release)
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); !strings.Contains(line, "locked") {
		t.Fatalf("helper did not take the lock: %q", line)
	}
	return release
}

// TestActionsWaitOutALongWrite: another process holds the store's lock
// for 3 s, as a write does whose fsync a loaded disk delays. ls, which has
// the last cycle's snapshot to fall back on, gives up after about 1 s and
// says why; an action waits the write out (about 5 s) and is done.
func TestActionsWaitOutALongWrite(t *testing.T) {
	e := newSLEnv(t, slRec("api", state.ActivityActive))
	time.AfterFunc(3*time.Second, holdLock(t, e.st.Path()))
	run := func(args ...string) (code int, out string) {
		var b bytes.Buffer
		a := newApp(strings.NewReader(""), &b, &b, func(k string) string { return e.vars[k] })
		a.now = func() time.Time { return e.now }
		return a.main(context.Background(), args), b.String()
	}
	if code, out := run("ls"); code == exitOK || !strings.Contains(out, "store busy") {
		t.Errorf("ls with the lock held and no snapshot: exit %d\n%s(want a busy error before the lock is free)", code, out)
	}
	if code, out := run("kill", "api", "--yes"); code != exitOK {
		t.Errorf("kill while a write held the lock for 2 s more: exit %d\n%s(want it done once the lock was free)", code, out)
	}
	if out, _ := e.run("ls", "--json"); !strings.Contains(out, `"is_terminated":true`) {
		t.Errorf("after the kill, ls --json:\n%s", out)
	}
}
