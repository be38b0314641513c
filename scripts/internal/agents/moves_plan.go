package main

import (
	"fmt"
	"strings"
	"time"

	adapter "lanes/agent"
	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// plan: the human turns plan mode on and asks for a plan; the model
// writes it and asks to leave plan mode with it: Needs you, the plan's
// dialog up and send refused, until the human approves it through lanes
// or with Enter where lanes does not read the plan (the model goes on),
// declines it through lanes ("answer_no") or presses Esc ("escape") and
// the agent keeps planning, or lets it wait first ("wait", then Esc).
// Plan mode is turned off after.
func (c *campaign) plan(mv move) error {
	if err := c.cycleTo(true); err != nil {
		return err
	}
	var turns []m.Turn
	if c.a.writePlan != nil {
		turns = append(turns, m.Turn{m.Step{Tool: c.a.writePlan}})
	}
	asks := m.Step{Tool: c.a.exitPlan}
	if c.a.planText != "" {
		asks = m.Text(c.a.planText)
	}
	turns = append(turns, m.Turn{asks}, m.Turn{m.Text("Plan approved; done.")})
	at, err := c.send("Plan a greeting.", turns...)
	if err != nil {
		return err
	}
	asked, err := c.turnDone(at, len(turns)-1)
	if err != nil {
		return err
	}
	dialog, t := c.a.dialog, askingTruth(asked)
	if c.a.planDialog != nil {
		dialog, t.allow = c.a.planDialog, allowWitness // a question no hook reports
	}
	c.tl.add(t)
	if err := c.r.waitScreen("the plan dialog", 30*time.Second, dialog); err != nil {
		return err
	}
	c.keyGuard(mv)
	if err := c.refused("dialog"); err != nil {
		return err
	}
	then := mv.Then
	if strings.HasPrefix(then, "answer_") {
		// lanes answers a plan once the witness has read it, within its
		// allowance of the asking; before, it says to look again.
		time.Sleep(time.Until(asked.Add(allowWitness)))
	}
	if then == "wait" {
		time.Sleep(8 * time.Second) // Needs you holds
		then = "escape"
	}
	if err := c.planAnswer(then); err != nil {
		return err
	}
	return c.cycleTo(false)
}

// planAnswer answers the plan's dialog as then says and records what
// follows.
func (c *campaign) planAnswer(then string) error {
	var err error
	switch then {
	case "answer_yes":
		err = c.lanesAnswer(adapter.Yes)
	case "answer_no":
		err = c.lanesAnswer(adapter.No)
	case "enter":
		err = c.r.press("Enter")
	default:
		err = c.r.press("Escape")
	}
	if err != nil {
		return err
	}
	key := c.r.last
	if then == "answer_yes" || then == "enter" {
		c.tl.add(workingTruth(key, allowWitness, c.f))
		return c.settle(key)
	}
	return c.rejected(key)
}

// cycleTo presses the agent's mode key until its footer says plan mode
// (plan) or the mode the harness runs it in, at most once round its
// modes; a mode is no status, so the card's truth stays as it was.
func (c *campaign) cycleTo(plan bool) error {
	in := func() bool {
		screen := c.r.capture("")
		if plan || c.a.planOff == "" {
			return strings.Contains(screen, c.a.planOn) == plan
		}
		return strings.Contains(screen, c.a.planOff)
	}
	for range 6 {
		if in() {
			return nil
		}
		if err := c.r.press(c.a.modeKey); err != nil {
			return err
		}
		world.Poll(2*time.Second, 100*time.Millisecond, in) // or the next mode shows
	}
	return fmt.Errorf("%s pressed round its modes never reached plan=%v", c.a.modeKey, plan)
}
