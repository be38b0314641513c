package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/agent"
)

// An agent lanes did not start, in a plain pane of the server lanes reads,
// with hooks installed in its own config: its first hook makes an adopted
// session named after its dir, keyed by its own session id (every later
// hook finds it again; another conversation in the same dir gets a name of
// its own), with no hook error; the board reads its pane, and when the
// pane goes the session ends.
func TestAdoptAnAgentLanesDidNotStart(t *testing.T) {
	e := newEnv(t)
	out, err := e.tc.Run(context.Background(), "new-session", "-d", "-s", "mine", "-P", "-F", "#{pane_id}", "sleep", "3600")
	if err != nil {
		t.Fatal(err)
	}
	pane := strings.TrimSpace(string(out))
	e.vars["TMUX"] = filepath.Join("/tmp", "tmux-"+strconv.Itoa(os.Getuid()), e.tc.Socket) + ",1,0"
	e.vars["TMUX_PANE"] = pane
	hook := func(sid, event string) {
		e.stdin = `{"hook_event_name":"` + event + `","session_id":"` + sid + `","cwd":"/src/shop","source":"startup"}`
		e.must("hook", "claude", agent.InstalledFlag)
	}
	hook("0b7e2c1a-1111-4aaa-8bbb-123456789abc", "SessionStart")
	hook("0b7e2c1a-1111-4aaa-8bbb-123456789abc", "UserPromptSubmit")
	got := e.waitFor("the adopted session working, its pane read", 5*time.Second, func(m map[string]sessionJSON) bool {
		s := m["shop"]
		return s.Adopted && s.Status == "working" && s.PaneID == pane && s.Dir == "/src/shop"
	})
	if id := got["shop"].ID; id != state.AdoptedID("claude", "0b7e2c1a-1111-4aaa-8bbb-123456789abc") || len(got) != 1 {
		t.Fatalf("sessions %+v, want one adopted shop keyed by its session id", got)
	}
	delete(e.vars, "TMUX")
	delete(e.vars, "TMUX_PANE")
	hook("9f00aa00-2222-4ccc-8ddd-abcdefabcdef", "SessionStart") // outside tmux: hooks only
	e.waitFor("a second conversation, its own name", 5*time.Second, func(m map[string]sessionJSON) bool {
		return m["shop-2"].Adopted && m["shop-2"].PaneID == "" && m["shop-2"].Status == "idle"
	})
	if log, err := os.ReadFile(hookErrorsLog(e.state)); err == nil {
		t.Errorf("hook errors for adopted sessions:\n%s", log)
	}
	if _, err := e.tc.Run(context.Background(), "kill-pane", "-t", pane); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the adopted session ended with its pane", 10*time.Second, func(m map[string]sessionJSON) bool {
		return m["shop"].IsTerminated && !m["shop-2"].IsTerminated
	})
}
