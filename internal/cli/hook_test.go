package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"
	"lanes/state/store"
)

// spoolLines reads a session's spool file.
func spoolLines(t *testing.T, dir, id string) []state.Line {
	t.Helper()
	b, err := os.ReadFile(store.SpoolPath(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	var out []state.Line
	for _, raw := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var l state.Line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("spool line %q: %v", raw, err)
		}
		out = append(out, l)
	}
	return out
}

func hookEnv(t *testing.T) *env {
	dir := filepath.Join(t.TempDir(), "state")
	e := &env{t: t, state: dir, home: t.TempDir()}
	e.vars = map[string]string{"LANES_STATE_DIR": dir, "LANES_SESSION": "abcd1234", "LANES_LAUNCH": "L1", "HOME": e.home}
	return e
}

func TestHookWritesOneLeanLine(t *testing.T) {
	e := hookEnv(t)
	e.stdin = `{"session_id":"4f1c2a9e-0d6b-4c1e-9d7a-2b8f3e5a6c10","transcript_path":"/home/u/.claude/projects/x.jsonl",
		"cwd":"/src","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_01ABC",
		"tool_input":{"command":"rm -rf secret"},"prompt":"my secret prompt"}`
	out, errs, code := e.run("hook", "claude")
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("hook must exit 0 silently: %d %q %q", code, out, errs)
	}
	lines := spoolLines(t, e.state, "abcd1234")
	if len(lines) != 1 {
		t.Fatalf("%d lines", len(lines))
	}
	l := lines[0]
	if l.Event != "PreToolUse" || l.ToolName != "Bash" || l.ToolUseID != "toolu_01ABC" || l.Launch != "L1" ||
		l.ProviderSessionID != "4f1c2a9e-0d6b-4c1e-9d7a-2b8f3e5a6c10" || l.V != 1 || l.Agent != "claude" {
		t.Fatalf("line %+v", l)
	}
	if l.ToolInput != "rm -rf secret" {
		t.Errorf("tool input summary %q, want the command", l.ToolInput)
	}
	if l.Transcript != "/home/u/.claude/projects/x.jsonl" {
		t.Errorf("transcript %q, want the path its usage is read from", l.Transcript)
	}
	raw, _ := os.ReadFile(store.SpoolPath(e.state, "abcd1234"))
	// (A prompt's digest, prompt_sum, is kept: it says nothing of it; and
	// the transcript's path, where usage is read.)
	for _, secret := range []string{"secret prompt", `"prompt"`, "transcript_path", "cwd", "/src"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the spool kept %q: %s", secret, raw)
		}
	}
	// For people who share their screen: no content at all.
	e.vars[state.EnvContent] = "off"
	if _, _, code := e.run("hook", "claude"); code != 0 {
		t.Fatal(code)
	}
	if l := spoolLines(t, e.state, "abcd1234")[1]; l.ToolInput != "" || l.ToolName != "Bash" {
		t.Errorf("LANES_CONTENT=off: line %+v, want the tool's name without its input", l)
	}
	fi, _ := os.Stat(store.SpoolPath(e.state, "abcd1234"))
	di, _ := os.Stat(store.SpoolDir(e.state))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v dir %v", fi.Mode().Perm(), di.Mode().Perm())
	}
}

func TestHookFailuresGoToTheLog(t *testing.T) {
	e := hookEnv(t)
	for _, c := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"hook", "vim"}, "", "unknown agent"},
		{[]string{"hook", "claude"}, "{not json", "payload is not JSON"},
		{[]string{"hook", "claude"}, `{"session_id":"x"}`, "no hook_event_name"},
	} {
		e.stdin = c.stdin
		out, errs, code := e.run(c.args...)
		if code != 0 || out != "" || errs != "" {
			t.Fatalf("%v: hook must exit 0 silently: %d %q %q", c.args, code, out, errs)
		}
		log, _ := os.ReadFile(filepath.Join(e.state, "hook-errors.log"))
		if !strings.Contains(string(log), c.want) {
			t.Errorf("%v: log lacks %q:\n%s", c.args, c.want, log)
		}
	}
	// An unwritable spool dir: still exit 0, and the failure is logged.
	os.MkdirAll(store.SpoolDir(e.state), 0o700)
	os.Chmod(store.SpoolDir(e.state), 0o500)
	defer os.Chmod(store.SpoolDir(e.state), 0o700)
	if os.Geteuid() != 0 {
		e.stdin = ""
		if _, _, code := e.run("hook", "generic", "active"); code != 0 {
			t.Fatal("exit code")
		}
		log, _ := os.ReadFile(filepath.Join(e.state, "hook-errors.log"))
		if !strings.Contains(string(log), "appending to the spool") {
			t.Errorf("unwritable spool not logged:\n%s", log)
		}
	}
}

