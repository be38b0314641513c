package remote_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"lanes/internal/remote"
	"lanes/internal/remote/sshtest"
)

// A host whose sshd opens 10 sessions per connection (OpenSSH's
// MaxSessions default) carries 50 sessions' watch stream, a preview
// refreshed without pause and 14 commands held open at once on its one
// connection: the commands past SharedCommands wait their turn, none
// logs in anew, and every one is done once its input ends.
func TestMaxSessionsOnOneConnection(t *testing.T) {
	t.Parallel()
	r, ssh := sharing(t, 1)
	h := r.Hosts[0]
	for i := range 50 {
		h.Lanes(t, "new", fmt.Sprintf("s%02d", i), "--", "sleep", "600")
	}
	ch := watching(t, r, ssh, h)
	for up, deadline := false, time.After(20*time.Second); !up; {
		select {
		case st := <-ch:
			up = st.Up && len(st.Sessions) == 50
		case <-deadline:
			t.Fatal("the watch stream never showed the 50 sessions")
		}
	}
	logins := func() int {
		b, _ := os.ReadFile(r.Dir + "/sshd.log")
		return strings.Count(string(b), "Accepted publickey")
	}
	before := logins()
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	peeks := 0
	previewDone := make(chan struct{})
	go func() { // the preview, open
		defer close(previewDone)
		for ctx.Err() == nil {
			if _, err := ssh.Run(ctx, h.Host, nil, "peek", "s00"); err != nil && ctx.Err() == nil {
				t.Errorf("peek: %v", err)
				return
			}
			peeks++
		}
	}()
	var inputs []*io.PipeWriter
	for i := range 14 {
		in, w := io.Pipe()
		inputs = append(inputs, w)
		wg.Go(func() {
			if _, err := ssh.Run(context.Background(), h.Host, in, "send", fmt.Sprintf("s%02d", i), "-"); err != nil {
				t.Errorf("send to s%02d: %v", i, err)
			}
		})
	}
	sending := func() int { return running(r, "lanes\x00send\x00") }
	for deadline := time.Now().Add(20 * time.Second); sending() < remote.SharedCommands; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of the 14 commands running on the host; want %d", sending(), remote.SharedCommands)
		}
	}
	if n := sending(); n > remote.SharedCommands {
		t.Errorf("%d commands at once on the host; want at most %d", n, remote.SharedCommands)
	}
	for _, w := range inputs {
		go func() { // a held command reads its input only once it runs
			fmt.Fprint(w, "hello")
			w.Close()
		}()
	}
	wg.Wait() // the sends
	stop()
	<-previewDone
	if n := logins() - before; n != 0 {
		t.Errorf("logged in %d more times; want none past the watch stream's own", n)
	}
	if peeks == 0 {
		t.Error("the preview never refreshed")
	}
}

// running counts the rig's processes whose command line starts with
// prefix (its words NUL-separated).
func running(r *sshtest.Rig, prefix string) (n int) {
	for _, p := range r.Using() {
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p)); strings.HasPrefix(string(b), prefix) {
			n++
		}
	}
	return n
}
