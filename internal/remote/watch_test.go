package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
)

// fakeSSH is a stand-in ssh that prints out, then err on stderr, then
// (hold) waits for its stdin to end, and exits with code.
func fakeSSH(t *testing.T, out, errs string, hold bool, code int) SSH {
	t.Helper()
	dir := t.TempDir()
	write := func(name, s string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	o, e := write("out", out, 0o600), write("err", errs, 0o600)
	wait := ""
	if hold {
		wait = "cat >/dev/null\n"
	}
	script := fmt.Sprintf("#!/bin/sh\necho x >>%s/runs\ncat %s\ncat %s >&2\n%sexit %d\n", dir, o, e, wait, code)
	return SSH{Program: write("ssh", script, 0o700), Timing: WatchTiming{Heartbeat: 200 * time.Millisecond, Retry: 20 * time.Millisecond, MaxRetry: 50 * time.Millisecond}}
}

func runs(s SSH) int {
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(s.Program), "runs"))
	return strings.Count(string(b), "x")
}

func lines(t *testing.T, ls ...listing.Line) string {
	var b strings.Builder
	for _, l := range ls {
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

func sess(id, name string) listing.Session {
	return listing.Session{ID: id, Name: name, Status: "idle", Zone: "working", Since: "2026-12-01T10:00:00Z"}
}

// watch runs Watch over hosts and checks, when the test ends, that the
// channel closes and (for a test that runs alone: the count is the whole
// process's) no goroutine stays behind.
func watch(t *testing.T, s SSH, alone bool, hosts ...Host) <-chan Status {
	t.Helper()
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	ch := s.Watch(ctx, hosts)
	t.Cleanup(func() {
		cancel()
		deadline := time.After(10 * time.Second)
	drain:
		for {
			select {
			case _, open := <-ch:
				if !open {
					break drain
				}
			case <-deadline:
				t.Fatal("Watch's channel did not close after ctx ended")
			}
		}
		for end := time.Now().Add(5 * time.Second); alone && runtime.NumGoroutine() > before; {
			if time.Now().After(end) {
				buf := make([]byte, 1<<20)
				t.Fatalf("goroutines left after Watch: %d > %d\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	return ch
}

// until is the first status within d that ok accepts.
func until(t *testing.T, ch <-chan Status, what string, d time.Duration, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.After(d)
	var last Status
	for {
		select {
		case st, open := <-ch:
			if !open {
				t.Fatalf("channel closed waiting for %s", what)
			}
			if last = st; ok(st) {
				return st
			}
		case <-deadline:
			t.Fatalf("no %s within %s; last status %+v", what, d, last)
		}
	}
}

func names(st Status) string {
	var n []string
	for _, s := range st.Sessions {
		n = append(n, s.Name)
	}
	return strings.Join(n, ",")
}

func TestWatchMirrorsTheStream(t *testing.T) {
	a, b, c := sess("aaaa0001", "api"), sess("bbbb0001", "db"), sess("cccc0001", "cli")
	b2 := b
	b2.Status, b2.Zone = "needs_input", "needs_you"
	stream := lines(t,
		listing.Line{Type: listing.LineSnapshot, At: "t", Version: listing.StreamVersion, Host: "h", Sessions: []listing.Session{a, b}},
		listing.Line{Type: listing.LineHeartbeat, At: "t"},
		listing.Line{Type: listing.LineSession, At: "t", Session: &b2},
		listing.Line{Type: listing.LineSession, At: "t", Session: &c},
		listing.Line{Type: listing.LineGone, At: "t", ID: a.ID},
	)
	ch := watch(t, fakeSSH(t, stream, "", true, 0), true, Host{Name: "build", Dest: "me@build"})
	st := until(t, ch, "db needing input first, api gone", 5*time.Second, func(st Status) bool { return names(st) == "db,cli" })
	if !st.Up || !st.Heard || st.Err != "" || st.Host != "build" || st.Since.IsZero() {
		t.Errorf("status: %+v", st)
	}
}

func TestWatchSaysWhyAHostIsDown(t *testing.T) {
	t.Parallel()
	snap := func(v int) string {
		return lines(t, listing.Line{Type: listing.LineSnapshot, At: "t", Version: v, Sessions: []listing.Session{sess("aaaa0001", "api")}})
	}
	for _, c := range []struct {
		name, out, errs string
		code            int
		says            string
		kept            bool // the snapshot's session stays
	}{
		{"old lanes", "", "flag provided but not defined: -watch\nUsage: lanes ls [--json] [--all]\n", 2, "lanes on build is older than this one: it has no `ls --watch`; upgrade lanes there", false},
		{"no key", "", "root@127.0.0.1: Permission denied (publickey).\n", 255, "ssh: root@127.0.0.1: Permission denied (publickey).", false},
		{"no lanes", "", "sh: 1: lanes: not found\n", 127, "lanes is not on build's PATH", false},
		{"newer", snap(2), "", 0, "lanes on build is newer than this one (stream version 2, this lanes reads 1); upgrade lanes here", false},
		{"older", snap(0), "", 0, "lanes on build is older than this one (stream version 0", false},
		{"not JSON", snap(1) + "{oops\n", "", 0, "line 2 from build: not a stream line", true},
		{"no snapshot first", lines(t, listing.Line{Type: listing.LineHeartbeat, At: "t"}), "", 0, "did not open with a snapshot", false},
		{"unknown type", snap(1) + `{"type":"party","at":"t"}` + "\n", "", 0, `unknown type "party"`, true},
		{"ended", snap(1), "", 0, "the stream from build ended", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ch := watch(t, fakeSSH(t, c.out, c.errs, false, c.code), false, Host{Name: "build", Dest: "me@build"})
			st := until(t, ch, "down, saying why", 5*time.Second, func(st Status) bool { return !st.Up && st.Err != "" })
			if !strings.Contains(st.Err, c.says) {
				t.Errorf("Err %q, want it to say %q", st.Err, c.says)
			}
			if got := names(st) == "api"; got != c.kept {
				t.Errorf("sessions while down: %q", names(st))
			}
		})
	}
}

// A stream that falls silent is lost (its ssh killed), its sessions kept,
// and watched again.
func TestWatchSilentStreamIsDownAndRetried(t *testing.T) {
	t.Parallel()
	s := fakeSSH(t, lines(t, listing.Line{Type: listing.LineSnapshot, At: "t", Version: 1, Sessions: []listing.Session{sess("aaaa0001", "api")}}), "", true, 0)
	ch := watch(t, s, false, Host{Name: "build", Dest: "me@build"})
	until(t, ch, "up", 5*time.Second, func(st Status) bool { return st.Up })
	began := time.Now()
	st := until(t, ch, "down", 5*time.Second, func(st Status) bool { return !st.Up })
	if quiet := time.Since(began); quiet < 400*time.Millisecond {
		t.Errorf("down after %s of quiet, before three heartbeats", quiet)
	}
	if !strings.Contains(st.Err, "no line from build for 600ms") || names(st) != "api" || !st.Heard {
		t.Errorf("silent: %+v", st)
	}
	until(t, ch, "up again", 5*time.Second, func(st Status) bool { return st.Up })
	if n := runs(s); n < 2 {
		t.Errorf("ssh ran %d times", n)
	}
}

// Failing again and again, ssh runs at a pace that doubles up to MaxRetry.
func TestWatchBacksOff(t *testing.T) {
	t.Parallel()
	s := fakeSSH(t, "", "ssh: connect to host build port 22: Connection refused\n", false, 255)
	s.Timing.Retry, s.Timing.MaxRetry = 100*time.Millisecond, 400*time.Millisecond
	ch := watch(t, s, false, Host{Name: "build", Dest: "me@build"})
	st := until(t, ch, "down", 5*time.Second, func(st Status) bool { return st.Err != "" })
	if st.Err != "ssh: connect to host build port 22: Connection refused" || st.Up || st.Heard {
		t.Errorf("refused: %+v", st)
	}
	// The board says when the next try is: within the first wait.
	if wait := time.Until(st.Next); st.Next.IsZero() || wait > 100*time.Millisecond {
		t.Errorf("next try in %s (Next %v), want within the first wait of 100ms", wait, st.Next)
	}
	go func() { // each failure is a status (its next try), read as the board does
		for range ch {
		}
	}()
	backsOff(t, s, "no backoff")
}

// backsOff checks that s's ssh runs back off from waits of 100 ms to 400:
// 100, 200, 400, 400 ms, so five runs take at least 1.1 s (a lower bound:
// a loaded machine only makes them slower).
func backsOff(t *testing.T, s SSH, what string) {
	t.Helper()
	began := time.Now()
	for runs(s) < 5 {
		if time.Since(began) > 10*time.Second {
			t.Fatalf("ssh ran %d times in 10 s", runs(s))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if took := time.Since(began); took < time.Second {
		t.Errorf("five runs in %s: %s", took, what)
	}
}

// A host that sends its snapshot and exits backs off too: a snapshot
// resets the wait only from a stream that lived (issue 30, item 8: it was
// reconnected every second).
func TestWatchBacksOffASnapshotThatExits(t *testing.T) {
	t.Parallel()
	snap := lines(t, listing.Line{Type: listing.LineSnapshot, Version: listing.StreamVersion})
	s := fakeSSH(t, snap, "", false, 0)
	s.Timing.Retry, s.Timing.MaxRetry = 100*time.Millisecond, 400*time.Millisecond
	ch := watch(t, s, false, Host{Name: "build", Dest: "me@build"})
	go func() {
		for range ch {
		}
	}()
	backsOff(t, s, "a snapshot that exits reset the backoff")
}

// A host back after an outage is tried again within 10 s: the wait stops
// doubling there.
func TestWatchWaitsAtMostTenSeconds(t *testing.T) {
	if got := (WatchTiming{}).orDefaults().MaxRetry; got != 10*time.Second {
		t.Errorf("default longest wait %s, want 10s", got)
	}
}

// ssh failing without a word says so once, not "ssh: ssh …".
func TestWatchSilentSSHFailureSaysSSHOnce(t *testing.T) {
	t.Parallel()
	ch := watch(t, fakeSSH(t, "", "", false, 255), false, Host{Name: "build", Dest: "me@build"})
	st := until(t, ch, "down", 5*time.Second, func(st Status) bool { return st.Err != "" })
	if want := "ssh: the connection to me@build failed or ended (ssh said no more)"; st.Err != want {
		t.Errorf("Err %q, want %q", st.Err, want)
	}
}

// A host that floods its stream with distinct sessions is mirrored up to
// MaxMirrored, the rest counted; a line over the stream's bound ends the
// stream as unreadable instead of growing the board (issue 30, item 8:
// 30,000 sessions pinned a core, 60 lines of 20 MB took 540 MB).
func TestWatchBoundsAFloodingHost(t *testing.T) {
	t.Parallel()
	ls := []listing.Line{{Type: listing.LineSnapshot, Version: listing.StreamVersion}}
	for i := range 30000 {
		s := sess(fmt.Sprintf("s%07d", i), fmt.Sprintf("n%d", i))
		ls = append(ls, listing.Line{Type: listing.LineSession, Session: &s})
	}
	s := fakeSSH(t, lines(t, ls...), "", true, 0)
	ch := watch(t, s, false, Host{Name: "flood", Dest: "me@flood"})
	st := until(t, ch, "the flood mirrored", 60*time.Second, func(st Status) bool { return st.Over == 30000-MaxMirrored })
	if len(st.Sessions) != MaxMirrored {
		t.Errorf("%d sessions mirrored, want %d", len(st.Sessions), MaxMirrored)
	}

	big := lines(t, listing.Line{Type: listing.LineSnapshot, Version: listing.StreamVersion}) +
		`{"type":"session","session":{"id":"x","name":"` + strings.Repeat("a", maxLine) + `"}}` + "\n"
	s = fakeSSH(t, big, "", true, 0)
	ch = watch(t, s, false, Host{Name: "big", Dest: "me@big"})
	st = until(t, ch, "the long line refused", 30*time.Second, func(st Status) bool { return st.Err != "" })
	if st.Up || !strings.Contains(st.Err, "unreadable") && !strings.Contains(st.Err, "too long") {
		t.Errorf("a line over %d bytes: %+v", maxLine, st)
	}
}