func TestHookSessionFallbacks(t *testing.T) {
	e := hookEnv(t)
	delete(e.vars, "LANES_SESSION")
	delete(e.vars, "LANES_LAUNCH")
	os.MkdirAll(filepath.Join(e.state, "panes"), 0o700)
	os.WriteFile(filepath.Join(e.state, "panes", "lanes-x%7"), []byte("pane0001 LP\n"), 0o600)
	os.MkdirAll(filepath.Join(e.state, "names"), 0o700)
	os.WriteFile(filepath.Join(e.state, "names", "api"), []byte("name0001\n"), 0o600)

	tmuxDir := filepath.Join("/tmp", "tmux-"+strconv.Itoa(os.Getuid()))
	e.vars["TMUX_PANE"] = "%7"
	e.vars["TMUX"] = filepath.Join(tmuxDir, "lanes-x") + ",4242,0"
	e.must("hook", "generic", "idle")
	if l := spoolLines(t, e.state, "pane0001"); l[0].Launch != "LP" || l[0].Event != "idle" {
		t.Fatalf("pane index fallback: %+v", l)
	}
	// The same %7 on another server is another pane: not that session's.
	e.vars["TMUX"] = filepath.Join(tmuxDir, "default") + ",4343,0"
	e.must("hook", "generic", "waiting_input")
	if l := spoolLines(t, e.state, "pane0001"); len(l) != 1 {
		t.Fatalf("a %%7 of the default server reached the lanes-x session: %+v", l)
	}
	delete(e.vars, "TMUX_PANE")
	delete(e.vars, "TMUX")
	e.must("hook", "generic", "blocked", "--session", "api")
	if l := spoolLines(t, e.state, "name0001"); l[0].Launch != "" || l[0].Event != "blocked" {
		t.Fatalf("--session: %+v", l)
	}
	e.must("hook", "generic", "active", "--session", "../../etc")
	if log, _ := os.ReadFile(filepath.Join(e.state, "hook-errors.log")); !strings.Contains(string(log), "invalid --session") {
		t.Fatalf("a hostile --session must be refused:\n%s", log)
	}
}

func TestHookCodexNotifyAndStandDown(t *testing.T) {
	e := hookEnv(t)
	e.must("hook", "codex", "notify", `{"type":"agent-turn-complete","thread-id":"t1","last-assistant-message":"secret"}`)
	l := spoolLines(t, e.state, "abcd1234")
	if len(l) != 1 || l[0].Type != "agent-turn-complete" || l[0].Event != "notify" {
		t.Fatalf("codex notify: %+v", l)
	}
	// Installed hooks stand down where lanes injected its own.
	e.vars["LANES_HOOKS_INJECTED"] = "1"
	e.stdin = `{"hook_event_name":"Stop"}`
	e.must("hook", "claude", "--installed")
	e.vars["LANES_HOOKS_INJECTED"] = ""
	e.must("hook", "claude", "--installed")
	if l := spoolLines(t, e.state, "abcd1234"); len(l) != 2 {
		t.Fatalf("stand-down: %d lines, want 2", len(l))
	}
}

