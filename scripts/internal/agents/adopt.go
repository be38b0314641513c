package main

import (
	"fmt"
	"strings"
	"time"

	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// The adopt scenario (docs/design.md §13): an agent the user starts
// himself in a plain tmux pane, with lanes' hooks installed in its own
// config (`lanes hooks install`). Its first hook makes an adopted session
// named after its dir; lanes reads its pane, sends to it, and its card
// walks as any session's.
func init() {
	scenarios = append(scenarios, scenario{name: "adopt", adopt: true,
		turns: func(a agent, _ bool) ([]m.Turn, string) {
			if a.name != "claude" {
				return nil, "run for Claude Code only: the others' installed hooks are the same path"
			}
			return append([]m.Turn{{m.Step{Tool: &a.quiet}}}, texts...), ""
		},
		drive: adoptRuns})
}

// startOutside is setUp's start for adopt: hooks installed, the agent run
// by hand in a tmux session that is not lanes'.
func (r *run) startOutside(h *home) error {
	if res := r.w.Lanes("", "hooks", "install", r.a.name); res.Code != 0 {
		return fmt.Errorf("lanes hooks install %s: exit %d: %s", r.a.name, res.Code, res.Stderr)
	}
	args := append([]string{"new-session", "-d", "-s", "mine", "-c", h.proj, "-P", "-F", "#{pane_id}", "--", r.a.name}, r.a.args...)
	out, err := r.w.Tmux(r.w.Socket, args...)
	if err != nil {
		return fmt.Errorf("starting %s by hand: %v %s", r.a.name, err, out)
	}
	r.pane = strings.TrimSpace(out)
	return nil
}

func adoptRuns(r *run) error {
	if _, err := r.expect("adopted from its first hook", 30*time.Second, func(s world.Session) bool {
		return s.Adopted && s.PaneID == r.pane && idle(s)
	}); err != nil {
		return err
	}
	if err := r.prompt("List the files."); err != nil { // lanes send, to its pane
		return err
	}
	if err := r.waitTurns(2, turnDeadline); err != nil {
		return err
	}
	if err := idleAfter(r, "tool ran"); err != nil {
		return err
	}
	if log := r.w.Lanes("", "doctor"); !strings.Contains(log.Stdout, "ok  no hook errors") {
		return fmt.Errorf("doctor reports hook errors for an adopted session:\n%s", log.Stdout)
	}
	return nil
}
