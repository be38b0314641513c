package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	adapter "lanes/agent"
	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// The campaign's moves that take more than one act.

// slow: a slowly streamed answer of about Secs seconds, then the stream's
// end, an interrupt, a prompt typed while it streams (queued by the
// agent, whose answer streams slowly too: the card must not go idle
// between the two), or kill -9. The key goes WaitMS into the stream (Claude Code
// shows a slow stream's words only at its end, so the model server, not
// the screen, says it streams); a stream over before the key is a turn
// that ended by itself.
func (c *campaign) slow(mv move) error {
	words := strings.Repeat("Thinking about it slowly. ", max(1, mv.Secs/2))
	at, err := c.send("Tell me a long story.", m.Turn{m.SlowText(words, 500*time.Millisecond)},
		m.Turn{m.SlowText("And here is one more slow thought for you.", 500*time.Millisecond)})
	if err != nil {
		return err
	}
	if _, err := c.nextMain(at, turnDeadline); err != nil {
		return err
	}
	time.Sleep(time.Duration(mv.WaitMS) * time.Millisecond)
	switch mv.Then {
	case "interrupt":
		if err := c.r.press(c.a.interrupt); err != nil {
			return err
		}
		key := c.r.last
		if err := c.r.waitReady(30 * time.Second); err != nil {
			return err
		}
		if done, err := c.lastMainDone(at); err == nil && done.Before(key) {
			return c.settle(at) // it had ended: the key came after
		}
		c.f.interrupted = true
		c.tl.add(idleTruth(key, allowWitness, c.f))
		if c.a.restores {
			// Its input holds the prompt again: send refuses, and the
			// human clears it.
			if err := c.refused("input"); err != nil {
				return err
			}
			return c.r.press("C-u")
		}
		return nil
	case "type":
		// The agent takes it after the stream (or into it): the work
		// goes on until the model has answered everything.
		if err := c.r.typeText("And one more thing."); err != nil {
			return err
		}
	case "kill9":
		return c.end("kill9")
	}
	return c.settle(at)
}

// ask: a tool that asks first; the human approves, rejects, answers with
// lanes answer, or lets it wait. While it asks, send must refuse.
func (c *campaign) ask(mv move) error {
	cmd, err := c.askCommand(mv.Secs)
	if err != nil {
		return err
	}
	call := c.a.asks(cmd)
	if err := c.asked(mv, "Run the command.", m.Turn{m.Step{Tool: &call}}, "the permission dialog", c.a.dialog); err != nil {
		return err
	}
	if mv.Then == "wait" {
		time.Sleep(8 * time.Second) // Needs you holds
		mv.Then = "reject"
	}
	yes := true
	switch mv.Then {
	case "approve":
		err = c.r.press(c.a.approve)
	case "reject":
		err, yes = c.r.press(c.a.reject), false
	case "answer_yes":
		err = c.lanesAnswer(adapter.Yes)
	case "answer_always":
		err = c.lanesAnswer(adapter.Always)
	case "answer_no":
		err, yes = c.lanesAnswer(adapter.No), false
	}
	if err != nil {
		return err
	}
	key := c.r.last
	if yes {
		c.tl.add(workingTruth(key, allowWitness, c.f))
		return c.settle(key)
	}
	return c.rejected(key)
}

// askCommand is a command of its own for each ask move, a script the move
// writes that sleeps secs: an "always" answered before covers the command
// it was for (Codex: commands that start with it; Qwen Code: "CMD *" in
// this project), so another must still ask (a 60-minute Codex campaign
// ran "sleep 2" unasked after an always for it).
func (c *campaign) askCommand(secs int) (string, error) {
	c.asks++
	name := fmt.Sprintf("ask-%d", c.asks)
	script := []byte("#!/bin/sh\n# scripts/agents: an asked command of its own\nexec sleep \"$1\"\n")
	if err := os.WriteFile(filepath.Join(c.r.w.Root, "proj", name), script, 0o700); err != nil {
		return "", err
	}
	return fmt.Sprintf("./%s %d", name, secs), nil
}

