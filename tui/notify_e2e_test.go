package tui_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/tmux/tmuxtest"
)

// TestE2ENotifyOnEnteringNeedsYou reads the board's raw output (tmux
// pipe-pane) when a hook line puts a session in Needs you: the bell, OSC 9
// and OSC 777 are in it, a client attached to the lanes server shows the
// message, and notify-send (a stand-in on PATH that writes its argv down)
// was run. The board still shows its lanes afterwards.
func TestE2ENotifyOnEnteringNeedsYou(t *testing.T) {
	dir := t.TempDir()
	sent := filepath.Join(dir, "notify-send.args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + sent + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	e := startBoard(t, 120, 36, "PATH="+dir+":"+os.Getenv("PATH"))
	e.lanes("new", "alpha", "--", "sh", "-c", "sleep 3600")
	e.lanes("hook", "generic", "active", "--session", "alpha")
	e.waitScreen("alpha working", func(s string) bool { return strings.Contains(s, "● 1 working") })

	// A client on the lanes server (the board's own, here): a pane of a
	// second private server gives it a terminal to draw its status line on.
	view := tmuxtest.Server(t)
	if _, err := view.Run(t.Context(), "new-session", "-d", "-x", "120", "-y", "37", "env", "-u", "TMUX",
		"tmux", "-L", e.srv.Socket, "attach", "-t", "board"); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "board.out")
	if _, err := e.srv.Run(t.Context(), "pipe-pane", "-t", e.pane, "cat >> '"+out+"'"); err != nil {
		t.Fatalf("pipe-pane: %v", err)
	}
	e.waitScreen("the client attached", func(string) bool {
		c, _ := e.srv.Run(t.Context(), "list-clients", "-F", "#{client_name}")
		return len(bytes.TrimSpace(c)) > 0
	})

	e.lanes("hook", "generic", "blocked", "--session", "alpha")
	wants := []string{"\x1b]9;lanes: alpha needs you — Needs input\a",
		"\x1b]777;notify;lanes;alpha needs you — Needs input\a", "\a\x1b]9;"}
	var raw []byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		raw, _ = os.ReadFile(out)
		missing := ""
		for _, w := range wants {
			if !bytes.Contains(raw, []byte(w)) {
				missing = w
			}
		}
		if missing == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the board's output lacks %q; it wrote %d bytes, ending %q", missing, len(raw), tail(raw, 300))
		}
	}
	t.Logf("the board wrote %q", raw[bytes.Index(raw, []byte("\a\x1b]9;")):][:len(wants[0])+len(wants[1])+1])

	var shown []byte
	deadline := time.Now().Add(10 * time.Second)
	for !bytes.Contains(shown, []byte("lanes: alpha needs you")) {
		if time.Now().After(deadline) {
			t.Fatalf("the attached client never showed the message; it shows:\n%s", shown)
		}
		time.Sleep(10 * time.Millisecond)
		shown, _ = view.Run(t.Context(), "capture-pane", "-p")
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		args, _ := os.ReadFile(sent)
		if strings.Contains(string(args), "lanes\nalpha needs you — Needs input\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("notify-send got %q", args)
		}
	}
	e.waitLane("alpha", "Needs you")
}

func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }
