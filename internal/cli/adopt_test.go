package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/agent"
	"lanes/internal/listing"
	"lanes/state"
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
	got := e.waitFor("the adopted session working, its pane read", 5*time.Second, func(m map[string]listing.Session) bool {
		s := m["shop"]
		return s.Adopted && s.Status == "working" && s.PaneID == pane && s.Dir == "/src/shop"
	})
	if id := got["shop"].ID; id != state.AdoptedID("claude", "0b7e2c1a-1111-4aaa-8bbb-123456789abc") || len(got) != 1 {
		t.Fatalf("sessions %+v, want one adopted shop keyed by its session id", got)
	}
	delete(e.vars, "TMUX")
	delete(e.vars, "TMUX_PANE")
	hook("9f00aa00-2222-4ccc-8ddd-abcdefabcdef", "SessionStart") // outside tmux: hooks only
	e.waitFor("a second conversation, its own name", 5*time.Second, func(m map[string]listing.Session) bool {
		return m["shop-2"].Adopted && m["shop-2"].PaneID == "" && m["shop-2"].Status == "idle"
	})
	if log, err := os.ReadFile(hookErrorsLog(e.state)); err == nil {
		t.Errorf("hook errors for adopted sessions:\n%s", log)
	}
	// Never killed nor restarted by lanes: the tmux session is the user's.
	for _, cmd := range []string{"kill", "restart"} {
		if _, errs, code := e.run(cmd, "shop"); code == exitOK || !strings.Contains(errs, "lanes did not start shop") {
			t.Errorf("lanes %s shop: exit %d, %q", cmd, code, errs)
		}
	}
	if out, _ := e.tc.Run(context.Background(), "list-panes", "-t", pane); len(out) == 0 {
		t.Fatal("the adopted pane is gone after a refused kill")
	}
	for _, cmd := range [][]string{{"attach", "shop-2"}, {"send", "shop-2", "hello"}} {
		if _, errs, code := e.run(cmd...); code == exitOK || !strings.Contains(errs, "runs in no tmux pane") {
			t.Errorf("lanes %v: exit %d, %q", cmd, code, errs)
		}
	}
	// rm forgets shop-2 for good: its next hook makes nothing.
	e.must("rm", "shop-2", "--yes")
	hook("9f00aa00-2222-4ccc-8ddd-abcdefabcdef", "UserPromptSubmit")
	if _, ok := e.ls()["shop-2"]; ok {
		t.Error("shop-2 came back after lanes rm")
	}
	if _, err := e.tc.Run(context.Background(), "kill-pane", "-t", pane); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the adopted session ended with its pane", 10*time.Second, func(m map[string]listing.Session) bool {
		return m["shop"].IsTerminated
	})
}
