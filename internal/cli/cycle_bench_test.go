package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// BenchmarkCycle is one collector cycle against a real private tmux server
// with live sessions (10, 50 and 100, or the comma list in
// LANES_BENCH_SESSIONS: scripts/bench adds 1000): one list-panes read plus
// the store transaction. Each count runs twice: exec, a tmux client
// started per read (lanes ls, the status line), and control, the board's
// way over a control-mode client attached for as long as it runs. It
// reports wall time and CPU (lanes plus its reaped tmux children; the
// control client lives on, so its share is not in control's CPU figure)
// per cycle.
func BenchmarkCycle(b *testing.B) {
	for _, n := range benchSessions(b) {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			tc := tmuxtest.Server(b)
			dir := benchSessionsOn(b, tc, n, "sleep 3600", state.AgentCustom)
			for _, way := range []string{"exec", "control"} {
				b.Run(way, func(b *testing.B) {
					src := session.Panes{Client: tc}
					if way == "control" {
						src.Reader = &tmux.PaneReader{Client: tc, AnyVersion: true}
						defer src.Reader.Close()
					}
					col := &store.Collector{Store: store.New(dir), Panes: src, Socket: tc.Socket}
					cycle := func() {
						res, err := col.Cycle(context.Background())
						if err != nil || res.TmuxErr != nil || len(res.Records) != n {
							b.Fatal(err, res.TmuxErr, len(res.Records))
						}
					}
					cycle() // the control reader attaches its client on its first read
					cpu0 := cpuTime()
					b.ResetTimer()
					for b.Loop() {
						cycle()
					}
					b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				})
			}
		})
	}
}

// benchSessions is the session counts to measure.
func benchSessions(b *testing.B) []int {
	list := os.Getenv("LANES_BENCH_SESSIONS")
	if list == "" {
		return []int{10, 50, 100}
	}
	var ns []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("LANES_BENCH_SESSIONS=%q: want a comma list of session counts", list)
		}
		ns = append(ns, n)
	}
	return ns
}

// benchSessionsOn makes n lanes sessions s0… running shell command run on
// tc's server (the Record says agent), and returns the state dir.
func benchSessionsOn(b *testing.B, tc *tmux.Client, n int, run string, agent state.Agent) string {
	b.Helper()
	if _, err := tc.Run(context.Background(), "new-session", "-d", "-s", "keep", "sleep", "3600"); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "state")
	vars := map[string]string{"LANES_STATE_DIR": dir, "LANES_TMUX_SOCKET": tc.Socket, "HOME": b.TempDir(), "PATH": "/usr/bin:/bin"}
	a := newApp(nil, nil, nil, func(k string) string { return vars[k] })
	a.socket = tc.Socket
	cwd := b.TempDir()
	for i := range n {
		a.stdout, a.stderr = discard{}, discard{}
		if _, err := a.svc().Start(context.Background(), fmt.Sprintf("s%d", i), agent, cwd, []string{"sh", "-c", run}, session.Profile{}, nil); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// cpuTime is user+system time of this process and its reaped children.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}
