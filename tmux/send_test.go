package tmux_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// argvLog wraps c's Runner and keeps every argv it passes to tmux: what
// any local user could read in /proc/PID/cmdline while tmux runs.
type argvLog struct {
	mu   sync.Mutex
	argv [][]string
}

func (l *argvLog) wrap(c *tmux.Client) {
	run := c.Run
	c.Run = func(ctx context.Context, args ...string) ([]byte, error) {
		l.mu.Lock()
		l.argv = append(l.argv, args)
		l.mu.Unlock()
		return run(ctx, args...)
	}
}

// holding returns the argv words that hold s.
func (l *argvLog) holding(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var hits []string
	for _, argv := range l.argv {
		for _, a := range argv {
			// A short text is looked for as a whole word: "-x" is inside
			// a random socket name (lanes-xw…) one time in 36.
			if a == s || len(s) > 4 && strings.Contains(a, s) {
				hits = append(hits, a)
			}
		}
	}
	return hits
}

// rawSink starts a session whose program writes every byte it reads to a
// file, with the terminal in raw mode, so the test sees exactly what
// reached the program: no line editing, no CR/LF translation, no echo.
func rawSink(t *testing.T, c *tmux.Client, name string) (paneID, out string) {
	t.Helper()
	out = filepath.Join(t.TempDir(), "received")
	info := newSession(t, c, tmux.NewSessionOpts{Name: name, LanesID: "x",
		Command: []string{"sh", "-c", `stty raw -echo && echo ready && exec cat > "$0"`, out}})
	waitCapture(t, c, info.PaneID, "ready")
	return info.PaneID, out
}

// waitReceived waits until the sink's file holds want exactly.
func waitReceived(t *testing.T, out, want string) {
	t.Helper()
	var got []byte
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ = os.ReadFile(out)
		if len(got) >= len(want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !bytes.Equal(got, []byte(want)) {
		t.Fatalf("the program received\n%q\nwant\n%q", got, want)
	}
}

func noBuffers(t *testing.T, c *tmux.Client) {
	t.Helper()
	if got, err := raw(t, c, "list-buffers", "-F", "#{buffer_name}"); err != nil || got != "" {
		t.Errorf("paste buffers left behind: %q (err %v)", got, err)
	}
}

// The text reaches the program byte for byte, Enter after it, and never
// appears in tmux's argv.
func TestSendTextArrivesExactlyAndNeverInArgv(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	pane, out := rawSink(t, c, "sink")
	var log argvLog
	log.wrap(c)
	texts := []string{
		"-n ; echo $HOME x;",
		"$(touch /tmp/lanes-pwned) `id` 'single' \"double\" #{pane_id} \\; ;",
		"--",
		"-x",
		"line one\nline two\twith a tab",
		"ünïcødé ✓ 日本語 🚀",
		"Enter C-c",
		strings.Repeat("long prompt ", 2000),
	}
	var want strings.Builder
	for _, text := range texts {
		if err := c.SendText(t.Context(), pane, text); err != nil {
			t.Fatalf("send %q: %v", text, err)
		}
		want.WriteString(text + "\r") // Enter is a carriage return on a raw terminal
	}
	waitReceived(t, out, want.String())
	for _, text := range texts {
		if hits := log.holding(text); len(hits) > 0 {
			t.Errorf("text %q appeared in tmux's argv: %q", text, hits)
		}
	}
	noBuffers(t, c)
}

// A pane in copy mode, or in view mode (what run-shell output opens),
// would take the text and Enter as mode keys; the send returns the pane to
// normal mode first.
func TestSendTextLeavesCopyMode(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	pane, out := rawSink(t, c, "sink")
	modes := [][]string{{"copy-mode", "-t", pane}, {"copy-mode", "-u", "-t", pane}, {"run-shell", "-t", pane, "echo shown"}}
	for _, mode := range modes {
		if _, err := raw(t, c, mode...); err != nil {
			t.Fatal(err)
		}
		if got, _ := raw(t, c, "display-message", "-p", "-t", pane, "#{pane_in_mode}"); got != "1" {
			t.Fatalf("pane_in_mode = %q after %v", got, mode)
		}
		if err := c.SendText(t.Context(), pane, "qjk hello"); err != nil {
			t.Fatal(err)
		}
		if got, _ := raw(t, c, "display-message", "-p", "-t", pane, "#{pane_in_mode}"); got != "0" {
			t.Errorf("pane_in_mode = %q after the send", got)
		}
	}
	waitReceived(t, out, strings.Repeat("qjk hello\r", len(modes)))
}

// A send tmux cannot carry out is an error, and leaves no buffer behind.
func TestSendTextFailureIsAnErrorAndLeavesNoBuffer(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	rawSink(t, c, "keep")
	err := c.SendText(t.Context(), "%999", "hello")
	if !errors.Is(err, tmux.ErrNoSession) {
		t.Errorf("send to a missing pane: %v, want ErrNoSession", err)
	}
	noBuffers(t, c)
}

// Enter reaches tmux EnterGap after the paste returned, so a program that
// reads a paste and an Enter in one burst as one paste (Gemini CLI) sees
// a keypress.
func TestSendTextWaitsBeforeEnter(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	pane, out := rawSink(t, c, "gap")
	var pasted, entered time.Time
	run := c.Run
	c.Run = func(ctx context.Context, args ...string) ([]byte, error) {
		has := func(word string) bool {
			return slices.ContainsFunc(args, func(a string) bool { return slices.Contains(strings.Fields(a), word) })
		}
		if has("Enter") {
			entered = time.Now()
		}
		b, err := run(ctx, args...)
		if has("paste-buffer") {
			pasted = time.Now()
		}
		return b, err
	}
	if err := c.SendText(t.Context(), pane, "hello"); err != nil {
		t.Fatal(err)
	}
	waitReceived(t, out, "hello\r")
	if gap := entered.Sub(pasted); pasted.IsZero() || gap < tmux.EnterGap {
		t.Fatalf("Enter went to tmux %v after the paste returned, want ≥ %v", gap, tmux.EnterGap)
	}
}
