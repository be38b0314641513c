package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/agent"
	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
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
	screen, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nclear; cat " + shellQuote(screen) + "; stty raw -echo && exec cat > " + shellQuote(received) + "\n"
	writeExec(t, filepath.Join(dir, "claude"), script)
	e.newAs(name, state.AgentClaude, filepath.Join(dir, "claude"))
	return received
}

// newAs starts session name running argv as a custom command, then makes
// its record say agent ag: lanes looks agents up on the process's PATH,
// which a parallel test may not change.
func (e *env) newAs(name string, ag state.Agent, argv ...string) {
	e.t.Helper()
	e.must(append([]string{"new", name, "--"}, argv...)...)
	r := e.record(name)
	if err := e.app().svc().Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
		cur.Agent = ag
		return nil
	}); err != nil {
		e.t.Fatal(err)
	}
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

// stopped is a clock standing still at t.
func stopped(t time.Time) func() time.Time { return func() time.Time { return t } }

// An answer reaches a real tmux pane as the agent's own key, and only while
// the record read fresh shows the very dialog the user saw (the same call,
// opened at the same time, asking the same thing) and its pane shows the
// option the key picks; one answer per dialog. Any other dialog, a
// question, or no dialog, gets nothing (docs/design.md §15).
func TestAnswerSendsKeysOnlyToTheDialogSeen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	received := fakeClaude(t, e, "api")
	waitPane(t, e.tc, "lanes-api", "Do you want to proceed?")
	hooks := func(dir, scenario string, events ...string) {
		t.Helper()
		for _, ev := range events {
			e.stdin = firstRealPayload(t, dir, scenario, ev)
			e.must("hook", "claude", "--session", "api")
		}
		e.stdin = ""
	}
	hooks("claude", "permission-approve", "PreToolUse", "PermissionRequest")
	seen := e.record("api")
	if a := seen.Activity; a.State != state.ActivityBlocked || !a.Dialog || a.DialogAt.IsZero() {
		t.Fatalf("after PermissionRequest: %s dialog %v at %v", a.State, a.Dialog, a.DialogAt)
	}
	refused := func(what string, r *state.Record, ans agent.Answer, want error) {
		t.Helper()
		if said, err := e.app().svc().Answer(context.Background(), r, ans); !errors.Is(err, want) {
			t.Errorf("%s: answer = %q, %v; want %v", what, said, err, want)
		}
	}
	for what, edit := range map[string]func(*state.ActivityFacts){
		"an older dialog":            func(a *state.ActivityFacts) { a.DialogAt = a.DialogAt.Add(-time.Second) },
		"another tool call's dialog": func(a *state.ActivityFacts) { a.AskingTool = "toolu_another" },
		"another command":            func(a *state.ActivityFacts) { a.ToolInput = "ls" },
	} {
		other := seen.Clone()
		edit(&other.Activity)
		refused(what, other, agent.Yes, session.ErrDialogGone)
	}
	if _, errs, code := e.run("answer", "api", "yes", "--dialog", "2026-01-02T03:04:05Z"); code != exitError || !strings.Contains(errs, "dialog is gone") {
		t.Errorf("answer --dialog of another time: exit %d %q", code, errs)
	}

	dialogAt := e.ls()["api"].DialogAt
	if dialogAt == nil {
		t.Fatal("ls --json has no dialog_at while the dialog shows")
	}
	e.now = stopped(time.Now()) // both answers inside state.AnswerLost, whatever the load
	out := e.must("answer", "api", "yes", "--dialog", *dialogAt)
	// (The stand-in draws its dialog on: lanes says it still shows.)
	if want := "approved Bash: touch approved.txt && sleep 12 in api" + stillShows + "\n"; out != want {
		t.Errorf("lanes answer api yes said %q, want %q", out, want)
	}
	refused("a second answer to the same dialog", seen, agent.No, agent.ErrAnswered)
	e.now = nil

	// The tool ran; the next call asks again: a new dialog, a new answer.
	hooks("claude", "permission-approve", "PostToolUse", "PreToolUse", "PermissionRequest")
	if said, err := e.app().svc().Answer(context.Background(), e.record("api"), agent.No); err != nil || said != "denied Bash: touch approved.txt && sleep 12 in api"+stillShows {
		t.Errorf("answer no = %q, %v", said, err)
	}
	hooks("claude", "permission-approve", "PostToolUse", "PreToolUse", "PermissionRequest")
	e.must("answer", "api", "always")
	waitBytes(t, received, "132") // 1. Yes, 3. No, 2. Yes and always

	// The tool ran and the turn ended: the dialog is gone.
	hooks("claude", "permission-approve", "PostToolUse", "Stop")
	refused("the dialog answered meanwhile", seen, agent.Yes, session.ErrDialogGone)
	if _, errs, code := e.run("answer", "api", "yes"); code != exitError || !strings.Contains(errs, "shows no permission dialog") {
		t.Errorf("answer with no dialog: exit %d %q", code, errs)
	}

	// A question is answered in the pane, never with a key from lanes.
	hooks("harness/claude", "question", "PreToolUse", "PermissionRequest")
	if _, errs, code := e.run("answer", "api", "yes"); code != exitError || !strings.Contains(errs, "asks a question") {
		t.Errorf("answer to a question: exit %d %q", code, errs)
	}
	// A marker key after the refusals: had any of them sent a key, it
	// would stand before the marker.
	if err := e.tc.SendKeys(context.Background(), seen.Runtime.PaneID, "9"); err != nil {
		t.Fatal(err)
	}
	waitBytes(t, received, "1329")
}