// TestClaudeShapedAgentWalksTheLanes runs a script that behaves like Claude
// Code in a real tmux pane: at each step it pipes a Claude-shaped payload
// into `lanes hook claude`, then waits for the test to let it go on.
func TestClaudeShapedAgentWalksTheLanes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	gate := t.TempDir()
	steps := []string{
		`{"hook_event_name":"SessionStart","session_id":"s-1","source":"startup"}`,
		`{"hook_event_name":"UserPromptSubmit","session_id":"s-1","prompt":"fix the bug"}`,
		`{"hook_event_name":"PreToolUse","session_id":"s-1","tool_name":"Bash","tool_use_id":"toolu_01","tool_input":{"command":"make"}}`,
		`{"hook_event_name":"SessionStart","session_id":"s-1","source":"compact"}`,
		`{"hook_event_name":"PermissionRequest","session_id":"s-1","tool_name":"Bash","tool_input":{"command":"make"}}`,
		`{"hook_event_name":"PostToolUse","session_id":"s-1","tool_name":"Bash","tool_use_id":"toolu_01","tool_response":{}}`,
		`{"hook_event_name":"Stop","session_id":"s-1","stop_hook_active":false}`,
		`{"hook_event_name":"SessionEnd","session_id":"s-1","reason":"prompt_input_exit"}`,
	}
	var script strings.Builder
	for i, p := range steps {
		script.WriteString("while [ ! -e " + shellQuote(filepath.Join(gate, string(rune('a'+i)))) + " ]; do sleep 0.02; done; ")
		script.WriteString("printf '%s' " + shellQuote(p) + " | " + hookCmd("claude") + "; ")
	}
	script.WriteString("sleep 3600")
	e.must("new", "claude-like", "--", "sh", "-c", script.String())

	want := []struct {
		activity state.Activity
		status   state.Status
	}{
		{state.ActivityIdle, state.StatusIdle},
		{state.ActivityActive, state.StatusWorking},
		{state.ActivityActive, state.StatusWorking},
		{state.ActivityActive, state.StatusWorking}, // compaction mid-turn keeps it working
		{state.ActivityBlocked, state.StatusNeedsInput},
		{state.ActivityActive, state.StatusWorking}, // the asking call completed
		{state.ActivityIdle, state.StatusIdle},
		{state.ActivityExited, state.StatusExited},
	}
	for i, w := range want {
		os.WriteFile(filepath.Join(gate, string(rune('a'+i))), nil, 0o600)
		got := e.waitFor(string(w.status)+" after step "+string(rune('a'+i)), 10*time.Second, func(m map[string]listing.Session) bool {
			return m["claude-like"].EventsApplied == i+1
		})["claude-like"]
		if got.Activity != w.activity || got.Status != w.status {
			t.Fatalf("step %d (%s): %s/%s, want %s/%s", i, steps[i][:40], got.Activity, got.Status, w.activity, w.status)
		}
	}
	if got := e.ls()["claude-like"]; got.IsTerminated || got.Zone != state.ZoneNeedsYou {
		t.Fatalf("after SessionEnd: terminated=%v zone %s; an agent exit never terminates", got.IsTerminated, got.Zone)
	}
}

// unreadable is a stdin that fails the test when read.
type unreadable struct{ t *testing.T }

func (u unreadable) Read([]byte) (int, error) {
	u.t.Error("the hook read stdin although it has nowhere to write")
	return 0, io.EOF
}

// TestHookWithoutStateDirSkipsStdin: with no usable state dir (here one
// other users can write, which lanes refuses) the hook has nowhere to write,
// so it returns at once instead of waiting up to 10 s for a payload.
func TestHookWithoutStateDirSkipsStdin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	env := map[string]string{"LANES_STATE_DIR": dir, "LANES_SESSION": "abcd1234", "HOME": t.TempDir()}
	for _, args := range [][]string{{"claude"}, {"claude", "Stop"}, {"gemini", "AfterAgent"}} {
		var out, errs strings.Builder
		a := newApp(unreadable{t}, &out, &errs, func(k string) string { return env[k] })
		if code := a.main(context.Background(), append([]string{"hook"}, args...)); code != exitOK || out.Len()+errs.Len() > 0 {
			t.Errorf("hook %v: exit %d, printed %q %q; want exit 0, silent", args, code, out.String(), errs.String())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the hook wrote into the refused state dir: %v", entries)
	}
}

// A content field of a type lanes does not expect (an agent's future
// payload) is skipped; the event itself is kept.
func TestHookContentOfAnotherType(t *testing.T) {
	e := hookEnv(t)
	e.stdin = `{"hook_event_name":"Stop","last_assistant_message":{"text":"structured"},"message":7,"tool_input":"a string"}`
	if _, errs, code := e.run("hook", "claude"); code != 0 || errs != "" {
		t.Fatalf("hook: exit %d %q", code, errs)
	}
	lines := spoolLines(t, e.state, "abcd1234")
	if len(lines) != 1 || lines[0].Event != "Stop" || lines[0].Message != "" || lines[0].ToolInput != "" {
		t.Fatalf("lines %+v, want the Stop without content", lines)
	}
}
