package remote_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/internal/remote"
	"lanes/internal/remote/sshtest"
	"lanes/state"
	"lanes/state/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sshtest.Cleanup()
	os.Exit(code)
}

// fast is the timing of these tests: reconnects in tenths of a second.
var fast = remote.WatchTiming{Retry: 100 * time.Millisecond, MaxRetry: 500 * time.Millisecond}

// watching runs Watch with ssh over hosts until the test ends, then checks
// that the channel closes and every process of the links has exited.
func watching(t *testing.T, r *sshtest.Rig, ssh remote.SSH, hosts ...*sshtest.Host) <-chan remote.Status {
	t.Helper()
	ssh.Timing = fast
	var hs []remote.Host
	for _, h := range hosts {
		hs = append(hs, h.Host)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := ssh.Watch(ctx, hs)
	t.Cleanup(func() {
		cancel()
		closed := make(chan struct{})
		go func() {
			for range ch {
			}
			close(closed)
		}()
		select {
		case <-closed:
		case <-time.After(15 * time.Second):
			t.Fatal("Watch's channel did not close after ctx ended")
		}
		// ssh has exited; the remote lanes ends when it sees its stdin end.
		for end := time.Now().Add(10 * time.Second); len(r.Using()) > 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				var who []string
				for _, p := range r.Using() {
					b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
					who = append(who, fmt.Sprintf("%d %q", p, b))
				}
				t.Fatalf("processes of the links still running after Watch: %v", who)
			}
		}
	})
	return ch
}

// until is the first status of host within d that ok accepts.
func until(t *testing.T, ch <-chan remote.Status, host, what string, d time.Duration, ok func(remote.Status) bool) remote.Status {
	t.Helper()
	deadline := time.After(d)
	var last remote.Status
	for {
		select {
		case st, open := <-ch:
			if !open {
				t.Fatalf("channel closed waiting for %s", what)
			}
			if st.Host != host {
				continue
			}
			if last = st; ok(st) {
				return st
			}
		case <-deadline:
			t.Fatalf("no %s within %s; last status of %s: %+v", what, d, host, last)
		}
	}
}

func session(st remote.Status, name string) (listing.Session, bool) {
	for _, s := range st.Sessions {
		if s.Name == name {
			return s, true
		}
	}
	return listing.Session{}, false
}

func hasStatus(name string, want state.Status) func(remote.Status) bool {
	return func(st remote.Status) bool { s, ok := session(st, name); return ok && s.Status == want }
}

// Remote sessions arrive, move within a second of a hook there, stay
// while the host is lost, and the watch comes back with the host.
func TestWatchOverSSH(t *testing.T) {
	t.Parallel()
	r := sshtest.New(t, 1)
	h := r.Hosts[0]
	h.Lanes(t, "new", "api", "--", "sleep", "600")
	h.Lanes(t, "new", "db", "--", "sleep", "600")
	ch := watching(t, r, r.SSH, h)
	st := until(t, ch, h.Name, "api and db", 10*time.Second, func(st remote.Status) bool { return len(st.Sessions) == 2 && st.Up })
	if !st.Heard || st.Err != "" {
		t.Errorf("up: %+v", st)
	}

	began := time.Now()
	h.Lanes(t, "hook", "generic", "waiting_input", "--session", "api")
	// A generous deadline for a loaded machine: how fast is logged (and
	// measured by TestWatchFigures), never asserted.
	until(t, ch, h.Name, "api needing input", 10*time.Second, hasStatus("api", state.StatusNeedsInput))
	t.Logf("remote hook → Status: %s", time.Since(began).Round(time.Millisecond))

	r.Stop()
	st = until(t, ch, h.Name, "down", 10*time.Second, func(st remote.Status) bool { return !st.Up })
	if st.Err == "" || len(st.Sessions) != 2 || !st.Heard {
		t.Errorf("down: %+v", st)
	}
	t.Logf("down: %s", st.Err)

	h.Lanes(t, "hook", "generic", "active", "--session", "db") // while nobody watches
	r.Start()
	until(t, ch, h.Name, "up again, with what happened meanwhile", 10*time.Second, func(st remote.Status) bool {
		return st.Up && st.Err == "" && hasStatus("db", state.StatusWorking)(st)
	})
}

