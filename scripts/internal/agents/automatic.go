package main

import (
	"fmt"
	"slices"
	"time"

	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

func init() { scenarios = append(scenarios, automaticTurn) }

// autoJob is how long automatic_turn's background job runs: long enough
// for the human's next turn to fail first.
const autoJob = 12

// automaticTurn: a background job runs past its turn, the human's next
// turn fails (Needs you + failed), and then the agent's own turn
// reporting the job's end runs: the card says Working and automatic, and
// the failure nobody saw stays on it, through the automatic turn's end,
// until the human acts (issue 32, item 2).
var automaticTurn = scenario{name: "automatic_turn",
	turns: func(a agent, _ bool) ([]m.Turn, string) {
		switch {
		case a.background == nil:
			return nil, a.name + " has no background shell a model can start here (its background subagent's own turn is walked in background_agent)"
		case a.bgQuiet:
			return nil, a.name + "'s background work ends with no turn of its own"
		}
		code := 400
		if a.name == "claude" {
			code = 529 // told not to retry (api_error)
		}
		return append([]m.Turn{{m.Step{Tool: a.background(autoJob)}}, {m.Text("Started it in the background.")},
			{m.Fail(code)}, {m.Text("The background job finished.")}}, texts...), ""
	},
	drive: func(r *run) error {
		if err := r.prompt("Run the job in the background."); err != nil {
			return err
		}
		if r.a.bgAsks {
			if err := approveAsked(r, "the job"); err != nil {
				return err
			}
		}
		if _, err := r.settled("turn over, work goes on → idle + background", turnDeadline, background); err != nil {
			return err
		}
		if err := humanTurnFails(r); err != nil {
			return err
		}
		r.capture("failed")
		if _, err := r.expect("the job's end → its automatic turn, the failure kept", autoJob*time.Second+turnDeadline,
			func(s world.Session) bool { return s.Automatic && failedUnseen(s) }); err != nil {
			return err
		}
		if _, err := r.settled("automatic turn over → idle, the failure still unseen", turnDeadline, func(s world.Session) bool {
			return idle(s) && failedUnseen(s) && s.Background.Jobs == 0
		}); err != nil {
			return err
		}
		r.capture("unseen")
		return afterwards(r)
	}}

func init() { scenarios = append(scenarios, cronTurn) }

// cronTurn: the model schedules a prompt (Claude Code's CronCreate, fired
// at the next minute), the human's next turn fails, and the scheduled
// prompt's turn runs by itself: the failure nobody saw stays on the card.
var cronTurn = scenario{name: "cron_turn",
	turns: func(a agent, _ bool) ([]m.Turn, string) {
		if a.cron == nil {
			return nil, a.name + " has no scheduled prompt a model can set here"
		}
		return append([]m.Turn{{m.Step{Tool: a.cron}}, {m.Text("Scheduled it.")},
			{m.Fail(529)}, {m.Text("Checked the build.")}}, texts...), ""
	},
	drive: func(r *run) error {
		if err := r.prompt("Schedule a check."); err != nil {
			return err
		}
		if err := idleAfter(r, "scheduled"); err != nil {
			return err
		}
		if err := humanTurnFails(r); err != nil {
			return err
		}
		if err := r.waitTurns(4, 150*time.Second); err != nil {
			return fmt.Errorf("the scheduled prompt: %w", err)
		}
		if _, err := r.settled("its turn over → idle, the failure still unseen", turnDeadline, func(s world.Session) bool {
			return idle(s) && failedUnseen(s) && s.Automatic
		}); err != nil {
			return err
		}
		r.capture("unseen")
		return afterwards(r)
	}}

// failedUnseen: the card says the last turn failed, in Needs you.
func failedUnseen(s world.Session) bool {
	return slices.Contains(s.Marks, "failed") && s.Zone == "needs_you"
}

// humanTurnFails: at the prompt again, the human's next turn fails.
func humanTurnFails(r *run) error {
	if err := r.waitReady(30 * time.Second); err != nil {
		return err
	}
	if err := r.prompt("Hello."); err != nil {
		return err
	}
	_, err := r.expect("API error → failed (Needs you)", turnDeadline, failedUnseen)
	return err
}
