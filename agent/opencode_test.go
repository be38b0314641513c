package agent

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/internal/testenv"
	"lanes/state"
)

// The plugin is JavaScript run by OpenCode (Bun); node runs the same module
// here against a fake lanes binary that records what it receives.
const pluginDriver = `
import { LanesPlugin } from "./lanes.mjs";
const S = "ses_main", C = "ses_child";
const hooks = await LanesPlugin({});
const ev = (type, properties) => hooks.event({ event: { type, properties } });
if (Object.keys(hooks).length === 0) process.exit(0);
await hooks["chat.message"]({ sessionID: S }, { message: {}, parts: [] });
await ev("session.status", { sessionID: S, status: { type: "busy" } });
await hooks["tool.execute.before"]({ tool: "bash", sessionID: S, callID: "call_1" }, { args: { command: "rm -rf build" } });
await ev("permission.asked", { id: "per_1", sessionID: S, permission: "bash", patterns: ["rm *"], metadata: {}, always: [], tool: { messageID: "msg_1", callID: "call_1" } });
await ev("permission.replied", { sessionID: S, requestID: "per_1", reply: "once" });
await hooks["tool.execute.after"]({ tool: "bash", sessionID: S, callID: "call_1" }, { title: "", output: "secret output", metadata: {} });
await ev("session.created", { info: { id: C, parentID: S } });
await ev("session.status", { sessionID: C, status: { type: "busy" } });
await hooks["tool.execute.before"]({ tool: "read", sessionID: C, callID: "call_2" }, { args: {} });
await ev("question.asked", { id: "que_1", sessionID: C, questions: [{ question: "Red or blue?", options: [] }], tool: { messageID: "msg_2", callID: "call_2" } });
await ev("question.replied", { sessionID: C, requestID: "que_1", answers: [] });
await ev("session.status", { sessionID: C, status: { type: "idle" } });
await ev("session.idle", { sessionID: C });
await ev("session.error", { sessionID: S, error: { name: "MessageAbortedError", data: { message: "aborted" } } });
await ev("session.status", { sessionID: S, status: { type: "idle" } });
await ev("session.idle", { sessionID: S });
await hooks["chat.message"]({ sessionID: S }, { message: {}, parts: [] });
await ev("session.status", { sessionID: S, status: { type: "retry", attempt: 1, message: "Too Many Requests", next: 0 } });
await ev("session.status", { sessionID: S, status: { type: "idle" } });
await ev("permission.updated", { id: "per_2", type: "edit", sessionID: S, messageID: "m", callID: "call_3", title: "", metadata: {}, time: { created: 0 } });
await ev("permission.replied", { sessionID: S, permissionID: "per_2", response: "reject" });
await ev("message.part.updated", { part: { text: "never forwarded" } });
await hooks["tool.execute.before"](undefined, undefined);
await ev("message.updated", { info: { id: "msg_a", role: "assistant", sessionID: S } });
await ev("message.part.updated", { part: { type: "text", text: "All done.", messageID: "msg_a", sessionID: S } });
await ev("session.idle", { sessionID: S });
await hooks["tool.execute.before"]({ tool: "write", sessionID: S, callID: "call_4" }, { args: { filePath: "a.txt", content: "x".repeat(5000) } });
await hooks["tool.execute.before"]({ tool: "task", sessionID: S, callID: "call_5" }, { args: { description: "look around", prompt: "my secret plan" } });
await ev("session.deleted", { info: { id: "ses_other" } });
await ev("session.deleted", { info: { id: S } });
`

