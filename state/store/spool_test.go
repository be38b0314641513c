package store

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"lanes/state"
	"lanes/state/statetest"
)

// TestIngestSkipsLineOverRead: a line longer than one cycle's whole read
// (8 MiB) is counted too_long once and skipped to its newline, across
// cycles, and the lines after it apply — also when it is still being
// written at the first cycle.
func TestIngestSkipsLineOverRead(t *testing.T) {
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	dir := col.Store.Dir
	head := `{"v":1,"session":"` + r.ID + `","agent":"generic","event":"`
	appendRaw(t, dir, r.ID, head+strings.Repeat("x", maxReadPerFile+state.MaxLineBytes))
	cycle(t, col) // the line has no end yet
	if got := get(t, col.Store, r.ID); got.EventsDropped[state.DropTooLong] != 1 {
		t.Fatalf("a line already over the limit: dropped %v, want too_long 1", got.EventsDropped)
	}
	appendRaw(t, dir, r.ID, strings.Repeat("y", maxReadPerFile)+"\"}\n"+line(r.ID, "active"))
	for range 4 {
		cycle(t, col)
	}
	got := get(t, col.Store, r.ID)
	if got.EventsDropped[state.DropTooLong] != 1 || len(got.EventsDropped) != 1 {
		t.Errorf("dropped %v, want only too_long 1", got.EventsDropped)
	}
	if got.EventsApplied != 1 || got.Activity.State != state.ActivityActive {
		t.Errorf("the line after the long one: applied %d, %s", got.EventsApplied, got.Activity.State)
	}
	if backlog, err := col.Store.Backlog(); err != nil || backlog[r.ID] != 0 {
		t.Errorf("backlog %v %v, want nothing waiting", backlog, err)
	}
}

// TestAppendLineFitsTheLimit: a hook payload with huge fields still makes
// one line that ingest accepts.
func TestAppendLineFitsTheLimit(t *testing.T) {
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	huge := strings.Repeat("<\x01é", state.MaxLineBytes)
	l := state.Line{V: 1, At: statetest.T0, Session: r.ID, Launch: "L1", Agent: "claude", Event: "PreToolUse",
		ToolName: huge, ToolUseID: huge, Reason: huge, Source: huge, AgentID: huge, Status: huge, Type: huge,
		NotificationType: huge, ProviderSessionID: huge}
	if err := AppendLine(dir(col), l); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(SpoolPath(dir(col), r.ID))
	if len(b) > state.MaxLineBytes+1 {
		t.Errorf("the hook wrote a %d-byte line, over the %d-byte limit", len(b), state.MaxLineBytes)
	}
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.EventsApplied != 1 || len(got.EventsDropped) != 0 {
		t.Errorf("applied %d, dropped %v; want the capped line applied", got.EventsApplied, got.EventsDropped)
	}
}

func dir(c *Collector) string { return c.Store.Dir }

// TestIngestResyncsAfterTornLine: a fragment left by a short write (no
// newline) glued to the next whole line loses only the fragment.
func TestIngestResyncsAfterTornLine(t *testing.T) {
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	for _, cut := range []int{1, 9, 30, len(line(r.ID, "blocked")) - 2} {
		appendRaw(t, dir(col), r.ID, line(r.ID, "blocked")[:cut])
		appendRaw(t, dir(col), r.ID, line(r.ID, "active"))
	}
	appendRaw(t, dir(col), r.ID, line(r.ID, "blocked")[:20]+"\xc3"+line(r.ID, "idle"))
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if got.EventsApplied != 5 || got.Activity.State != state.ActivityIdle {
		t.Errorf("whole lines after torn ones: applied %d (want 5), %s", got.EventsApplied, got.Activity.State)
	}
	if got.EventsDropped[state.DropBadJSON] != 5 || len(got.EventsDropped) != 1 {
		t.Errorf("dropped %v, want bad_json 5 (the fragments)", got.EventsDropped)
	}
}

// TestAppendLineShortWrite: when the file cannot grow by the whole line (a
// full disk; here a file size limit, which cuts a write the same way), the
// hook leaves a blank line, not a fragment, and the next line is whole.
func TestAppendLineShortWrite(t *testing.T) {
	if d := os.Getenv("LANES_TEST_SHORT_WRITE"); d != "" {
		var l state.Line
		_ = json.Unmarshal([]byte(os.Getenv("LANES_TEST_LINE")), &l)
		fi, _ := os.Stat(SpoolPath(d, l.Session))
		lim := syscall.Rlimit{Cur: uint64(fi.Size()) + 40, Max: uint64(fi.Size()) + 40}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
		if err := AppendLine(d, l); err == nil {
			t.Fatal("a short write was reported as success")
		}
		return
	}
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	appendRaw(t, dir(col), r.ID, line(r.ID, "blocked"))
	want, _ := json.Marshal(state.Line{V: 1, At: statetest.T0, Session: r.ID, Launch: "L1", Agent: "generic", Event: "idle"})
	cmd := exec.Command(os.Args[0], "-test.run=^TestAppendLineShortWrite$")
	cmd.Env = append(os.Environ(), "LANES_TEST_SHORT_WRITE="+dir(col), "LANES_TEST_LINE="+string(want))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the short-write child: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(SpoolPath(dir(col), r.ID))
	if tail := string(b[len(line(r.ID, "blocked")):]); tail != strings.Repeat(" ", 39)+"\n" {
		t.Fatalf("after the short write the file ends %q, want 39 blanks and a newline", tail)
	}
	appendRaw(t, dir(col), r.ID, line(r.ID, "active"))
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.EventsApplied != 2 || len(got.EventsDropped) != 0 || got.Activity.State != state.ActivityActive {
		t.Errorf("applied %d, dropped %v, %s; want 2 applied, none dropped", got.EventsApplied, got.EventsDropped, got.Activity.State)
	}
}
