package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

func appendRaw(t *testing.T, dir, id, raw string) {
	t.Helper()
	if err := os.MkdirAll(SpoolDir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(SpoolPath(dir, id), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(raw); err != nil {
		t.Fatal(err)
	}
}

func line(id, event string) string {
	b, _ := json.Marshal(state.Line{V: 1, At: statetest.T0, Session: id, Launch: "L1", Agent: "generic", Event: event})
	return string(b) + "\n"
}

func TestIngestPartialLineWaits(t *testing.T) {
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	full := line(r.ID, "active")
	appendRaw(t, col.Store.Dir, r.ID, full[:20])
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.EventsApplied != 0 || len(got.EventsDropped) != 0 {
		t.Fatalf("a partial line was consumed: %+v %+v", got.EventsApplied, got.EventsDropped)
	}
	appendRaw(t, col.Store.Dir, r.ID, full[20:])
	cycle(t, col)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.EventsApplied != 1 || got.Activity.State != state.ActivityActive {
		t.Fatalf("the completed line: applied %d, %s", got.EventsApplied, got.Activity.State)
	}
}

func TestIngestHostileInput(t *testing.T) {
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	term := statetest.Terminated(statetest.Rec(state.ActivityIdle))
	term.ID = "term0001"
	put(t, col.Store, term)
	dir := col.Store.Dir
	v2 := strings.Replace(line(r.ID, "idle"), `"v":1`, `"v":2`, 1)
	stale, _ := json.Marshal(state.Line{V: 1, At: statetest.T0, Session: r.ID, Launch: "OLD", Agent: "generic", Event: "active"})
	appendRaw(t, dir, r.ID, strings.Join([]string{
		"{not json\n",
		v2,
		`{"v":1,"session":"` + r.ID + `","agent":"generic","event":"` + strings.Repeat("x", state.MaxLineBytes) + "\"}\n",
		"{\"v\":1,\"session\":\"" + r.ID + "\",\"agent\":\"generic\",\"event\":\"\xff\xfe\"}\n",
		line("other001", "active"),
		line(r.ID, "dance"),
		string(stale) + "\n",
		line(r.ID, "active"), // the one good line, after all the bad ones
	}, ""))
	appendRaw(t, dir, term.ID, line(term.ID, "active"))
	// A line for a session with no record, a symlinked spool file, a file
	// named with ../ and one with a bad name.
	appendRaw(t, dir, "ghost001", line("ghost001", "active"))
	outside := filepath.Join(t.TempDir(), "outside.jsonl")
	os.WriteFile(outside, []byte(line(r.ID, "idle")), 0o600)
	os.Symlink(outside, filepath.Join(SpoolDir(dir), "link0001.jsonl"))
	os.WriteFile(filepath.Join(SpoolDir(dir), "..evil.jsonl"), []byte(line(r.ID, "idle")), 0o600)
	os.WriteFile(filepath.Join(SpoolDir(dir), "notes.txt"), []byte("x"), 0o600)

	res := cycle(t, col)
	got := get(t, col.Store, r.ID)
	want := map[string]int{state.DropBadJSON: 1, state.DropBadVersion: 1, state.DropTooLong: 1, state.DropBadUTF8: 1,
		state.DropUnknownSess: 1, state.DropUnknownEvent: 1, state.DropStaleLaunch: 1}
	for k, n := range want {
		if got.EventsDropped[k] != n {
			t.Errorf("dropped[%s] = %d, want %d (all: %v)", k, got.EventsDropped[k], n, got.EventsDropped)
		}
	}
	if got.EventsApplied != 1 || got.Activity.State != state.ActivityActive {
		t.Errorf("the good line after the bad ones: applied %d, %s", got.EventsApplied, got.Activity.State)
	}
	if tg := get(t, col.Store, term.ID); tg.EventsDropped[state.DropTerminated] != 1 || tg.Activity.State != state.ActivityExited {
		t.Errorf("event for a terminated session: %v %s", tg.EventsDropped, tg.Activity.State)
	}
	var counters map[string]int
	col.Store.View(func(tx *Tx) error { counters, _ = tx.Counters(); return nil })
	if counters["dropped:"+state.DropUnknownSess] != 1 || counters["bad_spool_file"] != 3 {
		t.Errorf("store-wide counters: %v", counters)
	}
	if res.Dropped != 9 {
		t.Errorf("cycle dropped %d, want 9", res.Dropped)
	}
	if b, _ := os.ReadFile(outside); !bytes.Equal(b, []byte(line(r.ID, "idle"))) {
		t.Error("the symlink target outside the state dir was touched")
	}
	// Nothing is applied twice.
	cycle(t, col)
	if again := get(t, col.Store, r.ID); again.EventsApplied != 1 || len(again.EventsDropped) != len(want) {
		t.Errorf("second cycle re-applied: %d %v", again.EventsApplied, again.EventsDropped)
	}
}

func TestIngestRotation(t *testing.T) {
	col, _, clk := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	dir := col.Store.Dir
	one := line(r.ID, "active")
	n := RotateBytes/len(one) + 10
	appendRaw(t, dir, r.ID, strings.Repeat(one, n))
	cycle(t, col)
	rotated, _ := filepath.Glob(filepath.Join(SpoolDir(dir), r.ID+".*.jsonl"))
	if len(rotated) != 1 {
		t.Fatalf("after a drained file over 1 MiB: rotated %v", rotated)
	}
	if _, err := os.Stat(SpoolPath(dir, r.ID)); !os.IsNotExist(err) {
		t.Fatal("the active file must be renamed away")
	}
	// A hook that opened the file just before the rename still lands in it.
	f, _ := os.OpenFile(rotated[0], os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(line(r.ID, "idle"))
	f.Close()
	appendRaw(t, dir, r.ID, line(r.ID, "active")) // a fresh file
	clk.advance(time.Second)
	cycle(t, col)
	if got := get(t, col.Store, r.ID); got.EventsApplied != n+2 {
		t.Fatalf("applied %d, want %d", got.EventsApplied, n+2)
	}
	clk.advance(RotateGrace + time.Second)
	clk.t = time.Now().Add(RotateGrace + time.Second)
	cycle(t, col)
	if left, _ := filepath.Glob(filepath.Join(SpoolDir(dir), r.ID+".*.jsonl")); len(left) != 0 {
		t.Fatalf("the rotated file outlived its grace: %v", left)
	}
	if got := get(t, col.Store, r.ID); got.EventsApplied != n+2 {
		t.Fatalf("after deletion: applied %d, want %d", got.EventsApplied, n+2)
	}
}

// TestCrashSafety: 8 writers append while collector processes are SIGKILLed
// at random points and restarted; every line is accounted for exactly once,
// across a rotation.
func TestCrashSafety(t *testing.T) {
	if dir := os.Getenv("LANES_TEST_COLLECTOR"); dir != "" {
		runCollectorForever(dir)
		return
	}
	writers, perWriter := 8, 1250 // 10 000 lines
	if testing.Short() {
		perWriter = 200
	}
	dir := filepath.Join(t.TempDir(), "state")
	s := New(dir)
	r := statetest.Rec(state.ActivityIdle)
	put(t, s, r)
	stop := startWriters(t, dir, r.ID, writers, perWriter)
	kills := 0
	for done := false; !done; {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashSafety$")
		cmd.Env = append(os.Environ(), "LANES_TEST_COLLECTOR="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-stop:
			done = true
		case <-time.After(time.Duration(5+rand.IntN(60)) * time.Millisecond):
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++
	}
	// Drain what is left (and let the rotated file be fully read).
	col := &Collector{Store: s}
	for range 3 {
		if _, err := col.Cycle(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got := get(t, s, r.ID)
	dropped := 0
	for _, n := range got.EventsDropped {
		dropped += n
	}
	total := writers * perWriter
	if got.EventsApplied+dropped != total {
		t.Fatalf("applied %d + dropped %d = %d, want %d lines (after %d kills)", got.EventsApplied, dropped, got.EventsApplied+dropped, total, kills)
	}
	wantBad := 0
	for i := range perWriter {
		if i%97 == 0 {
			wantBad += writers
		}
	}
	if got.EventsDropped[state.DropBadVersion] != wantBad || dropped != wantBad {
		t.Fatalf("dropped %v, want exactly %d bad-version lines", got.EventsDropped, wantBad)
	}
	if rotated, _ := filepath.Glob(filepath.Join(SpoolDir(dir), r.ID+".*.jsonl")); len(rotated) == 0 && !testing.Short() {
		t.Fatal("the run never rotated the spool: the test did not cover rotation")
	}
	t.Logf("%d lines, %d collector kills", total, kills)
}

// startWriters starts writers goroutines, each appending perWriter lines
// for session id (every 97th malformed), and returns a channel closed
// once all of them are done.
func startWriters(t *testing.T, dir, id string, writers, perWriter int) <-chan struct{} {
	pad := strings.Repeat("p", 120) // lines of ~250 bytes: 10 000 of them rotate
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				ev := "active"
				if i%2 == 1 {
					ev = "idle"
				}
				l := state.Line{V: 1, At: time.Now().UTC(), Session: id, Launch: "L1", Agent: "generic", Event: ev,
					ToolUseID: fmt.Sprintf("w%d-%d-%s", w, i, pad)}
				if i%97 == 0 {
					l.V = 9 // malformed on purpose: counted, not applied
				}
				if err := AppendLine(dir, l); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(stop) }()
	return stop
}

func runCollectorForever(dir string) {
	col := &Collector{Store: New(dir)}
	for {
		if _, err := col.Cycle(context.Background()); err != nil {
			os.Exit(1)
		}
	}
}
