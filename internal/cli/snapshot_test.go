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
// for 4.5 s, as a write does whose fsync a loaded disk delays. ls, which has
// the last cycle's snapshot to fall back on, gives up after about 1 s and
// says why; an action waits the write out (about 5 s) and is done.
func TestActionsWaitOutALongWrite(t *testing.T) {
	e := newSLEnv(t, slRec("api", state.ActivityActive))
	time.AfterFunc(4500*time.Millisecond, holdLock(t, e.st.Path()))
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
		t.Errorf("kill while a write held the lock for 3 s more: exit %d\n%s(want it done once the lock was free)", code, out)
	}
	if out, _ := e.run("ls", "--json"); !strings.Contains(out, `"is_terminated":true`) {
		t.Errorf("after the kill, ls --json:\n%s", out)
	}
}

// TestBusyStoreReadersTakeTheSnapshot: while another process holds the
// store, status-line and ls show the last cycle's records if it ran under
// 2 s ago, without an error; an older one is not taken.
func TestBusyStoreReadersTakeTheSnapshot(t *testing.T) {
	e := newSLEnv(t, slRec("api", state.ActivityActive), slRec("web", state.ActivityIdle))
	want, _ := e.run("status-line", "--format", "plain")    // its cycle leaves the snapshot
	wantJSON, _ := e.run("status-line", "--format", "json") // reused: from the snapshot's tally
	wantOne, _ := e.run("status-line", "--session", "web")  // reused: from its records
	holdLock(t, e.st.Path())

	e.now = slT0.Add(1500 * time.Millisecond) // past reuse: it wants a cycle of its own
	for args, want := range map[string]string{"--format plain": want, "--format json": wantJSON, "--session web": wantOne} {
		out, errs := e.run(append([]string{"status-line"}, strings.Fields(args)...)...)
		if out != want || errs != "" {
			t.Errorf("status-line %s with the lock held and a 1.5 s old snapshot: %q (stderr %q), want %q", args, out, errs, want)
		}
	}
	if out, errs := e.run("ls"); !strings.Contains(out, "api") || !strings.Contains(out, "web") || !strings.Contains(errs, "warning: store busy") {
		t.Errorf("ls with the lock held and a 1.5 s old snapshot:\n%s%s", out, errs)
	}

	e.now = slT0.Add(2500 * time.Millisecond)
	// Not taken: the store's busy lock is the error (the line printed is
	// the last good one of the past minute).
	if out, errs := e.run("status-line", "--format", "json"); out != wantJSON || !strings.Contains(errs, "store busy") {
		t.Errorf("a 2.5 s old snapshot was taken: %q (stderr %q)", out, errs)
	}
}

// TestSnapshotFollowsTheStore: a write that is not a cycle removes the
// snapshot, so a reader never sees a state the store has left.
func TestSnapshotFollowsTheStore(t *testing.T) {
	e := newSLEnv(t, slRec("api", state.ActivityActive))
	e.run("status-line")
	if _, _, err := e.st.Snapshot(); err != nil {
		t.Fatalf("no snapshot after a cycle: %v", err)
	}
	e.put(slRec("web", state.ActivityIdle))
	if _, _, err := e.st.Snapshot(); err == nil {
		t.Fatal("the snapshot outlived a write to the store")
	}
}
