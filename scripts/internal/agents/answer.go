package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	adapter "lanes/agent"
	m "lanes/scripts/internal/modelserver"
	"lanes/state"
)

// The answer scenarios drive the permission dialog as approve and reject
// do, but answer it with `lanes answer NAME yes|no|always`: the agent's
// keys from its adapter (agent), sent only while lanes reads the
// same dialog (docs/design.md §15). --quick runs Claude's answer_yes
// (about 15 s): the adapter's keys meet a real agent in CI.
func init() {
	scenarios = append(scenarios,
		scenario{name: "answer_yes", quick: true, quickOnly: "claude", asks: true, turns: answerTurns, drive: answerRuns(adapter.Yes)},
		scenario{name: "answer_no", asks: true, turns: rejectTurns, drive: answerNo},
		scenario{name: "answer_always", asks: true, turns: answerTurns, drive: answerRuns(adapter.Always)},
		scenario{name: "answer_moved", asks: true, turns: rejectTurns, drive: answerMoved})
}

// answerMoved: where Enter takes the option highlighted, a person moved
// the highlight in the pane first (the seventh hostile re-run's Right);
// `lanes answer no` still denies, and the command never ran.
func answerMoved(r *run) error {
	if !adapter.StyledDialog(state.Agent(r.a.name)) {
		return cannot("%s's keys pick an option outright: there is no highlight to move", r.a.name)
	}
	if err := asked(r); err != nil {
		return err
	}
	if err := r.press("Right"); err != nil {
		return err
	}
	time.Sleep(500 * time.Millisecond) // a redraw
	r.capture("moved")
	if err := r.answer(adapter.No, "denied"); err != nil {
		return err
	}
	if err := r.witnessed("answered no → idle", witnessDeadline, idle); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(r.w.Root, "proj", "asked.txt")); err == nil {
		return fmt.Errorf("the command ran: %s was made", "asked.txt")
	}
	return afterwards(r)
}

func answerTurns(a agent, q bool) ([]m.Turn, string) {
	call := a.asks(fmt.Sprintf("sleep %d", toolRun(a, q)))
	return append([]m.Turn{{m.Step{Tool: &call}}}, texts...), ""
}

func rejectTurns(a agent, _ bool) ([]m.Turn, string) {
	call := a.asks("sleep 30")
	return append([]m.Turn{{m.Step{Tool: &call}}}, texts...), ""
}

// answer runs `lanes answer` and requires it to say what it answered.
func (r *run) answer(ans adapter.Answer, says string) error {
	r.act()
	res := r.w.Lanes("", "answer", r.name, string(ans))
	if res.Code != 0 {
		return fmt.Errorf("lanes answer %s %s: exit %d: %s (card: %s)", r.name, ans, res.Code, strings.TrimSpace(res.Stderr), r.card())
	}
	if !strings.HasPrefix(res.Stdout, says+" ") {
		return fmt.Errorf("lanes answer %s %s said %q, want it to start %q", r.name, ans, res.Stdout, says)
	}
	r.notes = append(r.notes, strings.TrimSpace(res.Stdout))
	return nil
}

// answerRuns: the tool runs once answered yes (or always), as it does
// after approve's key.
func answerRuns(ans adapter.Answer) func(r *run) error {
	return func(r *run) error {
		if _, err := adapter.KeysFor(state.Agent(r.a.name), ans); errors.Is(err, adapter.ErrNoAlways) {
			return cannot("%s's dialog offers no \"always allow\"", r.a.name)
		}
		if err := asked(r); err != nil {
			return err
		}
		says := map[adapter.Answer]string{adapter.Yes: "approved", adapter.Always: "always allowed"}[ans]
		if err := r.answer(ans, says); err != nil {
			return err
		}
		return r.toolRuns("answered " + string(ans))
	}
}

// answerNo: the tool is refused and the prompt is free, as after reject's
// key; a second answer finds the dialog gone and sends nothing.
func answerNo(r *run) error {
	if err := asked(r); err != nil {
		return err
	}
	if err := r.answer(adapter.No, "denied"); err != nil {
		return err
	}
	if err := r.witnessed("answered no → idle", witnessDeadline, idle); err != nil {
		return err
	}
	r.capture("rejected")
	if res := r.w.Lanes("", "answer", r.name, "yes"); res.Code == 0 {
		return fmt.Errorf("lanes answer yes after the dialog closed: exit 0 (%s), want a refusal", strings.TrimSpace(res.Stdout))
	}
	return afterwards(r)
}