// A pane that no longer shows the dialog gets no key, whatever the record
// says: the record lags a dialog answered in the pane by up to seconds.
func TestAnswerLooksAtThePaneFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.newAs("api", state.AgentClaude, "sh", "-c", "echo just a prompt; exec cat")
	waitPane(t, e.tc, "lanes-api", "just a prompt")
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		e.stdin = firstRealPayload(t, "claude", "permission-approve", ev)
		e.must("hook", "claude", "--session", "api")
	}
	e.stdin = ""
	if _, errs, code := e.run("answer", "api", "yes"); code != exitError || !strings.Contains(errs, "shows no permission dialog lanes can read whole") {
		t.Errorf("answer to a pane without the dialog: exit %d %q", code, errs)
	}
	if e.record("api").Activity.AnsweredAt.IsZero() == false {
		t.Error("a refused answer counted as sent")
	}
}

// A newer dialog drawn before its hook, for another command, under the
// one the board shows (its transcript line above it): the answer meant for
// the one shown sends nothing, and says what the pane asks now (issue 30,
// item 1: the key "1" approved the rm).
func TestAnswerRefusesANewerDialog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := t.TempDir()
	real, err := os.ReadFile(filepath.Join("..", "..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	const shown = "touch approved.txt && sleep 12"
	newer := string(real) + "\n⏺ Bash(" + shown + ")\n" + strings.ReplaceAll(string(real), shown, "rm -rf ~/src")
	screen, received := filepath.Join(dir, "screen"), filepath.Join(dir, "received")
	if err := os.WriteFile(screen, []byte(newer), 0o600); err != nil {
		t.Fatal(err)
	}
	e.newAs("api", state.AgentClaude, "sh", "-c", "clear; cat "+shellQuote(screen)+"; stty raw -echo && exec cat > "+shellQuote(received))
	waitPane(t, e.tc, "lanes-api", "rm -rf ~/src")
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		e.stdin = firstRealPayload(t, "claude", "permission-approve", ev)
		e.must("hook", "claude", "--session", "api")
	}
	e.stdin = ""
	if got := e.record("api").Activity; !got.Dialog || got.ToolInput != shown || got.CallSum == "" {
		t.Fatalf("the card's dialog: %+v", got)
	}
	// The refusal names both: the screen's call and the card's.
	if _, errs, code := e.run("answer", "api", "yes"); code != exitError || !strings.Contains(errs, "asks about another call (rm -rf ~/src") ||
		!strings.Contains(errs, "the card showed Bash: "+shown) {
		t.Errorf("answer to a newer dialog: exit %d %q", code, errs)
	}
	if err := e.tc.SendKeys(context.Background(), e.record("api").Runtime.PaneID, "9"); err != nil {
		t.Fatal(err)
	}
	waitBytes(t, received, "9")
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
		said, err := a.svc().Answer(context.Background(), c.r, c.ans)
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
	if !strings.Contains(help, "NAME yes|no|always") || !strings.Contains(help, "one answer per dialog") {
		t.Errorf("answer --help:\n%s", help)
	}
}

