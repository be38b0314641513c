package world

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Notified is what NotifyLatency saw: each run's time from the start of
// `lanes hook … blocked` to the notification's bytes in the board's output,
// and the first notification's bytes.
type Notified struct {
	Latency []time.Duration
	Seen    string
}

// NotifyLatency runs the board in a pane of a second private server whose
// raw output tmux copies to a file (pipe-pane), makes runs sessions enter
// Needs you one after another with a hook line each, and times each from
// the hook's start to the moment its OSC 9 appears in the file. Each run is
// its own session (the board tells about one at most every 10 s).
func (w *World) NotifyLatency(runs int) (Notified, error) {
	var got Notified
	for i := range runs {
		name := fmt.Sprintf("ask%d", i)
		if err := w.NewSleeper(name); err != nil {
			return got, err
		}
		if r := w.Lanes("", "hook", "generic", "active", "--session", name); r.Code != 0 {
			return got, fmt.Errorf("hook active %s: exit %d: %s", name, r.Code, r.Stderr)
		}
	}
	view := w.Socket + "-notify"
	if err := w.StartBoard(view, 160, 48); err != nil {
		return got, err
	}
	if !WaitFor(10*time.Second, func() bool { return strings.Contains(w.Screen(view), fmt.Sprintf("● %d working", runs)) }) {
		return got, fmt.Errorf("the board never showed %d working:\n%s", runs, w.Screen(view))
	}
	out := filepath.Join(w.Root, "board.out")
	if msg, err := w.Tmux(view, "pipe-pane", "cat >> '"+out+"'"); err != nil {
		return got, fmt.Errorf("pipe-pane: %v %s", err, msg)
	}
	if !WaitFor(5*time.Second, func() bool { _, err := os.Stat(out); return err == nil }) {
		return got, fmt.Errorf("pipe-pane never opened %s", out)
	}
	f, err := os.Open(out)
	if err != nil {
		return got, err
	}
	defer f.Close()
	var raw []byte
	for i := range runs {
		name := fmt.Sprintf("ask%d", i)
		want := []byte("\x1b]9;lanes: " + name + " needs you")
		// Land anywhere between the board's ticks: the spool watch is what
		// carries the line.
		time.Sleep(time.Duration(rand.IntN(500)) * time.Millisecond)
		start := time.Now()
		if r := w.Lanes("", "hook", "generic", "blocked", "--session", name); r.Code != 0 {
			return got, fmt.Errorf("hook blocked %s: exit %d: %s", name, r.Code, r.Stderr)
		}
		for {
			b, err := io.ReadAll(f)
			if err != nil {
				return got, err
			}
			raw = append(raw, b...)
			if j := bytes.Index(raw, want); j >= 0 {
				got.Latency = append(got.Latency, time.Since(start))
				if got.Seen == "" {
					// From the bell before it: inside tmux, the passthrough
					// opening (ESC P tmux; ESC) comes between.
					got.Seen = notification(raw[max(0, j-10):])
				}
				raw = raw[j+len(want):]
				break
			}
			if time.Since(start) > 10*time.Second {
				return got, fmt.Errorf("no notification for %s in the board's output after 10 s; it ends %q",
					name, raw[max(0, len(raw)-200):])
			}
			time.Sleep(time.Millisecond)
		}
	}
	return got, nil
}

// notification is b up to the end of its OSC 777 (three BELs), or all of b.
func notification(b []byte) string {
	n := 0
	for i, c := range b {
		if c == '\a' {
			if n++; n == 3 {
				return string(b[:i+1])
			}
		}
	}
	return string(b)
}
