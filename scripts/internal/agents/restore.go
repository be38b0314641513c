package main

import (
	"fmt"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// The restore scenario (docs/design.md §13): one turn, then a reboot —
// the world's tmux server killed with every agent process — and a new
// server; `lanes restore` must start the agent again resuming its
// conversation, so the model's next request carries the earlier prompt and
// answer.
func init() {
	scenarios = append(scenarios, scenario{name: "restore", turns: allTexts, drive: func(r *run) error { return restoreRuns(r, false) }},
		// clear_resume (issue 32, item 6): a conversation cleared with the
		// agent's own command, then a turn in the new one; the restore
		// resumes the new one, not the one cleared.
		scenario{name: "clear_resume", turns: allTexts, drive: func(r *run) error { return restoreRuns(r, true) }})
}

const restoreWord, clearedWord = "PINEAPPLE-42", "BLUEBERRY-7"

func restoreRuns(r *run, clear bool) error {
	first := restoreWord
	if clear {
		first = clearedWord
	}
	if err := r.prompt("Remember " + first + "."); err != nil {
		return err
	}
	if err := r.waitTurns(1, turnDeadline); err != nil {
		return err
	}
	if err := idleAfter(r, "first turn"); err != nil {
		return err
	}
	if clear {
		if err := clearThenTurn(r); err != nil {
			return err
		}
	}
	r.killAgents()
	_, _ = r.w.Tmux(r.w.Socket, "kill-server")
	// The old server may take a moment to let go of its socket.
	if !world.Poll(10*time.Second, 200*time.Millisecond, func() bool { return r.w.StartServer() == nil }) {
		return fmt.Errorf("starting the tmux server again after the reboot failed")
	}
	if out, err := r.w.Tmux(r.w.Socket, "set-option", "-g", "default-size", "120x40"); err != nil {
		return fmt.Errorf("sizing the new tmux server: %v %s", err, out)
	}
	res := r.w.Lanes("", "restore", r.name)
	said := strings.TrimSpace(res.Stdout)
	if res.Code != 0 || !strings.Contains(said, "resumed "+r.a.name+" conversation") {
		return fmt.Errorf("lanes restore %s: exit %d: %s %s", r.name, res.Code, said, strings.TrimSpace(res.Stderr))
	}
	r.notes = append(r.notes, said)
	out, err := r.w.Tmux(r.w.Socket, "list-panes", "-s", "-t", "=lanes-"+r.name, "-F", "#{pane_id}")
	if err != nil {
		return fmt.Errorf("finding the restored agent's pane: %v %s", err, out)
	}
	r.pane = strings.TrimSpace(out)
	if err := r.waitReady(120 * time.Second); err != nil {
		return err
	}
	if s := r.capture("restored"); !strings.Contains(s, restoreWord) {
		r.notes = append(r.notes, "the restored screen does not show the earlier prompt")
	}
	before := r.turnsServed()
	if err := r.prompt("What was the word?"); err != nil {
		return err
	}
	if err := r.waitTurns(before+1, turnDeadline); err != nil {
		return err
	}
	var body string
	for _, e := range r.srv.Log(r.key) {
		if e.Kind == "main" {
			body = string(e.Body)
		}
	}
	if !strings.Contains(body, restoreWord) || !strings.Contains(body, "Done") || !strings.Contains(body, "What was the word?") {
		return fmt.Errorf("the first request after the restore does not carry the earlier prompt %q and answer: the conversation was not resumed", restoreWord)
	}
	if clear && strings.Contains(body, clearedWord) {
		return fmt.Errorf("the first request after the restore carries %q, said before %s: the restore resumed the conversation cleared", clearedWord, r.a.clear)
	}
	return idleAfter(r, "the turn after the restore")
}

// clearThenTurn clears the conversation with the agent's own command and
// has a turn in the new one, remembering restoreWord.
func clearThenTurn(r *run) error {
	if err := r.waitReady(30 * time.Second); err != nil {
		return err
	}
	if err := r.prompt(r.a.clear); err != nil {
		return err
	}
	if err := r.waitReady(30 * time.Second); err != nil {
		return err
	}
	before := r.turnsServed()
	if err := r.prompt("Remember " + restoreWord + "."); err != nil {
		return err
	}
	if err := r.waitTurns(before+1, turnDeadline); err != nil {
		return err
	}
	return idleAfter(r, "the first turn after "+r.a.clear)
}
