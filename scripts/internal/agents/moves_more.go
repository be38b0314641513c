package main

import (
	"fmt"
	"slices"
	"time"

	m "lanes/scripts/internal/modelserver"
)

// The campaign's moves with a question or a subagent.

// question: the model asks the human a question; they read it and pick the
// first option with Enter; the model goes on with the answer.
func (c *campaign) question(mv move) error {
	if err := c.asked(mv, "Ask me which colour.", m.Turn{m.Step{Tool: c.a.question}}, "the question", []string{"Which colour"}); err != nil {
		return err
	}
	if err := c.r.press("Enter"); err != nil {
		return err
	}
	key := c.r.last
	c.tl.add(flux(key, "the answer reaching the model"))
	return c.settle(key)
}

// bgAgent: the model starts a subagent in the background (approved first
// where its tool asks); the parent's turn ends at once (idle with
// background work), the subagent runs Secs, and the agent's automatic turn
// reports its end.
func (c *campaign) bgAgent(mv move) error {
	match := "tool_result"
	if c.a.bgMatch != "" {
		match = c.a.bgMatch
	}
	at, err := c.send("Start a background agent.", m.Turn{m.Step{Tool: c.a.bgAgent}},
		m.Turn{m.Matching(match), m.Text("It runs in the background.")},
		m.Turn{m.Pause(time.Duration(mv.Secs) * time.Second), m.Text("Subagent done.")},
		m.Turn{m.Text("The agent finished.")})
	if err != nil {
		return err
	}
	if c.a.subAsks {
		// Its subagent tool asks first (Qwen Code in its default mode:
		// "Always allow use agent …"); the human approves.
		asked, err := c.firstDone(at, turnDeadline)
		if err != nil {
			return err
		}
		c.tl.add(askingTruth(asked))
		if err := c.r.waitScreen("the subagent's dialog", 30*time.Second, c.a.dialog); err != nil {
			return err
		}
		if err := c.r.press(c.a.approve); err != nil {
			return err
		}
		c.tl.add(workingTruth(c.r.last, allowWitness, c.f))
	}
	parent, err := c.turnDone(at, 2)
	if err != nil {
		return err
	}
	c.f.bg = true
	c.tl.add(idleTruth(parent, allowHook, c.f))
	sub, err := c.turnDone(at, 3)
	if err != nil {
		return err
	}
	c.f.bg = false
	c.tl.add(flux(sub, "the subagent ending"))
	auto, err := c.nextMain(sub, turnDeadline)
	if err != nil {
		return err
	}
	c.tl.add(workingTruth(auto, allowHook, c.f))
	return c.settle(auto)
}

// turnDone is when the answer that served scripted turn n (1-based) after
// at ended, waiting for it.
func (c *campaign) turnDone(at time.Time, n int) (time.Time, error) {
	return c.answerEnd(fmt.Sprintf("the model's turn %d", n), 2*turnDeadline, func(es []m.Entry) (m.Entry, bool) {
		return at0(es, slices.IndexFunc(es, func(e m.Entry) bool { return e.Kind == "main" && e.Turn == n && !e.Time.Before(at) }))
	})
}
