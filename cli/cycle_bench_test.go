package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"lanes/state"
	"lanes/tmux/tmuxtest"
)

// BenchmarkCycle is one collector cycle against a real private tmux server
// with 10, 50 and 100 live sessions: one list-panes read plus the store
// transaction. It reports wall time and CPU (lanes plus its tmux child) per
// cycle.
func BenchmarkCycle(b *testing.B) {
	for _, n := range []int{10, 50, 100} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			tc := tmuxtest.Server(b)
			if _, err := tc.Run(context.Background(), "new-session", "-d", "-s", "keep", "sleep", "3600"); err != nil {
				b.Fatal(err)
			}
			dir := filepath.Join(b.TempDir(), "state")
			vars := map[string]string{"LANES_STATE_DIR": dir, "LANES_TMUX_SOCKET": tc.Socket, "HOME": b.TempDir(), "PATH": "/usr/bin:/bin"}
			a := newApp(nil, nil, nil, func(k string) string { return vars[k] })
			a.socket = tc.Socket
			for i := range n {
				a.stdout, a.stderr = discard{}, discard{}
				if _, err := a.create(context.Background(), fmt.Sprintf("s%d", i), state.AgentCustom, b.TempDir(), []string{"sleep", "3600"}, nil); err != nil {
					b.Fatal(err)
				}
			}
			col := &state.Collector{Store: state.NewStore(dir), Panes: paneSource{c: tc}, Socket: tc.Socket}
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				res, err := col.Cycle(context.Background())
				if err != nil || res.TmuxErr != nil || len(res.Records) != n {
					b.Fatal(err, res.TmuxErr, len(res.Records))
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
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
