package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillNotify: a hook line puts sessions in Needs you one after another
// under a running board; each is told in the board's own output (bell,
// OSC 9, OSC 777), read raw from its pane with tmux pipe-pane.
func drillNotify(w *world.World) (string, error) {
	n := 10
	if *quick {
		n = 3
	}
	got, err := w.NotifyLatency(n)
	if err != nil {
		return "", err
	}
	s := slices.Sorted(slices.Values(got.Latency))
	evidence := fmt.Sprintf("bytes seen: %q\n%d sessions entered Needs you, each notified; hook start → OSC 9 in the pane p50 %v, max %v",
		got.Seen, n, s[len(s)/2].Round(time.Millisecond), s[len(s)-1].Round(time.Millisecond))
	// The board runs in a tmux pane: its OSCs go inside tmux's passthrough
	// (each ESC doubled), the bell outside.
	for _, want := range []string{"\a", "\x1bPtmux;\x1b\x1b]9;lanes: ask0 needs you", "\x1b\x1b]777;notify;lanes;ask0 needs you"} {
		if !strings.Contains(got.Seen, want) {
			return evidence, fmt.Errorf("the notification lacks %q", want)
		}
	}
	return evidence, nil
}