// A link that delays every line still brings every change.
func TestWatchOverASlowLink(t *testing.T) {
	t.Parallel()
	r := sshtest.New(t, 1)
	h := r.Hosts[0]
	h.Lanes(t, "new", "api", "--", "sleep", "600")
	ch := watching(t, r, r.SlowSSH(300*time.Millisecond), h)
	until(t, ch, h.Name, "api", 15*time.Second, func(st remote.Status) bool { return st.Up && len(st.Sessions) == 1 })
	for _, ev := range []struct {
		event string
		want  state.Status
	}{{"waiting_input", state.StatusNeedsInput}, {"active", state.StatusWorking}, {"blocked", state.StatusNeedsInput}} {
		h.Lanes(t, "hook", "generic", ev.event, "--session", "api")
		until(t, ch, h.Name, "api after "+ev.event, 10*time.Second, hasStatus("api", ev.want))
	}
}

// An old lanes on the host (no --watch) is named, with what to do.
func TestWatchAnOldLanes(t *testing.T) {
	t.Parallel()
	r := sshtest.New(t, 1)
	old := remote.SSH{Program: r.SSH.Program + "-old"}
	// The remote command becomes one that fails as a lanes without
	// --watch does: Go's flag package names the flag it lacks.
	script := fmt.Sprintf(`#!/bin/bash
args=("$@"); unset 'args[-1]'
exec %s "${args[@]}" 'lanes ls --json --bogus 2>&1 | sed s/-bogus/-watch/ >&2; exit 2'
`, r.SSH.Program)
	if err := os.WriteFile(old.Program, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	ch := watching(t, r, old, r.Hosts[0])
	st := until(t, ch, r.Hosts[0].Name, "down", 10*time.Second, func(st remote.Status) bool { return st.Err != "" })
	if want := "lanes on host1 is older than this one: it has no `ls --watch`; upgrade lanes there"; st.Err != want {
		t.Errorf("Err %q, want %q", st.Err, want)
	}
}

// Five hosts of forty sessions each: every one arrives, on its host.
func TestWatchFiveHostsOfForty(t *testing.T) {
	t.Parallel()
	r := sshtest.New(t, 5)
	now := time.Now()
	for _, h := range r.Hosts {
		if err := store.New(h.StateDir).Update(func(tx *store.Tx) error {
			for i := range 40 {
				rec := &state.Record{ID: fmt.Sprintf("%s%04d", h.Name[:4], i), Name: fmt.Sprintf("%s-s%02d", h.Name, i),
					Agent: state.AgentClaude, Dir: "/src", Runtime: state.Runtime{Socket: "elsewhere", TmuxSession: "lanes-x"},
					Activity: state.ActivityFacts{State: state.ActivityIdle, Since: now, LastEventAt: now, HooksReport: true}}
				if err := tx.Put(rec); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	ch := watching(t, r, r.SSH, r.Hosts...)
	got := map[string]int{}
	deadline := time.After(30 * time.Second)
	for len(got) < 5 || !allForty(got) {
		select {
		case st, open := <-ch:
			if !open {
				t.Fatal("Watch's channel closed before every host's sessions arrived")
			}
			for _, s := range st.Sessions {
				if !strings.HasPrefix(s.Name, st.Host+"-") {
					t.Fatalf("%s's status lists %s", st.Host, s.Name)
				}
			}
			got[st.Host] = len(st.Sessions)
		case <-deadline:
			t.Fatalf("sessions per host after 30 s: %v", got)
		}
	}
}

func allForty(got map[string]int) bool {
	for _, n := range got {
		if n != 40 {
			return false
		}
	}
	return true
}
