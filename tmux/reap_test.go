package tmux

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// A pane read dead without its time has a process its server has not
// reaped: the read signals the server SIGCHLD and reads again until the
// time is there (5 tries at most); a whole read is read once.
func TestWithReap(t *testing.T) {
	// The "server": a process that ignores SIGCHLD, as anything but tmux does.
	srv := exec.Command("sleep", "30")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	unreaped := Pane{PaneID: "%1", Dead: true, ServerPID: srv.Process.Pid}
	reaped := unreaped
	reaped.DeadTime = time.Unix(1, 0)
	for _, c := range []struct {
		name  string
		reads [][]Pane
		want  int // reads made
	}{
		{"whole at once", [][]Pane{{reaped}}, 1},
		{"reaped on the second", [][]Pane{{unreaped}, {reaped}}, 2},
		{"never reaped", [][]Pane{{unreaped}, {unreaped}, {unreaped}, {unreaped}, {unreaped}, {unreaped}, {unreaped}}, 6},
	} {
		n := 0
		got, err := withReap(context.Background(), func() ([]Pane, error) {
			n++
			return c.reads[min(n, len(c.reads))-1], nil
		})
		if err != nil || n != c.want || got[0].DeadTime.IsZero() != (c.name == "never reaped") {
			t.Errorf("%s: %d reads, %+v, %v; want %d reads", c.name, n, got, err, c.want)
		}
	}
}
