package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"lanes/tmux"
)

// lanes next walks the sessions that need their human in the board's
// urgency order, past the one whose pane it runs in: a key bound to it in
// tmux goes from one to the next, and says when none is left.
func TestNextWalksWhatNeedsYou(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, n := range []string{"a", "b", "c"} {
		e.must("new", n, "--", "sh", "-c", "sleep 600")
	}
	e.must("hook", "generic", "blocked", "--session", "a")
	e.must("hook", "generic", "waiting_input", "--session", "b")
	e.must("hook", "generic", "waiting_input", "--session", "c")
	var ls []struct{ Name, Zone string }
	if err := json.Unmarshal([]byte(e.must("ls", "--json")), &ls); err != nil {
		t.Fatal(err)
	}
	var order []string // what needs you, most urgent first
	for _, s := range ls {
		if s.Zone == "needs_you" {
			order = append(order, s.Name)
		}
	}
	if len(order) != 3 {
		t.Fatalf("needs you: %v, want a, b and c", order)
	}
	next := func() string {
		t.Helper()
		out := e.must("next")
		name, rest, _ := strings.Cut(strings.TrimSuffix(out, "\n"), "\t")
		if !strings.Contains(rest, "Needs input") {
			t.Errorf("lanes next said %q: no status", out)
		}
		return name
	}
	if got := next(); got != order[0] {
		t.Fatalf("outside tmux: %s, want the most urgent, %s", got, order[0])
	}
	pane := func(name string) string {
		out, err := e.tc.Run(context.Background(), "list-panes", "-s", "-t", "=lanes-"+name, "-F", "#{pane_id}")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	e.vars["TMUX"] = filepath.Clean(tmux.SocketFile(e.tc.Socket)) + ",4242,0"
	for i, at := range order {
		e.vars["TMUX_PANE"] = pane(at)
		if got, want := next(), order[(i+1)%len(order)]; got != want {
			t.Fatalf("in %s's pane: %s, want the one after it, %s", at, got, want)
		}
	}
	e.vars["TMUX_PANE"] = pane(order[0])
	e.must("hook", "generic", "idle", "--session", order[1])
	e.must("hook", "generic", "idle", "--session", order[2])
	if _, errs, code := e.run("next"); code != exitError || !strings.Contains(errs, "nothing else needs you") {
		t.Fatalf("only the pane it runs in needs you: exit %d %q, want 1, nothing else", code, errs)
	}
}
