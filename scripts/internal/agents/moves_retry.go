package main

import (
	"fmt"
	"slices"
	"time"

	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// retryEnv lets Claude Code retry a 429 (the harness turns its retries
// off elsewhere, so a scripted error ends the turn at once).
const retryEnv = "CLAUDE_CODE_MAX_RETRIES=6"

// retry: the API answers the prompt 429 and the agent retries by itself,
// with no hook; the API comes back after Secs of the retries (Then
// "recover"), or never ("giveup") and the agent gives the turn up: Needs
// you + Failed. The card says Working all along, and says retrying once
// the retries have gone on past allowRetry.
func (c *campaign) retry(mv move) error {
	failing := 0
	if mv.Then == "recover" {
		failing = mv.Secs
	}
	return c.refusals(429, failing, c.a.retries)
}

// refusals: the API answers code to the prompt and to the first failing
// of the agent's retries (0: all of them); see retry.
func (c *campaign) refusals(code, failing, retries int) error {
	at, err := c.send("Ask the flaky API.", m.Turn{m.FailThenRecover(code, failing)}, m.Turn{m.Text("It came back.")})
	if err != nil {
		return err
	}
	first, end, err := c.retried(at, failing, retries)
	if err != nil {
		return err
	}
	if err := c.retryShown(first, end); err != nil {
		return err
	}
	if failing > 0 {
		return c.settle(at)
	}
	c.f.failed = true
	c.tl.add(idleTruth(end, allowHook, c.f))
	return c.r.waitReady(30 * time.Second)
}

// retried waits for the retries to be over and returns when the first
// refusal ended and when the retrying did: the recovered answer's start,
// or the end of the last refusal the agent takes before it gives up.
func (c *campaign) retried(at time.Time, failing, retries int) (first, end time.Time, err error) {
	want := 1 + retries // the request and every retry
	if failing > 0 {
		want = 1 + failing + 1 // and the answer that came back
	}
	var es []m.Entry
	ok := world.Poll(2*turnDeadline, 250*time.Millisecond, func() bool {
		es = slices.DeleteFunc(c.r.srv.Log(c.r.key), func(e m.Entry) bool {
			return e.Kind != "main" && e.Kind != "retry" || e.Time.Before(at)
		})
		return len(es) >= want && !es[want-2].Done.IsZero() && (failing > 0 || !es[want-1].Done.IsZero())
	})
	if !ok {
		return first, end, fmt.Errorf("the agent made %d of the %d requests %d retries take, within %s", len(es), want, retries, 2*turnDeadline)
	}
	first, end = es[0].Done, es[want-1].Done
	if failing > 0 {
		end = es[want-1].Time
	}
	return first, end, nil
}

// retryShown: retries that went on past allowRetry were said on the card
// at least once after it (the agents draw a retry between attempts, not
// during one, so no single sample must show it).
func (c *campaign) retryShown(first, end time.Time) error {
	from := first.Add(allowRetry)
	if end.Sub(from) < 4*sampleEvery {
		return nil
	}
	for _, s := range c.r.snapshot() {
		if s.ok && !s.at.Before(from) && s.at.Before(end) && hasMark(s.s, "retrying") {
			return nil
		}
	}
	return violated("the card never said retrying in the %.0fs the agent retried after the first %s", end.Sub(first).Seconds(), allowRetry)
}

// limit: the account's usage limit is reached (a 429 no agent retries):
// the turn fails saying when the limit resets (idle + failed), or, for an
// agent that asks in a box whether to keep trying, Needs you until the
// human picks Stop (then idle + failed). Both are read by the witness.
func (c *campaign) limit(mv move) error {
	at, err := c.send("Hello.", m.Turn{m.UsageLimit(90 * time.Minute)})
	if err != nil {
		return err
	}
	done, err := c.firstDone(at, turnDeadline)
	if err != nil {
		return err
	}
	from := done
	if c.a.limitBox != nil {
		t := askingTruth(done)
		t.allow = allowWitness
		c.tl.add(t)
		if err := c.r.waitScreen("the usage limit box", 30*time.Second, c.a.limitBox); err != nil {
			return err
		}
		c.keyGuard(mv)
		if err := c.refused("dialog"); err != nil {
			return err
		}
		if err := c.r.press("Down"); err != nil {
			return err
		}
		if err := c.r.waitScreen("Stop picked", 10*time.Second, []string{c.a.limitStop}); err != nil {
			return err
		}
		if err := c.r.press("Enter"); err != nil {
			return err
		}
		from = c.r.last
	}
	c.f.failed = true
	c.tl.add(idleTruth(from, allowWitness, c.f))
	return c.r.waitReady(30 * time.Second)
}
