package main

import (
	"fmt"
	"strings"
	"time"

	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// The campaign's moves around background work, menus, and the agent's end.

// background: a job runs past its turn; meanwhile the human waits, runs a
// turn of their own, or has one fail; then the agent's automatic turn
// reports the job's end. A failure nobody saw stays through it.
func (c *campaign) background(mv move) error {
	at, err := c.send("Run the job in the background.", m.Turn{m.Step{Tool: c.a.background(mv.Secs)}},
		m.Turn{m.Text("Started it in the background.")}, m.Turn{m.Text("The background job finished.")})
	if err != nil {
		return err
	}
	started, err := c.firstDone(at, turnDeadline)
	if err != nil {
		return err
	}
	jobEnd := started.Add(time.Duration(mv.Secs) * time.Second)
	end, err := c.quiet(at, turnDeadline)
	if err != nil {
		return err
	}
	c.f.bg = true
	c.tl.add(idleTruth(end, allowHook, c.f))
	switch mv.Then {
	case "text":
		err = c.turn("Say done.", m.Turn{m.Text("Done.")}, m.Turn{m.Text("The background job finished.")})
	case "error":
		err = c.fails()
	}
	if err != nil {
		return err
	}
	if time.Now().After(jobEnd.Add(-3 * time.Second)) {
		return fmt.Errorf("the job of %ds ended before the move's turns did: a longer job is needed", mv.Secs)
	}
	// Its end is the agent's to notice: nothing is judged from a little
	// before it until the automatic turn asks the model.
	c.tl.add(flux(jobEnd.Add(-3*time.Second), "the background job ending"))
	c.f.bg = false
	auto, err := c.nextMain(c.lastDone(), time.Duration(mv.Secs)*time.Second+turnDeadline)
	if err != nil {
		return err
	}
	c.tl.add(workingTruth(auto, allowHook, c.f))
	return c.settle(auto)
}

// nextMain is when the first main request after t came, waiting for it.
func (c *campaign) nextMain(t time.Time, deadline time.Duration) (time.Time, error) {
	var at time.Time
	ok := world.Poll(deadline, 200*time.Millisecond, func() bool {
		for _, e := range c.r.srv.Log(c.r.key) {
			if (e.Kind == "main" || e.Kind == "unscripted") && e.Time.After(t) {
				at = e.Time
				return true
			}
		}
		return false
	})
	if !ok {
		return at, fmt.Errorf("the agent started no turn of its own within %s", deadline)
	}
	return at, nil
}

// lastDone is when the latest answer so far ended.
func (c *campaign) lastDone() time.Time {
	var t time.Time
	for _, e := range c.r.srv.Log(c.r.key) {
		if e.Done.After(t) {
			t = e.Done
		}
	}
	return t
}

// menu: a slash command's menu opened by keys in the pane; send refuses
// while it shows, Esc closes it.
func (c *campaign) menu(command string, mv move) error {
	if err := c.r.typeText(command); err != nil {
		return err
	}
	c.tl.add(menuTruth(c.r.last))
	time.Sleep(allowWitness + time.Duration(mv.WaitMS)*time.Millisecond)
	if err := c.refused("menu"); err != nil {
		return err
	}
	if err := c.r.press("Escape"); err != nil {
		return err
	}
	c.tl.add(idleTruth(c.r.last, allowWitness, c.f))
	if err := c.r.waitReady(30 * time.Second); err != nil {
		return err
	}
	time.Sleep(allowWitness)
	return nil
}

// clear: a new conversation, typed in the pane; no turn runs.
func (c *campaign) clear() error {
	if err := c.r.typeText(c.a.clear); err != nil {
		return err
	}
	c.f = facts{}
	c.tl.add(truth{from: c.r.last, what: "idle (a new conversation)", allow: allowHook, ok: func(s world.Session) bool {
		return s.Status == "idle" && !hasMark(s, "menu") && !hasMark(s, "retrying")
	}})
	if err := c.r.waitReady(30 * time.Second); err != nil {
		return err
	}
	time.Sleep(allowHook)
	return nil
}

// end: the agent goes: /exit, kill -9 of its process tree, or its tmux
// session killed under it. send must refuse after.
func (c *campaign) end(kind string) error {
	switch kind {
	case "exit":
		// docs/design.md §5: a clean exit closes the session only after
		// ≥ 10 s of life.
		time.Sleep(time.Until(c.r.started.Add(11 * time.Second)))
		if err := c.r.typeText(c.a.exit); err != nil {
			return err
		}
		c.tl.add(flux(c.r.last, "the agent exiting"))
		if !world.Poll(30*time.Second, 100*time.Millisecond, c.paneGone) {
			return fmt.Errorf("%s: the agent did not exit within 30s", c.a.exit)
		}
		c.tl.add(goneTruth(time.Now(), "clean"))
	case "kill9":
		pid, err := c.r.panePID()
		if err != nil {
			return err
		}
		c.r.act()
		killTree(pid)
		c.tl.add(goneTruth(c.r.last, "SIGKILL"))
	case "tmuxkill":
		c.r.act()
		if out, err := c.r.w.Tmux(c.r.w.Socket, "kill-session", "-t", "=lanes-"+c.r.name); err != nil {
			return fmt.Errorf("tmux kill-session: %v %s", err, out)
		}
		c.tl.add(goneTruth(c.r.last, "any"))
	}
	c.alive = false
	c.f = facts{}
	time.Sleep(allowExit)
	if code, msg := c.r.send("Are you there?"); code == 0 {
		return violated("lanes send to a gone agent was taken (%s)", msg)
	}
	return nil
}

// paneGone: the agent's pane is dead or gone.
func (c *campaign) paneGone() bool {
	out, err := c.r.w.Tmux(c.r.w.Socket, "display-message", "-p", "-t", c.r.pane, "#{pane_dead}")
	return err != nil || strings.TrimSpace(out) == "1"
}

// restart brings a gone agent back: restart where its tmux session stays
// (a dead pane), restore where it went, and after a clean exit (nothing
// to restore) rm and new, as lanes restore's refusal says.
func (c *campaign) restart() error {
	cmds := [][]string{{"restore", c.r.name}}
	if _, err := c.r.w.Tmux(c.r.w.Socket, "has-session", "-t", "=lanes-"+c.r.name); err == nil {
		cmds = [][]string{{"restart", c.r.name}}
	} else if s := c.r.latest(); s.TerminatedReason != nil && strings.Contains(*s.TerminatedReason, "clean") {
		cmds = [][]string{{"rm", c.r.name}, c.r.newArgs}
	}
	c.r.act()
	c.tl.add(flux(c.r.last, "starting again"))
	for _, cmd := range cmds {
		if res := c.r.w.Lanes("", cmd...); res.Code != 0 {
			return fmt.Errorf("lanes %s: exit %d: %s", cmd[0], res.Code, res.Stderr)
		}
	}
	out, err := c.r.w.Tmux(c.r.w.Socket, "list-panes", "-s", "-t", "=lanes-"+c.r.name, "-F", "#{pane_id}")
	if err != nil {
		return fmt.Errorf("finding the agent's pane: %v %s", err, out)
	}
	c.r.pane, c.r.started = strings.TrimSpace(out), time.Now()
	if err := c.r.waitReady(120 * time.Second); err != nil {
		return err
	}
	c.alive, c.f = true, facts{}
	c.tl.add(idleTruth(time.Now(), allowHook, c.f))
	time.Sleep(allowHook)
	return c.assign()
}
