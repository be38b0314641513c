package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// An agent the user started in a plain tmux pane, whose installed hook
// reports it, appears on the running board as an adopted session named
// after its dir, and enter attaches to its pane as to any session's.
func TestE2EAdoptedSessionAttaches(t *testing.T) {
	e := startBoard(t, 140, 40)
	out, err := e.srv.Run(t.Context(), "new-session", "-d", "-s", "mine", "-P", "-F", "#{pane_id}", "--",
		"sh", "-c", "echo ADOPTED-SCREEN; sleep 3600")
	if err != nil {
		t.Fatal(err)
	}
	pane := strings.TrimSpace(string(out))
	hook := exec.Command(e.bin, "hook", "claude", "--installed")
	hook.Env = append(append([]string{}, e.env...),
		"TMUX="+filepath.Join("/tmp", "tmux-"+strconv.Itoa(os.Getuid()), e.srv.Socket)+",1,0", "TMUX_PANE="+pane)
	hook.Stdin = strings.NewReader(`{"hook_event_name":"SessionStart","session_id":"0b7e2c1a-1111-4aaa-8bbb-123456789abc","cwd":"/src/shop","source":"startup"}`)
	if b, err := hook.CombinedOutput(); err != nil {
		t.Fatalf("lanes hook: %v %s", err, b)
	}
	e.waitScreen("the adopted session", func(s string) bool { return strings.Contains(s, "shop") && strings.Contains(s, "Idle · 1") })
	e.keys("j")
	e.waitScreen("shop selected", func(s string) bool { return strings.Contains(s, "▌ ○ shop") && strings.Contains(s, "adopted") })
	// The hook's wake-up made the card at once; the board's next full
	// cycle finds the pane to attach to (until then enter says so).
	attached := func(s string) bool {
		return strings.Contains(s, "ADOPTED-SCREEN") && !strings.Contains(s, "Ready to merge")
	}
	// One enter at a time, each answered before the next: an enter still
	// queued when the attach began would attach again after the detach.
	refused := func(s string) bool { return strings.Contains(s, "no tmux session yet") }
	for end := time.Now().Add(30 * time.Second); ; {
		e.keys("Enter")
		if s := e.waitScreen("enter taken", func(s string) bool { return attached(s) || refused(s) }); attached(s) {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the board never found the adopted session's pane")
		}
		e.waitScreen("the refusal gone", func(s string) bool { return !refused(s) })
	}
	e.keys("C-b", "d")
	e.waitScreen("the board again", func(s string) bool { return strings.Contains(s, "Ready to merge") })
}