// asked sends prompt, whose turn asks the human (a permission, a
// question), records the asking from when the model's call ended, waits
// for the agent to draw it (markers), reads it as a person would, and
// checks send refuses meanwhile.
func (c *campaign) asked(mv move, prompt string, turn m.Turn, what string, markers []string) error {
	at, err := c.send(prompt, turn, m.Turn{m.Text("Red it is.")})
	if err != nil {
		return err
	}
	asked, err := c.firstDone(at, turnDeadline)
	if err != nil {
		return err
	}
	c.tl.add(askingTruth(asked))
	if err := c.r.waitScreen(what, 30*time.Second, markers); err != nil {
		return err
	}
	c.keyGuard(mv)
	return c.refused("dialog")
}

// lanesAnswer answers the dialog through lanes, which must take it.
func (c *campaign) lanesAnswer(ans adapter.Answer) error {
	c.r.act()
	res := c.r.w.Lanes("", "answer", c.r.name, string(ans))
	if res.Code != 0 {
		return violated("lanes answer %s refused the dialog the agent shows: exit %d: %s", ans, res.Code, strings.TrimSpace(res.Stderr))
	}
	c.f.failed, c.f.interrupted = false, false
	return nil
}

// rejected: after a no, the agent either stops (idle, maybe marked
// interrupted) or tells its model and goes on; the model server says
// which.
func (c *campaign) rejected(key time.Time) error {
	if err := c.r.waitReady(30 * time.Second); err != nil {
		return err
	}
	time.Sleep(2 * time.Second)
	asked := false
	for _, e := range c.r.srv.Log(c.r.key) {
		asked = asked || (e.Kind == "main" || e.Kind == "retry") && !e.Time.Before(key)
	}
	if !asked {
		c.tl.add(truth{from: key, what: "idle (rejected)", allow: allowWitness, ok: func(s world.Session) bool {
			return s.Status == "idle" && !hasMark(s, "menu") && !hasMark(s, "retrying")
		}})
		return nil
	}
	c.tl.add(flux(key, "the rejection told to the model"))
	return c.settle(key)
}

// fails: the model's API fails the turn and the agent gives up: Needs you
// with failed, until the human acts.
func (c *campaign) fails() error {
	code, retries := c.failCode()
	if retries > 0 {
		return c.refusals(code, 0, retries)
	}
	at, err := c.send("Hello.", m.Turn{m.Fail(code)})
	if err != nil {
		return err
	}
	return c.failed(at)
}

// failCode is the error the model's API fails a turn with, and how often
// the agent retries it first.
func (c *campaign) failCode() (code, retries int) {
	switch c.a.name {
	case "claude":
		// It retries all but a 400, whose retry it sends changed (a new
		// request to the model server, which would answer it); a 529
		// only a few times ("Repeated 529 Overloaded errors").
		return 529, 2
	case "codex":
		return 500, 0
	}
	return 400, 0 // the others retry server errors for minutes
}

// failed records the failure from when the model refused the request
// made after at, and waits for the prompt.
func (c *campaign) failed(at time.Time) error {
	done, err := c.lastMainDone(at)
	if err != nil {
		return err
	}
	c.f.failed = true
	c.tl.add(idleTruth(done, allowHook, c.f))
	return c.r.waitReady(30 * time.Second)
}

// lastMainDone is when the newest answer asked for after at ended, once it
// has. (The newest of all may be an earlier move's: an interrupted stream
// ends when the server sees it dropped. A 60-minute Gemini CLI campaign
// took such an end, before the new request came, for a refused turn's, and
// judged the card idle+failed "3.1 s after the truth became working".)
func (c *campaign) lastMainDone(at time.Time) (time.Time, error) {
	return c.answerEnd("the newest answer", turnDeadline, func(es []m.Entry) (m.Entry, bool) {
		es = slices.DeleteFunc(es, func(e m.Entry) bool { return !e.Time.After(at) })
		return at0(es, len(es)-1)
	})
}
