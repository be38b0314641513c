package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// A record can lag its pane: send reads the pane first and types nothing
// where one of the agent's dialogs shows, which the text and its Enter
// would answer (the fourth hostile run of issue 30 got a PWNED file that
// way into all four agents); --force still sends.
func TestSendRefusesADialogOnScreen(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	calls := fakeTmux(t, reply{cmd: "capture-pane", stdout: string(b)})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)
	r.Agent = state.AgentClaude
	if err := s.Send(bg, r, "yes", false); !errors.Is(err, ErrDialogShows) {
		t.Errorf("send over a dialog: %v, want ErrDialogShows", err)
	}
	for _, c := range calls() {
		if strings.Contains(c, "paste-buffer") || strings.Contains(c, "send-keys") {
			t.Fatalf("send typed into the dialog: %s", c)
		}
	}
	if err := s.Send(bg, r, "yes", true); err != nil {
		t.Errorf("send --force over a dialog: %v", err)
	}
}

// Nor where one of its menus shows, which the text would search or pick
// in (the sixth hostile re-run: OpenCode's /models took send's text and
// switched the model): the refusal names the menu.
func TestSendRefusesAMenuOnScreen(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "menus", "opencode-models.screen"))
	if err != nil {
		t.Fatal(err)
	}
	calls := fakeTmux(t, reply{cmd: "capture-pane", stdout: string(b)})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	r := liveRecord(t, s)
	r.Agent = state.AgentOpenCode
	if err := s.Send(bg, r, "hello", false); !errors.Is(err, state.ErrInMenu) {
		t.Errorf("send over a menu: %v, want ErrInMenu", err)
	}
	for _, c := range calls() {
		if strings.Contains(c, "paste-buffer") || strings.Contains(c, "send-keys") {
			t.Fatalf("send typed into the menu: %s", c)
		}
	}
}

// A just-started agent's pane is waited on for its prompt; a dialog the
// record has not heard of yet (Codex's plan question, which only the
// witness reads) is no prompt to wait for: send refuses at once, naming
// the dialog, rather than after its wait with "its prompt did not show"
// (the campaign, issue 37).
func TestSendToAJustStartedAgentShowingADialog(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "harness", "codex", "plan_approval", "halt.screen"))
	if err != nil {
		t.Fatal(err)
	}
	calls := fakeTmux(t, reply{cmd: "capture-pane", stdout: string(b)})
	s := newService(t, "lanes-test-fake", 5*time.Second)
	s.ReadyWait = time.Minute
	r := liveRecord(t, s)
	r.Agent, r.Runtime.PaneStartedAt = state.AgentCodex, testNow.Add(-time.Second)
	done := make(chan error, 1)
	go func() { done <- s.Send(bg, r, "hello", false) }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrDialogShows) {
			t.Errorf("send to a new agent showing a dialog: %v, want ErrDialogShows", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("send waited for a prompt under a dialog")
	}
	for _, c := range calls() {
		if strings.Contains(c, "paste-buffer") || strings.Contains(c, "send-keys") {
			t.Fatalf("send typed into the dialog: %s", c)
		}
	}
}

// Nor after text the agent put back in its input: Qwen Code 0.24.4 puts
// an interrupted prompt back, and a prompt typed after it ran as one with
// it ("count slowlyrun it", seen on the board). Its prompt as it starts,
// empty, takes the text (the fake pane shows a text in its input once
// pasted, and none once Enter took it).
func TestSendRefusesAnInputThatHoldsText(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real", "harness", "qwen", "interrupt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		step string
		want error
	}{{"interrupted", ErrInputHolds}, {"ready", nil}} {
		calls := fakeTmux(t, reply{cmd: "capture-pane", sh: `if ! grep -q paste-buffer "$LOG"; then cat ` + quote(filepath.Join(dir, c.step+".screen")) + `
elif ! grep -q send-keys "$LOG"; then cat ` + quote(filepath.Join(dir, "interrupted.screen")) + `
else cat ` + quote(filepath.Join(dir, "ready.screen")) + `; fi`})
		s := newService(t, "lanes-test-fake", 5*time.Second)
		r := liveRecord(t, s)
		r.Agent = state.AgentQwen
		if err := s.Send(bg, r, "run it", false); !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
			t.Errorf("%s: send = %v, want %v", c.step, err, c.want)
		}
		typed := false
		for _, call := range calls() {
			typed = typed || strings.Contains(call, "paste-buffer") || strings.Contains(call, "send-keys")
		}
		if typed != (c.want == nil) {
			t.Errorf("%s: typed %v", c.step, typed)
		}
	}
}
