package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillRestore: sessions of a Claude stand-in, each with a conversation of
// its own (its hooks' session id and a turn), one that never had a prompt
// and one custom command; a reboot (the tmux server killed, a new one
// started); `lanes restore --all` brings every one back under its record:
// each Claude with --resume its own id, the others afresh, saying so
// (docs/design.md §13).
func drillRestore(w *world.World) (string, error) {
	n := 8
	if *quick {
		n = 3
	}
	bin, logs := filepath.Join(w.Root, "bin"), filepath.Join(w.Root, "argv")
	for _, d := range []string{bin, logs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", err
		}
	}
	// The stand-in writes its argv, one word a line, to a file named by its
	// session and launch, and waits.
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + logs + "/$LANES_SESSION.$LANES_LAUNCH\nexec sleep 86400\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o700); err != nil {
		return "", err
	}
	w.Extra = append(w.Extra, "PATH="+bin+":"+os.Getenv("PATH"))
	if err := reboot(w); err != nil { // a server with that PATH
		return "", err
	}
	uuid := func(i int) string { return fmt.Sprintf("0b7e3c2a-5d1f-4e8a-9c6b-%012d", i) }
	hook := func(name, id string, events ...string) error {
		for _, ev := range events {
			in := `{"session_id":"` + id + `","hook_event_name":"` + ev + `","prompt":"hi"}`
			if r := w.Lanes(in, "hook", "claude", "--session", name); r.Code != 0 {
				return fmt.Errorf("lanes hook claude %s for %s: exit %d: %s", ev, name, r.Code, r.Stderr)
			}
		}
		return nil
	}
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		if r := w.Lanes("", "new", name, "--agent", "claude", "--dir", w.Root); r.Code != 0 {
			return "", fmt.Errorf("lanes new %s: exit %d: %s", name, r.Code, r.Stderr)
		}
		if err := hook(name, uuid(i), "SessionStart", "UserPromptSubmit", "Stop"); err != nil {
			return "", err
		}
	}
	if r := w.Lanes("", "new", "blank", "--agent", "claude", "--dir", w.Root); r.Code != 0 {
		return "", fmt.Errorf("lanes new blank: exit %d: %s", r.Code, r.Stderr)
	}
	if err := hook("blank", uuid(99), "SessionStart"); err != nil { // no prompt ever
		return "", err
	}
	if r := w.Lanes("", "new", "script", "--dir", w.Root, "--", "sleep", "86400"); r.Code != 0 {
		return "", fmt.Errorf("lanes new script: exit %d: %s", r.Code, r.Stderr)
	}
	before, err := w.Ls()
	if err != nil {
		return "", err
	}
	if err := reboot(w); err != nil {
		return "", err
	}
	r := w.Lanes("", "restore", "--all")
	if r.Code != 0 {
		return "", fmt.Errorf("restore --all: exit %d: %s%s", r.Code, r.Stdout, r.Stderr)
	}
	out := r.Stdout
	if got := strings.Count(out, "restored "); got != n+2 {
		return out, fmt.Errorf("restore --all restored %d sessions, want %d", got, n+2)
	}
	if got := strings.Count(out, "no conversation to resume; started afresh"); got != 2 {
		return out, fmt.Errorf("restore --all started %d afresh, want 2 (blank, script)", got)
	}
	if !world.Poll(15*time.Second, 100*time.Millisecond, func() bool {
		s, err := w.Ls()
		if err != nil {
			return false
		}
		for name, b := range before {
			a := s[name]
			if a.ID != b.ID || a.IsTerminated || a.Launch == b.Launch || a.Status != "idle" {
				return false
			}
		}
		return true
	}) {
		return out, fmt.Errorf("not every session came back live, under its id, with a new launch")
	}
	after, err := w.Ls()
	if err != nil {
		return out, err
	}
	for i := range n {
		s := after[fmt.Sprintf("c%d", i)]
		b, err := os.ReadFile(filepath.Join(logs, s.ID+"."+s.Launch))
		if err != nil {
			return out, fmt.Errorf("%s's restored agent did not start: %v", s.Name, err)
		}
		if want := "--resume\n" + uuid(i) + "\n"; !strings.HasSuffix(string(b), want) {
			return out, fmt.Errorf("%s's restored claude ran %q, want it to end --resume %s", s.Name, b, uuid(i))
		}
	}
	b, err := os.ReadFile(filepath.Join(logs, after["blank"].ID+"."+after["blank"].Launch))
	if err != nil || strings.Contains(string(b), "--resume") {
		return out, fmt.Errorf("blank (no prompt ever) restarted with %q (%v), want no --resume", b, err)
	}
	return fmt.Sprintf("after a reboot, restore --all brought back %d of %d sessions in %v: %d claude resumed with their own ids, blank (no prompt) and script started afresh",
		n+2, len(before), r.Took.Round(time.Millisecond), n), nil
}

// reboot kills the world's tmux server, every session with it, and starts
// it again (the old one may take a moment to let go of the socket).
func reboot(w *world.World) error {
	_, _ = w.Tmux(w.Socket, "kill-server")
	if !world.Poll(10*time.Second, 100*time.Millisecond, func() bool { return w.StartServer() == nil }) {
		return fmt.Errorf("starting the tmux server again failed")
	}
	return nil
}
