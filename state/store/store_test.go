package store

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
	"lanes/state/statetest"
)

func TestStoreReopenKeepsEverything(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "state"))
	r := statetest.Rec(state.ActivityWaitingInput, statetest.PRPending)
	r.EventsDropped = map[string]int{state.DropStaleLaunch: 2}
	if err := s.Update(func(tx *Tx) error {
		if err := tx.Put(r); err != nil {
			return err
		}
		return tx.AppendHistory(r.ID, state.Transition{At: statetest.T0, From: state.ActivityIdle, To: state.ActivityWaitingInput, Source: "hook:claude"})
	}); err != nil {
		t.Fatal(err)
	}
	var got *state.Record
	var hist []state.Transition
	if err := s.View(func(tx *Tx) error {
		var err error
		if got, err = tx.Resolve("api"); err != nil {
			return err
		}
		hist, err = tx.History(r.ID, 10)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got.Activity.State != state.ActivityWaitingInput || len(got.PRs) != 1 || got.EventsDropped[state.DropStaleLaunch] != 2 ||
		!got.Runtime.PaneStartedAt.Equal(statetest.T0) || len(hist) != 1 || hist[0].To != state.ActivityWaitingInput {
		t.Fatalf("reopened record differs: %+v, history %+v", got, hist)
	}
	fi, err := os.Stat(s.Path())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("store file mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	di, _ := os.Stat(s.Dir)
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("state dir mode = %v, want 0700", di.Mode().Perm())
	}
}

func TestStoreNeverStoresStatus(t *testing.T) {
	s := New(t.TempDir())
	r := statetest.Rec(state.ActivityWaitingInput)
	if err := s.Update(func(tx *Tx) error { return tx.Put(r) }); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	d := state.Derive(r, statetest.T0)
	if d.Status != state.StatusNeedsInput || d.Zone != state.ZoneNeedsYou {
		t.Fatalf("derivation %+v: pick a record whose status and zone are not fact values", d)
	}
	for _, derived := range []string{string(d.Status), string(d.Zone), `"status"`, `"zone"`, `"marks"`} {
		if strings.Contains(string(raw), derived) {
			t.Errorf("the store holds the derived %s", derived)
		}
	}
	if !strings.Contains(string(raw), string(state.ActivityWaitingInput)) {
		t.Error("the store does not hold the activity fact; this test no longer looks at the record")
	}
}

func TestHistoryIsBounded(t *testing.T) {
	s := New(t.TempDir())
	if err := s.Update(func(tx *Tx) error {
		for i := range state.HistoryLimit + 50 {
			if err := tx.AppendHistory("abcd1234", state.Transition{At: statetest.T0.Add(time.Duration(i) * time.Second)}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	_ = s.View(func(tx *Tx) error {
		h, _ := tx.History("abcd1234", 1000)
		if len(h) != state.HistoryLimit || !h[len(h)-1].At.Equal(statetest.T0.Add((state.HistoryLimit+49)*time.Second)) {
			t.Errorf("history: %d entries, last %v", len(h), h[len(h)-1].At)
		}
		return nil
	})
}

func TestSchemaTooNewRefuses(t *testing.T) {
	s := New(t.TempDir())
	if err := s.Update(func(*Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(s.Path(), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, []byte("99")) })
	db.Close()
	for name, err := range map[string]error{
		"view":   s.View(func(*Tx) error { return nil }),
		"update": s.Update(func(*Tx) error { return nil }),
	} {
		if !errors.Is(err, state.ErrSchemaTooNew) || !strings.Contains(err.Error(), "upgrade lanes") {
			t.Errorf("%s on a newer schema: %v", name, err)
		}
	}
}

// TestStoreBusy holds the lock from a real second process.
func TestStoreBusy(t *testing.T) {
	if os.Getenv("LANES_TEST_HOLD_LOCK") != "" {
		holdLock(os.Getenv("LANES_TEST_HOLD_LOCK"))
		return
	}
	s := New(t.TempDir())
	s.LockTimeout, s.Attempts = 50*time.Millisecond, 3
	if err := s.Update(func(*Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreBusy$")
	cmd.Env = append(os.Environ(), "LANES_TEST_HOLD_LOCK="+s.Path())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if !strings.Contains(line, "locked") {
		t.Fatalf("helper did not take the lock: %q", line)
	}
	start := time.Now()
	err := s.Update(func(*Tx) error { return nil })
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "store busy: another lanes process holds") {
		t.Fatalf("err = %v, want store busy", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("busy error took %v: that is a hang, not a timeout", waited)
	}
	// The time said is what was waited, rounded for people (trial 2, item 8).
	if !regexp.MustCompile(`gave up after (\d+ ms|\d+\.\d\d s):`).MatchString(err.Error()) {
		t.Fatalf("err = %v, want the wait rounded, as 125 ms or 1.25 s", err)
	}
	stdin.Close() // release
	_ = cmd.Wait()
	if err := s.Update(func(*Tx) error { return nil }); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

// holdLock opens the store in this (child) process and keeps it until stdin closes.
func holdLock(path string) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		os.Exit(3)
	}
	os.Stdout.WriteString("locked\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	db.Close()
	os.Exit(0)
}

func TestDirResolution(t *testing.T) {
	t.Setenv("LANES_STATE_DIR", "")
	t.Setenv("XDG_STATE_HOME", "/x/state")
	if d, _ := Dir(os.Getenv); d != "/x/state/lanes" {
		t.Errorf("XDG: %s", d)
	}
	t.Setenv("LANES_STATE_DIR", "rel")
	if d, _ := Dir(os.Getenv); !filepath.IsAbs(d) || filepath.Base(d) != "rel" {
		t.Errorf("LANES_STATE_DIR must resolve to an absolute path: %s", d)
	}
	t.Setenv("LANES_STATE_DIR", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if d, _ := Dir(os.Getenv); d != "/home/u/.local/state/lanes" {
		t.Errorf("default: %s", d)
	}
}

func TestResolvePrefersLive(t *testing.T) {
	old := statetest.Terminated(statetest.Rec(state.ActivityIdle))
	old.ID, old.Runtime.TerminatedAt = "old00001", statetest.T0
	older := statetest.Terminated(statetest.Rec(state.ActivityIdle))
	older.ID, older.Runtime.TerminatedAt = "old00002", statetest.T0.Add(-time.Hour)
	live := statetest.Rec(state.ActivityIdle)
	live.ID = "live0001"
	if r, _ := state.Resolve([]*state.Record{old, live, older}, "api"); r.ID != "live0001" {
		t.Errorf("resolved %s, want the live one", r.ID)
	}
	if r, _ := state.Resolve([]*state.Record{older, old}, "api"); r.ID != "old00001" {
		t.Errorf("resolved %s, want the most recently terminated", r.ID)
	}
	if r, _ := state.Resolve([]*state.Record{old, live}, "old00002"); r != nil {
		t.Errorf("unknown id resolved to %s", r.ID)
	}
	if _, err := state.Resolve(nil, "nope"); !errors.Is(err, state.ErrNoSession) {
		t.Errorf("err = %v", err)
	}
}

func TestValidNamesAndIDs(t *testing.T) {
	for s, want := range map[string]bool{"api": true, "A_b-9": true, "": false, "a.b": false, "a:b": false, "a b": false,
		"../x": false, strings.Repeat("x", 40): true, strings.Repeat("x", 41): false, "é": false} {
		if state.ValidName(s) != want {
			t.Errorf("ValidName(%q) = %v", s, !want)
		}
	}
	for s, want := range map[string]bool{"abcd1234": true, "ABCD1234": false, "abcd123": false, "abcd12345": false, "../../aa": false} {
		if state.ValidID(s) != want {
			t.Errorf("ValidID(%q) = %v", s, !want)
		}
	}
	for name, want := range map[string][2]string{"abcd1234.jsonl": {"abcd1234", ""}, "abcd1234.17.jsonl": {"abcd1234", "17"},
		"abcd1234.jsonl.x": {}, "..evil.jsonl": {}, "abcd1234..jsonl": {}, "abcd1234.1a.jsonl": {}, "abcd12345.jsonl": {}} {
		id, rot, ok := parseSpoolName(name)
		if id != want[0] || rot != want[1] || ok != (want[0] != "") {
			t.Errorf("parseSpoolName(%q) = %q %q %v", name, id, rot, ok)
		}
	}
}

func TestWaitedIsRounded(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{124956041 * time.Nanosecond, "125 ms"},
		{810 * time.Millisecond, "810 ms"},
		{999600 * time.Microsecond, "1.00 s"},
		{1254 * time.Millisecond, "1.25 s"},
		{0, "0 ms"},
	} {
		if got := waited(c.d); got != c.want {
			t.Errorf("waited(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
