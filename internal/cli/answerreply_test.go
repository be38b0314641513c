package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// OpenCode's Enter takes the option drawn highlighted, and a person may
// move it in the instant between lanes' last look and its Enter (the
// eleventh hostile re-run: a Left, and yes rejected). Nothing undoes that,
// but the answer says what OpenCode took, from its own permission.replied,
// and never "approved". The stand-in shows the recorded real dialog with
// its highlight on Allow once and, on the Enter, reports "reject" through
// lanes' hook, as the plugin does.
func TestAnswerSaysTheOptionOpenCodeTook(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, reply, want string
		again             bool
		ok                bool
	}{
		{"reject", "reject", `api's dialog took "Reject", not "Allow once"`, false, false},
		{"once", "once", "approved bash: touch four.txt in api", false, true},
		// The next call, the same command, asks at once: its dialog shows
		// again, and the answer still took (the twelfth re-run: "did not
		// take" said of a yes that ran, 20 of 110).
		{"once, asked again", "once", "approved bash: touch four.txt in api", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			fakeOpenCode(t, e, "api", c.reply, c.again)
			waitPane(t, e.tc, "lanes-api", "Permission required")
			e.now = func() time.Time { return time.Now().Add(-5 * time.Second) } // past its key guard
			e.stdin = `{"hook_event_name":"permission.asked","session_id":"ses_abcdefghij12","tool_use_id":"call_1",` +
				`"tool_name":"bash","tool_input":{"pattern":"touch four.txt","command":"touch four.txt"}}`
			e.must("hook", "opencode", "--session", "api")
			e.stdin, e.now = "", nil
			out, errs, code := e.run("answer", "api", "yes")
			if (code == 0) != c.ok || !strings.Contains(out+errs, c.want) {
				t.Fatalf("answer: exit %d\n%s%s\nwant %q", code, out, errs, c.want)
			}
			if c.ok {
				return
			}
			r := e.record("api")
			trs, err := e.app().svc().History(context.Background(), r.ID, 10)
			if err != nil {
				t.Fatal(err)
			}
			if last := trs[len(trs)-1]; !strings.Contains(last.Detail, "but its dialog took Reject") {
				t.Errorf("last transition %+v, want what the dialog took", last)
			}
		})
	}
}

// fakeOpenCode starts session name running a stand-in OpenCode: it shows
// the recorded real dialog (styled, Allow once highlighted), takes one
// key, reports reply through `lanes hook opencode` as the plugin would,
// and clears its dialog (again: leaves it, as the next call of the same
// command draws it, with no frame between).
func fakeOpenCode(t *testing.T, e *env, name, reply string, again bool) {
	t.Helper()
	dir := t.TempDir()
	screen, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real", "opencode", "highlight", "dialog-once.screen"))
	if err != nil {
		t.Fatal(err)
	}
	after := "clear; echo '$ touch four.txt'"
	if again {
		after = ":" // the next dialog is drawn where this one was, the same
	}
	payload := `{"hook_event_name":"permission.replied","session_id":"ses_abcdefghij12","tool_use_id":"call_1","reason":"` + reply + `"}`
	script := "#!/bin/sh\nclear; printf '%s' \"$(cat " + shellQuote(screen) + ")\"\nstty raw -echo; dd bs=1 count=1 of=/dev/null 2>/dev/null\n" +
		"printf '%s' " + shellQuote(payload) + " | LANES_STATE_DIR=" + shellQuote(e.state) + " " + shellQuote(lanesBin) + " hook opencode --session " + name + "\n" +
		after + "; exec sleep 60\n"
	writeExec(t, filepath.Join(dir, "opencode"), script)
	e.newAs(name, state.AgentOpenCode, filepath.Join(dir, "opencode"))
}
