package store

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// on is alive(id) as a read of the server with process pid reports it.
func on(id string, pid int) state.Observation {
	o := alive(id)
	o.ServerPID = pid
	return o
}

// A session whose tmux server is gone is ended at once with the server's
// end, restorable, never its agent's exit or a kill; one whose server
// only stopped answering stays live and unreachable (docs/design.md §5).
func TestServerExitEndsItsSessions(t *testing.T) {
	col, f, clk := newCollector(t)
	gone := map[int]bool{}
	col.ServerGone = func(pid int) bool { return gone[pid] }
	a, b, old := statetest.Rec(state.ActivityActive), statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)
	a.ID, b.ID, old.ID = "aaaa0001", "bbbb0002", "cccc0003"
	old.Runtime.Socket = "other"
	put(t, col.Store, a, b, old)
	f.obs = []state.Observation{on(a.ID, 900), on(b.ID, 900)}
	cycle(t, col)
	if got := get(t, col.Store, a.ID); got.Runtime.ServerPID != 900 {
		t.Fatalf("server pid after a read = %d, want 900", got.Runtime.ServerPID)
	}

	f.obs, f.err = nil, errors.New("no server running")
	clk.advance(time.Second)
	cycle(t, col)
	if got := get(t, col.Store, a.ID); got.Runtime.Terminated || state.Derive(got, clk.t).Status != state.StatusUnknown {
		t.Fatalf("server not answering but its process there: %+v", got.Runtime)
	}

	gone[900] = true
	clk.advance(time.Second)
	cycle(t, col)
	for _, id := range []string{a.ID, b.ID} {
		got := get(t, col.Store, id)
		if !got.Runtime.Terminated || got.Runtime.TerminatedReason != state.ReasonServerExited || !got.Runtime.UnreachableSince.IsZero() {
			t.Errorf("%s once its server's process is gone: %+v", id, got.Runtime)
		}
		if err := state.Restorable(got, false); err != nil {
			t.Errorf("%s: restore --all refuses it: %v", id, err)
		}
	}
	if got := get(t, col.Store, old.ID); got.Runtime.Terminated {
		t.Errorf("a session of another server ended with this one: %+v", got.Runtime)
	}
}

// A new server answering without the session says the old one went: the
// session ends at that first read, not after a second one, once the old
// server's process is gone; a session the new server has (the same
// @lanes_id) lives on; one read before this build kept a server pid
// follows the two-read rule.
func TestNewServerEndsTheOldOnesSessions(t *testing.T) {
	col, f, clk := newCollector(t)
	col.ServerGone = func(pid int) bool { return pid == 900 }
	a, b, legacy := statetest.Rec(state.ActivityActive), statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)
	a.ID, b.ID, legacy.ID = "aaaa0001", "bbbb0002", "cccc0003"
	put(t, col.Store, a, b, legacy)
	f.obs = []state.Observation{on(a.ID, 900), on(b.ID, 900), alive(legacy.ID)} // a tmux that says no pid
	cycle(t, col)
	f.obs = []state.Observation{on(b.ID, 901), on("keep0000", 901)}
	clk.advance(time.Second)
	cycle(t, col)
	if got := get(t, col.Store, a.ID); !got.Runtime.Terminated || got.Runtime.TerminatedReason != state.ReasonServerExited {
		t.Errorf("a, absent from a new server's first read: %+v", got.Runtime)
	}
	if got := get(t, col.Store, b.ID); got.Runtime.Terminated || got.Runtime.ServerPID != 901 {
		t.Errorf("b, on the new server: %+v", got.Runtime)
	}
	if got := get(t, col.Store, legacy.ID); got.Runtime.Terminated || got.Runtime.GoneSeenAt.IsZero() {
		t.Errorf("a record without a server pid follows the two-read rule: %+v", got.Runtime)
	}
}

// A new server on a socket whose old server lives on out of reach (its
// socket file went) has not ended that server's sessions: the two-read
// rule says they are gone from this socket.
func TestNewServerOnACutSocket(t *testing.T) {
	col, f, clk := newCollector(t)
	col.ServerGone = func(int) bool { return false }
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	f.obs = []state.Observation{on(r.ID, 800)}
	cycle(t, col)
	f.obs = []state.Observation{on("keep0000", 801)}
	clk.advance(time.Second)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.Terminated || got.Runtime.GoneSeenAt.IsZero() {
		t.Errorf("first read of the new server: %+v", got.Runtime)
	}
	clk.advance(1100 * time.Millisecond)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.Runtime.TerminatedReason != state.ReasonGone {
		t.Errorf("second read: %+v, want %q", got.Runtime, state.ReasonGone)
	}
}

// ServerGone on real processes: a live process named tmux is a server; a
// process of another name (this test), a zombie (a crashed server whose
// parent does not reap it) and a reaped pid are not.
func TestServerGone(t *testing.T) {
	if ServerGone(0) || ServerGone(-1) {
		t.Error("no pid is a server gone")
	}
	if !ServerGone(os.Getpid()) {
		t.Error("this test, not named tmux, counts as a tmux server")
	}
	bin, err := os.ReadFile("/bin/sleep")
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(t.TempDir(), "tmux")
	if err := os.WriteFile(fake, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	server := exec.Command(fake, "60")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	if ServerGone(server.Process.Pid) {
		t.Error("a live process named tmux counts as gone")
	}
	_ = server.Process.Signal(syscall.SIGSEGV)
	// Not waited for yet: a zombie.
	for deadline := time.Now().Add(10 * time.Second); !zombie(server.Process.Pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if !ServerGone(server.Process.Pid) {
		t.Error("a zombie counts as a live server")
	}
	_ = server.Wait()
	if !ServerGone(server.Process.Pid) {
		t.Error("a reaped pid counts as a live server")
	}
}

func zombie(pid int) bool {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// LastServerExit names the sessions the newest exit ended that restore
// --all brings back: not those an earlier exit ended (a second crash
// counts its own), not one whose agent had exited before (restore takes
// it by name only), not another server's.
func TestLastServerExit(t *testing.T) {
	end := func(name, socket string, at time.Time, dead bool) *state.Record {
		r := statetest.Rec(state.ActivityIdle)
		r.ID, r.Name, r.Runtime.Socket, r.Pane.Dead = name+"0000", name, socket, dead
		state.Terminate(r, state.ReasonServerExited, "tmux", at)
		return r
	}
	first, second := statetest.T0, statetest.T0.Add(5*time.Minute)
	recs := []*state.Record{
		end("old", "", first, false),
		end("a", "", second, false),
		end("b", "", second.Add(-300*time.Millisecond), false),
		end("exited", "", second, true),
		end("other", "x", first, false),
		statetest.Rec(state.ActivityIdle),
	}
	socket, names := LastServerExit(recs, statetest.T0.Add(-time.Hour))
	if socket != "" || !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("LastServerExit = %q %q, want the default server's a and b", socket, names)
	}
	if err := state.Restorable(recs[3], false); err == nil {
		t.Error("restore --all takes a session whose agent had exited before its server went")
	}
	if err := state.Restorable(recs[3], true); err != nil {
		t.Errorf("restore by name refuses it: %v", err)
	}
	if _, names := LastServerExit(recs, second); len(names) != 0 {
		t.Errorf("exits before after: %q", names)
	}
}