// Two answers at once to one dialog (a double tap, a script racing the
// board): one sends its key, the other finds the dialog taken and sends
// nothing.
func TestAnswerTwiceAtOnceSendsOneKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	received := claudeAsking(t, e)
	seen := e.record("api")
	errs := make(chan error, 2)
	for _, ans := range []agent.Answer{agent.Yes, agent.No} {
		go func() {
			_, err := e.app().svc().Answer(context.Background(), seen.Clone(), ans)
			errs <- err
		}()
	}
	var ok, taken int
	for range 2 {
		switch err := <-errs; {
		case err == nil:
			ok++
		case errors.Is(err, agent.ErrAnswered):
			taken++
		default:
			t.Errorf("answer: %v", err)
		}
	}
	if ok != 1 || taken != 1 {
		t.Fatalf("%d answers sent, %d refused as answered; want one of each", ok, taken)
	}
	if err := e.tc.SendKeys(context.Background(), seen.Runtime.PaneID, "9"); err != nil {
		t.Fatal(err)
	}
	got := waitLen(t, received, 2)
	if got != "19" && got != "39" {
		t.Fatalf("the agent received %q, want one answer's key then the marker", got)
	}
}

// After the key, lanes watches the pane: the dialog gone from it counts as
// the witness's first look, so the card follows in about a second.
func TestAnswerWatchesTheDialogGo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := t.TempDir()
	screen, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real", "claude", "permission-approve", "dialog.screen"))
	if err != nil {
		t.Fatal(err)
	}
	// Shows the dialog; the first key clears it and shows Claude at work.
	script := "#!/bin/sh\nclear; cat " + shellQuote(screen) + "; stty raw -echo; dd bs=1 count=1 of=/dev/null 2>/dev/null; clear; echo '✻ Running… (esc to interrupt)'; exec sleep 60\n"
	writeExec(t, filepath.Join(dir, "claude"), script)
	e.newAs("api", state.AgentClaude, filepath.Join(dir, "claude"))
	waitPane(t, e.tc, "lanes-api", "Do you want to proceed?")
	// The dialog opened a few seconds ago: past the witness's draw grace,
	// when a screen without it proves something.
	e.now = func() time.Time { return time.Now().Add(-5 * time.Second) }
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		e.stdin = firstRealPayload(t, "claude", "permission-approve", ev)
		e.must("hook", "claude", "--session", "api")
	}
	e.stdin, e.now = "", nil
	e.must("answer", "api", "yes")
	a := e.record("api").Activity
	if a.AnsweredAt.IsZero() || a.DialogGoneAt.IsZero() || !a.Dialog {
		t.Fatalf("after the answer: answered %v, dialog gone seen %v, dialog %v; want both noted, the dialog not yet confirmed gone", a.AnsweredAt, a.DialogGoneAt, a.Dialog)
	}
}

// waitLen waits until file holds n bytes (a deadline, not a sleep) and
// returns what it holds.
func waitLen(t *testing.T, file string, n int) string {
	t.Helper()
	var got []byte
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && len(got) < n; time.Sleep(20 * time.Millisecond) {
		got, _ = os.ReadFile(file)
	}
	return string(got)
}

// The history says what was answered from lanes, and with LANES_CONTENT
// off the answer says no more than that it was the tool.
func TestAnswerInTheHistory(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	claudeAsking(t, e)
	e.vars[state.EnvContent] = "off"
	if out := e.must("answer", "api", "n"); out != "denied the tool in api"+stillShows+"\n" {
		t.Errorf("with content off, answer said %q", out)
	}
	r := e.record("api")
	trs, err := e.app().svc().History(context.Background(), r.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	last := trs[len(trs)-1]
	if last.Source != "user" || last.Detail != "denied from lanes · Bash: touch approved.txt && sleep 12" {
		t.Errorf("last transition %+v, want the answer from lanes with what it answered", last)
	}
}
