//go:build figures

package remote_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"lanes/internal/remote"
	"lanes/internal/remote/sshtest"
	"lanes/state"
)

// The figures of docs/design.md §16 over loopback ssh: remote hook →
// Status latency, the idle CPU of a host's ssh child (and of the lanes
// streaming on the host), and the bytes an idle host sends a minute. A
// minute and more, so it is built only with the figures tag (go test
// -tags figures -v -run TestWatchFigures ./internal/remote): a test that
// skipped in every other run would be one CI could not tell from a broken
// one.
func TestWatchFigures(t *testing.T) {
	r := sshtest.New(t, 1)
	h := r.Hosts[0]
	h.Lanes(t, "new", "api", "--", "sleep", "600")
	ch := watching(t, r, r.SSH, h)
	until(t, ch, h.Name, "api", 10*time.Second, func(st remote.Status) bool { return st.Up && len(st.Sessions) == 1 })

	// Latency: each hook flips api's status; the clock runs from before
	// the hook process starts to the Status that shows it.
	var took []time.Duration
	for i := range 40 {
		event, want := "waiting_input", state.StatusNeedsInput
		if i%2 == 1 {
			event, want = "active", state.StatusWorking
		}
		began := time.Now()
		h.Lanes(t, "hook", "generic", event, "--session", "api")
		until(t, ch, h.Name, "api after "+event, 5*time.Second, hasStatus("api", want))
		took = append(took, time.Since(began))
		time.Sleep(150 * time.Millisecond) // hooks apart, as an agent's are
	}
	slices.Sort(took)
	p := func(q float64) time.Duration {
		return took[int(q*float64(len(took)-1)+0.5)].Round(100 * time.Microsecond)
	}
	t.Logf("remote hook → Status over loopback ssh, %d hooks: p50 %s, p95 %s, max %s (budget p95 ≤ 300ms)", len(took), p(0.5), p(0.95), took[len(took)-1].Round(100*time.Microsecond))

	// Idle: a stream of its own counts the bytes, while Watch's ssh child
	// and the lanes it runs on the host are timed.
	argv := r.SSH.Lanes(h.Host, "ls", "--json", "--watch")
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	br := bufio.NewReader(out)
	if _, err := br.ReadBytes('\n'); err != nil {
		t.Fatalf("no snapshot: %v", err)
	}
	var idleBytes atomic.Int64
	go io.Copy(counter{&idleBytes}, br)

	ssh := sshtest.Children(os.Getpid(), "ssh")
	var lanes []int
	for _, p := range r.Using() {
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/comm"); string(b) == "lanes\n" {
			lanes = append(lanes, p)
		}
	}
	cpu := func(pids []int) time.Duration {
		var sum time.Duration
		for _, p := range pids {
			c, _ := sshtest.CPU(p)
			sum += c
		}
		return sum
	}
	const idle = 60 * time.Second
	sshBefore, lanesBefore, began := cpu(ssh), cpu(lanes), time.Now()
	time.Sleep(idle)
	wall := time.Since(began)
	sshCPU, lanesCPU, bytes := cpu(ssh)-sshBefore, cpu(lanes)-lanesBefore, idleBytes.Load()
	t.Logf("idle %s: ssh children %v used %s of CPU each on average (%.3f %% of a core; budget ≤ 0.2 %%)",
		wall.Round(time.Second), ssh, sshCPU/time.Duration(max(len(ssh), 1)), 100*sshCPU.Seconds()/wall.Seconds()/float64(max(len(ssh), 1)))
	t.Logf("idle %s: the lanes ls --watch on the host (%d processes) used %s (%.3f %% of a core each)",
		wall.Round(time.Second), len(lanes), lanesCPU, 100*lanesCPU.Seconds()/wall.Seconds()/float64(max(len(lanes), 1)))
	t.Logf("idle stream: %d bytes in %s, %.0f bytes a minute (heartbeats only)", bytes, wall.Round(time.Second), float64(bytes)/wall.Minutes())
}

// counter counts what is written to it.
type counter struct{ n *atomic.Int64 }

func (c counter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return len(p), nil
}
