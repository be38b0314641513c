package main

import (
	"fmt"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// answer_remote: the agent runs on host1 — this world behind a private
// sshd on 127.0.0.1 (CI's ssh rig) — and a board elsewhere, another
// lanes with its own store and a hosts file naming host1, answers its
// permission dialog: space selects the card that needs you, y approves
// it over ssh, and the tool runs there. --quick runs Claude's (issue 33:
// a real dialog on the other host answered from the board).
func init() {
	scenarios = append(scenarios,
		scenario{name: "answer_remote", quick: true, quickOnly: "claude", asks: true, turns: answerTurns, drive: answerRemote})
}

func answerRemote(r *run) error {
	elsewhere, err := r.w.AsHost()
	if err != nil {
		return fmt.Errorf("host1 behind a private sshd: %w", err)
	}
	defer elsewhere.Close()
	if err := asked(r); err != nil {
		return err
	}
	view := r.w.Socket + "-elsewhere-board"
	if err := r.w.StartBoard(view, 120, 40, elsewhere.Env...); err != nil {
		return err
	}
	defer r.w.Tmux(view, "kill-server")
	board := func(what string, cond func(string) bool) error {
		if !world.Poll(30*time.Second, 100*time.Millisecond, func() bool { return cond(r.w.Screen(view)) }) {
			return fmt.Errorf("the board elsewhere never showed %s:\n%s", what, r.w.Screen(view))
		}
		return nil
	}
	if err := board(r.name+"@host1 in Needs you", func(s string) bool {
		return strings.Contains(s, "1 needs you") && strings.Contains(s, "@host1")
	}); err != nil {
		return err
	}
	r.w.Tmux(view, "send-keys", "Space")
	if err := board("its card selected", func(s string) bool { return strings.Contains(s, "y allow") || strings.Contains(s, "y yes") }); err != nil {
		return err
	}
	r.screens["board elsewhere"] = r.w.Screen(view)
	r.act()
	r.w.Tmux(view, "send-keys", "y")
	if err := r.toolRuns("y on the board elsewhere"); err != nil {
		return fmt.Errorf("%w; the board elsewhere:\n%s", err, r.w.Screen(view))
	}
	r.notes = append(r.notes, "answered from a board on another host over ssh")
	return afterwards(r)
}
