package remote_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lanes/internal/remote"
	"lanes/internal/remote/sshtest"
)

// With ControlDir, a host's watch stream and every command after it share
// one connection: two dozen commands to two hosts, started at once, log
// no new login at the host's sshd, and each reaches its own host (the
// rig's two hosts are one address: only the destination tells them
// apart).
func TestOneConnectionPerHost(t *testing.T) {
	t.Parallel()
	r, ssh := sharing(t, 2)
	h1, h2 := r.Hosts[0], r.Hosts[1]
	h1.Lanes(t, "new", "api", "--", "sleep", "600")
	h2.Lanes(t, "new", "db", "--", "sleep", "600")
	ch := watching(t, r, ssh, h1, h2)
	up := map[string]bool{}
	for deadline := time.After(10 * time.Second); !up[h1.Name] || !up[h2.Name]; {
		select {
		case st := <-ch:
			up[st.Host] = st.Up && len(st.Sessions) == 1
		case <-deadline:
			t.Fatalf("hosts up: %v", up)
		}
	}
	logins := func() int {
		b, _ := os.ReadFile(r.Dir + "/sshd.log")
		return strings.Count(string(b), "Accepted publickey")
	}
	before := logins()
	var wg sync.WaitGroup
	for i := range 24 {
		h, want := h1, "api"
		if i%2 == 1 {
			h, want = h2, "db"
		}
		wg.Go(func() {
			out, err := ssh.Run(context.Background(), h.Host, nil, "ls")
			if err != nil || !strings.Contains(string(out), want) {
				t.Errorf("ls on %s: %v, %q", h.Name, err, out)
			}
		})
	}
	wg.Wait()
	if n := logins() - before; n != 0 {
		t.Errorf("24 commands logged in %d more times; want none past the watch streams' own", n)
	}
}

// A host that holds its connection open and answers nothing (its sshd
// stopped) fails a command on its shared connection within its
// keepalives, 3 × 5 s, not at the caller's minute (a new-user trial's
// frozen host held every command for the whole minute).
func TestFrozenHostFailsWithinItsKeepalives(t *testing.T) {
	t.Parallel()
	r, ssh := sharing(t, 1)
	h := r.Hosts[0]
	if _, err := ssh.Run(context.Background(), h.Host, nil, "ls"); err != nil {
		t.Fatal(err) // the shared connection, up
	}
	thaw := r.Freeze()
	t.Cleanup(thaw)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	began := time.Now()
	_, err := ssh.Run(ctx, h.Host, nil, "ls")
	if took := time.Since(began); err == nil || took > 40*time.Second {
		t.Errorf("a command to a frozen host: %v after %s, want a failure within its keepalives", err, took.Round(time.Second))
	} else {
		t.Logf("failed after %s: %v", took.Round(time.Second), err)
	}
}

// sharing is a rig of n hosts and its ssh sharing one connection per
// host, in a directory only the user reaches (remote.Private).
func sharing(t *testing.T, n int) (*sshtest.Rig, remote.SSH) {
	t.Helper()
	r := sshtest.New(t, n)
	ssh := r.SSH
	ssh.ControlDir = filepath.Join(t.TempDir(), "ssh")
	if err := os.Mkdir(ssh.ControlDir, 0o700); err != nil {
		t.Fatal(err)
	}
	return r, ssh
}
