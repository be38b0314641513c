package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/agent"
)

// fakeClaude starts session name running a fake Claude Code: it shows the
// recorded real permission dialog, then writes every byte it reads to the
// returned file, on a raw terminal, so the test sees exactly the keys an
// answer sent and the witness keeps seeing the dialog. (It starts as a
// custom command, then its record says claude: lanes looks agents up on
// the process's PATH, which a parallel test may not change.)
func fakeClaude(t *testing.T, e *env, name string) (received string) {
	t.Helper()
	dir := t.TempDir()
	received = filepath.Join(dir, "received")
	screen, err := filepath.Abs(filepath.Join("..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nclear; cat " + shellQuote(screen) + "; stty raw -echo && exec cat > " + shellQuote(received) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	e.must("new", name, "--", filepath.Join(dir, "claude"))
	r := e.record(name)
	if err := e.app().update(r.ID, func(cur *state.Record, _ *state.Tx) error {
		cur.Agent = state.AgentClaude
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return received
}

// record is the stored record of session name, as a board would hold it.
func (e *env) record(name string) *state.Record {
	e.t.Helper()
	res, err := e.app().quietCycle(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	r, err := state.Resolve(res.Records, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func (e *env) app() *app {
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, e.getenv)
	if e.now != nil {
		a.now = e.now
	}
	return a
}

// An answer reaches a real tmux pane as the agent's own key, and only while
// the record read fresh shows the very dialog the user saw; any other
// dialog, a question, or no dialog, gets nothing (docs/design.md §15).
func TestAnswerSendsKeysOnlyToTheDialogSeen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	received := fakeClaude(t, e, "api")
	waitPane(t, e.tc, "lanes-api", "Do you want to proceed?")
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		e.stdin = firstRealPayload(t, "claude", "permission-approve", ev)
		e.must("hook", "claude", "--session", "api")
	}
	e.stdin = ""
	seen := e.record("api")
	if a := seen.Activity; a.State != state.ActivityBlocked || !a.Dialog || a.DialogAt.IsZero() {
		t.Fatalf("after PermissionRequest: %s dialog %v at %v", a.State, a.Dialog, a.DialogAt)
	}

	out := e.must("answer", "api", "yes")
	if want := "approved Bash: touch approved.txt && sleep 12 in api\n"; out != want {
		t.Errorf("lanes answer api yes said %q, want %q", out, want)
	}
	refused := func(what string, r *state.Record, ans agent.Answer, want error) {
		t.Helper()
		if said, err := e.app().answer(context.Background(), r, ans); !errors.Is(err, want) {
			t.Errorf("%s: answer = %q, %v; want %v", what, said, err, want)
		}
	}
	other := seen.Clone()
	other.Activity.DialogAt = seen.Activity.DialogAt.Add(-time.Second)
	refused("an older dialog", other, agent.Yes, ErrDialogGone)
	other = seen.Clone()
	other.Activity.AskingTool = "toolu_another"
	refused("another tool call's dialog", other, agent.Yes, ErrDialogGone)
	if said, err := e.app().answer(context.Background(), seen, agent.No); err != nil || said != "denied Bash: touch approved.txt && sleep 12 in api" {
		t.Errorf("answer no = %q, %v", said, err)
	}
	e.must("answer", "api", "always")
	waitBytes(t, received, "132") // 1. Yes, 3. No, 2. Yes and always

	// The tool ran and the turn ended: the dialog is gone.
	for _, ev := range []string{"PostToolUse", "Stop"} {
		e.stdin = firstRealPayload(t, "claude", "permission-approve", ev)
		e.must("hook", "claude", "--session", "api")
	}
	e.stdin = ""
	refused("the dialog answered meanwhile", seen, agent.Yes, ErrDialogGone)
	if _, errs, code := e.run("answer", "api", "yes"); code != exitError || !strings.Contains(errs, "shows no permission dialog") {
		t.Errorf("answer with no dialog: exit %d %q", code, errs)
	}

	// A question is answered in the pane, never with a key from lanes.
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		e.stdin = firstRealPayload(t, "harness/claude", "question", ev)
		e.must("hook", "claude", "--session", "api")
	}
	e.stdin = ""
	if _, errs, code := e.run("answer", "api", "yes"); code != exitError || !strings.Contains(errs, "asks a question") {
		t.Errorf("answer to a question: exit %d %q", code, errs)
	}
	time.Sleep(300 * time.Millisecond) // a key sent by mistake would have arrived by now
	waitBytes(t, received, "132")
}

// waitBytes waits until file holds want exactly (a deadline, not a sleep).
func waitBytes(t *testing.T, file, want string) {
	t.Helper()
	var got []byte
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if got, _ = os.ReadFile(file); len(got) >= len(want) {
			break
		}
	}
	if string(got) != want {
		t.Fatalf("the agent received %q, want %q", got, want)
	}
}

// What answer refuses before any key: the reasons send refuses (exited,
// terminated, unreachable), an agent lanes knows no keys of, an "always"
// the agent does not offer, a card that shows no permission dialog.
func TestAnswerRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now().UTC()
	dialog := func(ag state.Agent, edit func(*state.Record)) *state.Record {
		r := &state.Record{ID: "abcd1234", Name: "w", Agent: ag, CreatedAt: now,
			Runtime:  state.Runtime{PaneID: "%1", SessionID: "$1", Launch: "L"},
			Activity: state.ActivityFacts{State: state.ActivityBlocked, Dialog: true, DialogAt: now, Tool: "Bash"}}
		if edit != nil {
			edit(r)
		}
		return r
	}
	for _, c := range []struct {
		what string
		r    *state.Record
		ans  agent.Answer
		want error
		code int
	}{
		{"exited", dialog(state.AgentClaude, func(r *state.Record) { r.Activity.State = state.ActivityExited }), agent.Yes, state.ErrAgentExited, exitExited},
		{"dead pane", dialog(state.AgentClaude, func(r *state.Record) { r.Pane.Dead = true }), agent.Yes, state.ErrAgentExited, exitExited},
		{"terminated", dialog(state.AgentClaude, func(r *state.Record) { r.Runtime.Terminated = true }), agent.No, state.ErrTerminated, exitTerminated},
		{"unreachable", dialog(state.AgentCodex, func(r *state.Record) { r.Runtime.UnreachableSince = now }), agent.Yes, state.ErrUnreachable, exitError},
		{"question", dialog(state.AgentClaude, func(r *state.Record) { r.Activity.State = state.ActivityWaitingInput }), agent.Yes, agent.ErrQuestion, exitError},
		{"gemini's question as a permission", dialog(state.AgentGemini, func(r *state.Record) { r.Activity.Tool = "ask_user" }), agent.Yes, agent.ErrQuestion, exitError},
		{"dialog no longer on screen", dialog(state.AgentClaude, func(r *state.Record) { r.Activity.DialogGoneAt = now }), agent.Yes, agent.ErrNoDialog, exitError},
		{"no dialog", dialog(state.AgentGemini, func(r *state.Record) { r.Activity.Dialog = false }), agent.Yes, agent.ErrNoDialog, exitError},
		{"shell", dialog(state.AgentShell, nil), agent.Yes, agent.ErrNoDialogKeys, exitError},
		{"custom", dialog(state.AgentCustom, nil), agent.No, agent.ErrNoDialogKeys, exitError},
		{"always on opencode", dialog(state.AgentOpenCode, nil), agent.Always, agent.ErrNoAlways, exitError},
	} {
		a := e.app()
		said, err := a.answer(context.Background(), c.r, c.ans)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: answer = %q, %v; want %v", c.what, said, err, c.want)
			continue
		}
		if code := a.fail(err); code != c.code {
			t.Errorf("%s: exit %d, want %d", c.what, code, c.code)
		}
	}
	if _, errs, code := e.run("answer", "w", "maybe"); code != exitUsage || !strings.Contains(errs, `unknown answer "maybe"`) {
		t.Errorf("answer maybe: exit %d %q", code, errs)
	}
	if _, errs, code := e.run("answer", "nosuch", "yes"); code != exitNoSession {
		t.Errorf("answer to no session: exit %d %q", code, errs)
	}
	help := e.must("answer", "--help")
	if !strings.Contains(help, "NAME yes|no|always") || !strings.Contains(help, "still shows the dialog") {
		t.Errorf("answer --help:\n%s", help)
	}
}
