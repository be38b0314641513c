package main

import (
	"fmt"
	"slices"
	"time"

	"lanes/scripts/internal/world"
)

// benchNotify is the time from a hook line that puts a session in Needs
// you to the board's notification (its OSC 9) in the board's pane output,
// with the sessions the run before left (docs/design.md §15).
func benchNotify(w *world.World) {
	_, _ = w.Tmux(w.Socket+"-view", "kill-server") // benchBoard's board: one board at a time
	n := 20
	if *quick {
		n = 5
	}
	got, err := w.NotifyLatency(n)
	if err != nil {
		fail(fmt.Errorf("notification latency: %w", err))
	}
	s := slices.Sorted(slices.Values(got.Latency))
	p50, p95 := s[len(s)/2], s[(len(s)*95+99)/100-1]
	add("hook line → notification (OSC 9 in the pane)", "p95 ≤ 150 ms",
		fmt.Sprintf("p50 %v, p95 %v (%d runs)", p50.Round(time.Millisecond), p95.Round(time.Millisecond), n), p95 <= 150*time.Millisecond)
}
