package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/internal/remote/sshtest"
	"lanes/state"
	"lanes/state/store"
)

// Another host's dialog is answered from here, over real ssh, with the
// checks of a local answer: `lanes answer NAME@HOST --dialog TIME` sends
// the agent's key only while that host shows the very dialog opened at
// TIME; one opened since gets nothing. With the host's sshd down, the
// answer fails at once, and nothing reaches the pane when it is back: no
// answer waits to fire later (issue 33).
func TestAnswerAnotherHostsDialog(t *testing.T) {
	rig := sshtest.New(t, 1)
	h := rig.Hosts[0]
	received := fakeClaudeOn(t, h, "far")
	waitPane(t, h.Tmux, "lanes-far", "Do you want to proceed?")
	hook := func(events ...string) { // fired on host1, as its agent would
		t.Helper()
		for _, ev := range events {
			cmd := exec.Command(sshtest.LanesBinary(t), "hook", "claude", "--session", "far")
			cmd.Env, cmd.Stdin = h.Env(), strings.NewReader(firstRealPayload(t, "claude", "permission-approve", ev))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hook %s on host1: %v %s", ev, err, out)
			}
		}
	}
	dialogAt := func() string {
		t.Helper()
		var list []listing.Session
		if err := json.Unmarshal([]byte(h.Lanes(t, "ls", "--json")), &list); err != nil || len(list) != 1 || list[0].DialogAt == nil {
			t.Fatalf("host1 lists %+v (%v), want far with its dialog", list, err)
		}
		return *list[0].DialogAt
	}
	hook("PreToolUse", "PermissionRequest")
	first := dialogAt()

	e := newEnv(t)
	withHosts(t, e, rig)

	if _, errs, code := e.run("answer", "far@host1", "yes", "--dialog", "2026-01-02T03:04:05Z"); code == exitOK || !strings.Contains(errs, "dialog is gone") {
		t.Errorf("an older dialog's answer: exit %d %q", code, errs)
	}
	if out := e.must("answer", "far@host1", "yes", "--dialog", first); !strings.Contains(out, "approved Bash: touch approved.txt") {
		t.Errorf("answer far@host1 yes said %q", out)
	}
	waitBytes(t, received, "1")

	hook("PostToolUse", "PreToolUse", "PermissionRequest") // the next call asks: a new dialog
	if second := dialogAt(); second == first {
		t.Fatal("the second dialog has the first's time")
	}
	if _, errs, code := e.run("answer", "far@host1", "no", "--dialog", first); code == exitOK || !strings.Contains(errs, "dialog is gone") {
		t.Errorf("the answer to a dialog since replaced: exit %d %q", code, errs)
	}
	second := dialogAt()
	rig.Stop()
	began := time.Now()
	if _, errs, code := e.run("answer", "far@host1", "no", "--dialog", second); code == exitOK || !strings.Contains(errs, "host host1") {
		t.Errorf("an answer with host1's sshd down: exit %d %q", code, errs)
	}
	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("the refusal took %v", took)
	}
	rig.Start()
	if b, _ := os.ReadFile(received); string(b) != "1" {
		t.Fatalf("the pane got %q with the host down, want only the first answer's 1", b)
	}
	// Back: the refused answer did not wait to fire (the pane gets one 3,
	// this answer's).
	e.must("answer", "far@host1", "no", "--dialog", second)
	waitBytes(t, received, "13")
}

// fakeClaudeOn starts session name on host h running a fake Claude Code
// that shows the recorded real permission dialog and writes every byte it
// reads to the returned file (as fakeClaude does here).
func fakeClaudeOn(t *testing.T, h *sshtest.Host, name string) (received string) {
	t.Helper()
	dir := t.TempDir()
	received = filepath.Join(dir, "received")
	screen, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "claude")
	script := "#!/bin/sh\nclear; cat " + shellQuote(screen) + "; stty raw -echo && exec cat > " + shellQuote(received) + "\n"
	writeExec(t, fake, script)
	h.Lanes(t, "new", name, "--dir", dir, "--", fake)
	// Its record says claude (a custom command started it: lanes looks
	// agents up on PATH, which the rig's lanes shares with this test).
	if err := store.New(h.StateDir).Update(func(tx *store.Tx) error {
		r, err := tx.Resolve(name)
		if err != nil {
			return err
		}
		r.Agent = state.AgentClaude
		return tx.Put(r)
	}); err != nil {
		t.Fatal(err)
	}
	return received
}

// withHosts gives e a hosts file naming the rig's hosts, and its ssh.
func withHosts(t *testing.T, e *env, rig *sshtest.Rig) {
	t.Helper()
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	var lines string
	for _, h := range rig.Hosts {
		lines += h.Name + " " + h.Dest + "\n"
	}
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	e.vars["XDG_CONFIG_HOME"], e.vars["LANES_SSH"] = cfg, rig.SSH.Program
}
