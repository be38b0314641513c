package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2ETwoBoardsNotifyOnce: with two boards on one state dir, an entry
// into Needs you is told once (notify-send, a stand-in on PATH, runs once),
// the second board says it tells nobody, and it takes over when the first
// quits (trial 3, item 4).
func TestE2ETwoBoardsNotifyOnce(t *testing.T) {
	dir := t.TempDir()
	sent := filepath.Join(dir, "notify-send.args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + sent + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	first := startBoard(t, 160, 36, "PATH="+dir+":"+os.Getenv("PATH"))
	second := *first
	args := append([]string{"new-session", "-d", "-s", "board2", "-x", "160", "-y", "36",
		"-P", "-F", "#{pane_id}", "--", "env", "-i"}, first.env...)
	out, err := first.srv.Run(t.Context(), append(args, first.bin, "--theme", "dark")...)
	if err != nil {
		t.Fatalf("starting the second board: %v", err)
	}
	second.pane = strings.TrimSpace(string(out))
	second.waitScreen("the second board saying it tells nobody", func(s string) bool {
		return strings.Contains(s, "another board sends the notifications")
	})

	told := func(n int) []string {
		t.Helper()
		var lines []string
		for deadline := time.Now().Add(10 * time.Second); len(lines) < n; time.Sleep(10 * time.Millisecond) {
			b, _ := os.ReadFile(sent)
			lines = strings.Fields(strings.ReplaceAll(string(b), " ", "_"))
			if time.Now().After(deadline) {
				t.Fatalf("notify-send ran %d time(s), want %d: %q", len(lines), n, lines)
			}
		}
		return lines
	}
	first.lanes("new", "alpha", "--", "sh", "-c", "sleep 3600")
	first.lanes("hook", "generic", "active", "--session", "alpha")
	for _, b := range []*e2e{first, &second} {
		b.waitScreen("alpha working", func(s string) bool { return strings.Contains(s, "● 1 working") })
	}
	first.lanes("hook", "generic", "blocked", "--session", "alpha")
	first.waitLane("alpha", "Needs you")
	second.waitLane("alpha", "Needs you")
	told(1)

	first.keys("q")
	second.waitScreen("the second board taking over", func(s string) bool {
		return strings.Contains(s, "this board sends the notifications now")
	})
	first.lanes("hook", "generic", "active", "--session", "alpha")
	second.waitScreen("alpha working", func(s string) bool { return strings.Contains(s, "● 1 working") })
	first.lanes("hook", "generic", "blocked", "--session", "alpha")
	if lines := told(2); len(lines) != 2 {
		t.Errorf("notify-send ran %d times for two entries into Needs you: %q", len(lines), lines)
	}
}