func TestOpenCodePluginRuns(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Skip(t, "node not installed")
	}
	want := []string{
		`lanes.start`,
		`chat.message session=ses_main`,
		`session.status session=ses_main status=busy`,
		`tool.execute.before session=ses_main tool=bash call=call_1 input=rm -rf build`,
		`permission.asked session=ses_main tool=bash call=call_1 input=rm *`,
		`permission.replied session=ses_main reason=once call=call_1`,
		`tool.execute.after session=ses_main tool=bash call=call_1`,
		`subagent.start session=ses_main agent=ses_child`,
		`tool.execute.before session=ses_main tool=read call=call_2`,
		`question.asked session=ses_main call=call_2 question=Red or blue?`,
		`question.replied session=ses_main call=call_2`,
		`subagent.stop session=ses_main agent=ses_child`,
		`session.error session=ses_main reason=MessageAbortedError`,
		`chat.message session=ses_main`,
		`session.status session=ses_main status=retry reason=Too Many Requests · attempt 1`,
		`session.status session=ses_main status=idle`,
		`permission.updated session=ses_main call=call_3`,
		`permission.replied session=ses_main reason=reject call=call_3`,
		`session.idle session=ses_main message=All done.`,
		`tool.execute.before session=ses_main tool=write call=call_4 input=a.txt`,
		`tool.execute.before session=ses_main tool=task call=call_5 input=look around`,
		`session.deleted session=ses_main`,
	}
	// In the order the events came: lanes applies the spool in the order
	// its lines were written (the real OpenCode's last "busy" of a turn
	// once landed after its "idle" when the hooks ran side by side).
	t.Run("injected", func(t *testing.T) {
		if got := runPlugin(t, node, false, ""); !slices.Equal(got, want) {
			t.Fatalf("plugin sent\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	})
	t.Run("installed stands down in an injected session", func(t *testing.T) {
		if got := runPlugin(t, node, true, "1"); len(got) != 0 {
			t.Fatalf("installed plugin sent %q", got)
		}
	})
	t.Run("installed reports elsewhere", func(t *testing.T) {
		got := runPlugin(t, node, true, "")
		if len(got) != len(want) {
			t.Fatalf("installed plugin sent %d events, want %d", len(got), len(want))
		}
	})
}

// runPlugin runs the driver and returns what the fake lanes received, one
// summary per call: event and the non-empty fields.
// Node exits only once the plugin's hooks have: its queue keeps a hook's
// process running until the last one closes, so every call is in by then.
func runPlugin(t *testing.T, node string, installed bool, injected string) []string {
	t.Helper()
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	if err := os.Mkdir(calls, 0o700); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "fake lanes")
	wantArgs := "hook opencode"
	if installed {
		wantArgs += " --installed"
	}
	// One file per call, named by when the call began: concurrent calls
	// cannot interleave, and the names (Glob sorts them) give the order.
	write(t, fake, "#!/bin/sh\nf=$(mktemp '"+calls+"/'$(date +%s%N)'.XXXXXX')\n{ printf '%s\\t' \"$*\"; cat; } > \"$f.tmp\" && mv \"$f.tmp\" \"$f.json\"\n")
	if err := os.Chmod(fake, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "lanes.mjs"), string(opencodePlugin(fake, installed)))
	write(t, filepath.Join(dir, "driver.mjs"), pluginDriver)
	cmd := exec.Command(node, "driver.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), EnvInjected+"="+injected)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	done := func() []string {
		m, _ := filepath.Glob(filepath.Join(calls, "*.json"))
		return m
	}
	var out []string
	for _, f := range done() {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		line := string(b)
		args, payload, _ := strings.Cut(line, "\t")
		if args != wantArgs {
			t.Errorf("args %q, want %q", args, wantArgs)
		}
		// A tool's output, a user's text and a file's content are never sent.
		if strings.Contains(payload, "secret") || strings.Contains(payload, "never forwarded") || strings.Contains(payload, "xxxx") || strings.Contains(payload, "content") {
			t.Errorf("payload leaks content: %s", payload)
		}
		var p map[string]json.RawMessage
		if err := json.Unmarshal([]byte(payload), &p); err != nil {
			t.Fatalf("payload %q: %v", payload, err)
		}
		str := func(k string) string {
			var v string
			_ = json.Unmarshal(p[k], &v)
			return v
		}
		s := str("hook_event_name")
		for _, f := range []struct{ label, v string }{
			{"session", str("session_id")}, {"status", str("status")}, {"reason", str("reason")},
			{"tool", str("tool_name")}, {"call", str("tool_use_id")}, {"agent", str("agent_id")},
			{"input", state.ToolSummary(p["tool_input"])}, {"question", state.AskQuestion(p["tool_input"])},
			{"message", str("last_assistant_message")},
		} {
			if f.v != "" {
				s += " " + f.label + "=" + f.v
			}
		}
		out = append(out, s)
	}
	return out
}
