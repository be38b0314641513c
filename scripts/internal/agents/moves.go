package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	adapter "lanes/agent"
	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
	"lanes/state"
)

// move is one human action of a campaign, with what the model does for
// it: data, so a case replays it.
type move struct {
	Kind   string `json:"kind"`              // text, slow, tool, ask, question, background, bgagent, error, retry, limit, plan, menu, picker, clear, exit, kill9, tmuxkill, restart
	Then   string `json:"then,omitempty"`    // what the human does next (per kind)
	Secs   int    `json:"secs,omitempty"`    // how long its stream, tool or job runs; for a retry, how many retries fail
	WaitMS int    `json:"wait_ms,omitempty"` // the human's pause before Then
}

func (mv move) String() string {
	s := mv.Kind
	if mv.Then != "" {
		s += "/" + mv.Then
	}
	if mv.Secs > 0 {
		s += fmt.Sprintf(" %ds", mv.Secs)
	}
	if mv.WaitMS > 0 {
		s += fmt.Sprintf(" +%.1fs", float64(mv.WaitMS)/1000)
	}
	return s
}

// weighted is one choice of the generator.
type weighted struct {
	w    int
	kind string
	then []string
	secs [2]int // a range; zero: none
}

// choices are the moves the agent can take now.
func (c *campaign) choices() []weighted {
	if !c.alive {
		return []weighted{{1, "restart", nil, [2]int{}}}
	}
	ws := []weighted{
		{3, "text", nil, [2]int{}},
		{3, "slow", []string{"end", "interrupt", "interrupt", "type", "kill9"}, [2]int{6, 20}},
		{2, "tool", nil, [2]int{}},
		{1, "error", nil, [2]int{}},
		{1, "exit", nil, [2]int{}},
		{1, "kill9", nil, [2]int{}},
		{1, "tmuxkill", nil, [2]int{}},
	}
	if c.a.asks != nil { // pi asks nothing before a call
		then := []string{"approve", "reject", "answer_yes", "answer_no", "wait"}
		if _, err := adapter.KeysFor(state.Agent(c.a.name), adapter.Always); err == nil {
			then = append(then, "answer_always")
		}
		ws = slices.Insert(ws, 3, weighted{5, "ask", then, [2]int{1, 6}}) // where seeds drew it before
	}
	if c.a.menu != "" {
		ws = append(ws, weighted{1, "menu", nil, [2]int{}})
	}
	if c.a.clear != "" {
		ws = append(ws, weighted{1, "clear", nil, [2]int{}})
	}
	if c.a.question != nil {
		ws = append(ws, weighted{1, "question", nil, [2]int{}})
	}
	if c.a.bgAgent != nil {
		ws = append(ws, weighted{1, "bgagent", nil, [2]int{8, 20}})
	}
	if c.a.planOn != "" {
		then := []string{"enter", "escape", "wait"} // a plan lanes does not read is the human's to answer
		if reading, _ := state.ReadingOf(state.Agent(c.a.name)); reading.Plan != nil {
			then = []string{"answer_yes", "answer_no", "escape", "wait"}
		}
		ws = append(ws, weighted{1, "plan", then, [2]int{}})
	}
	if c.a.limits {
		ws = append(ws, weighted{1, "limit", nil, [2]int{}})
	}
	if c.a.retries > 0 {
		ws = append(ws, weighted{1, "retry", []string{"recover", "giveup"}, [2]int{1, c.a.retries - 1}})
	}
	if c.a.picker != "" {
		ws = append(ws, weighted{1, "picker", nil, [2]int{}})
	}
	if c.a.background != nil && !c.a.bgQuiet && !c.a.bgAsks {
		ws = append(ws, weighted{2, "background", []string{"wait", "text", "error"}, [2]int{18, 28}})
	}
	return ws
}

// next draws the next move.
func (c *campaign) next() move {
	ws := c.choices()
	total := 0
	for _, w := range ws {
		total += w.w
	}
	n := c.rng.IntN(total)
	var w weighted
	for _, w = range ws {
		if n -= w.w; n < 0 {
			break
		}
	}
	mv := move{Kind: w.kind, WaitMS: c.rng.IntN(3000)}
	if len(w.then) > 0 {
		mv.Then = w.then[c.rng.IntN(len(w.then))]
	}
	if w.secs[1] > 0 {
		mv.Secs = w.secs[0] + c.rng.IntN(w.secs[1]-w.secs[0]+1)
	}
	return mv
}

// play carries out mv and records what was true while it ran.
func (c *campaign) play(mv move) error {
	switch mv.Kind {
	case "text":
		return c.turn("Say done.", m.Turn{m.Text("Done.")})
	case "tool":
		return c.turn("List the files.", m.Turn{m.Step{Tool: &c.a.quiet}})
	case "slow":
		return c.slow(mv)
	case "ask":
		return c.ask(mv)
	case "error":
		return c.fails()
	case "background":
		return c.background(mv)
	case "menu":
		return c.menu(c.a.menu, mv)
	case "picker":
		return c.menu(c.a.picker, mv)
	case "question":
		return c.question(mv)
	case "bgagent":
		return c.bgAgent(mv)
	case "retry":
		return c.retry(mv)
	case "plan":
		return c.plan(mv)
	case "limit":
		return c.limit(mv)
	case "clear":
		return c.clear()
	case "exit", "kill9", "tmuxkill":
		return c.end(mv.Kind)
	case "restart":
		return c.restart()
	}
	return fmt.Errorf("unknown move %q", mv.Kind)
}

// send is the human's prompt through lanes send: it is their act, so what
// they had not seen is seen now. The card must go working.
func (c *campaign) send(text string, turns ...m.Turn) (time.Time, error) {
	if err := c.assign(turns...); err != nil {
		return time.Time{}, err
	}
	c.f.failed, c.f.interrupted = false, false
	at := time.Now()
	c.tl.add(workingTruth(at, allowHook, c.f))
	return at, c.r.prompt(text)
}

// turn: a prompt whose turn runs to its end.
func (c *campaign) turn(text string, turns ...m.Turn) error {
	at, err := c.send(text, turns...)
	if err != nil {
		return err
	}
	return c.settle(at)
}

// settle waits for the agent to finish with the model after at (every
// answer over, none for a while, its prompt back) and records idle from
// the last answer's end.
func (c *campaign) settle(at time.Time) error {
	end, err := c.quiet(at, turnDeadline)
	if err != nil {
		return err
	}
	c.tl.add(idleTruth(end, allowHook, c.f))
	return nil
}

// quiet waits until a main request since at has been answered, the
// agent asked nothing more for 2 s, and its prompt shows; it returns
// when the last answer ended.
func (c *campaign) quiet(at time.Time, deadline time.Duration) (time.Time, error) {
	var last time.Time
	busy := lanesMarkers(state.Agent(c.a.name)).Busy
	ok := world.Poll(deadline, 250*time.Millisecond, func() bool {
		last = time.Time{}
		for _, e := range c.r.srv.Log(c.r.key) {
			if (e.Kind != "main" && e.Kind != "retry" && e.Kind != "unscripted") || e.Time.Before(at) {
				continue
			}
			if e.Done.IsZero() {
				return false
			}
			if e.Done.After(last) {
				last = e.Done
			}
		}
		if last.IsZero() || time.Since(last) < 2*time.Second {
			return false
		}
		screen := c.r.capture("")
		return hasAny(screen, c.a.ready) && !hasAny(screen, busy)
	})
	if !ok {
		return last, fmt.Errorf("the agent's turn did not end within %s (card: %s)", deadline, c.r.card())
	}
	return last, nil
}

// firstDone is when the first answer since at ended, once it has.
func (c *campaign) firstDone(at time.Time, deadline time.Duration) (time.Time, error) {
	return c.answerEnd("the first answer since the prompt", deadline, func(es []m.Entry) (m.Entry, bool) {
		i := slices.IndexFunc(es, func(e m.Entry) bool { return !e.Time.Before(at) })
		return at0(es, i)
	})
}

// answerEnd waits until the answer pick chooses among the model's answers
// so far (main and retry requests, oldest first) has ended, and returns
// when it did.
func (c *campaign) answerEnd(what string, deadline time.Duration, pick func([]m.Entry) (m.Entry, bool)) (time.Time, error) {
	var done time.Time
	ok := world.Poll(deadline, 100*time.Millisecond, func() bool {
		es := slices.DeleteFunc(c.r.srv.Log(c.r.key), func(e m.Entry) bool { return e.Kind != "main" && e.Kind != "retry" })
		e, ok := pick(es)
		done = e.Done
		return ok && !done.IsZero()
	})
	if !ok {
		return done, fmt.Errorf("%s: the model was not asked, or did not finish, within %s", what, deadline)
	}
	return done, nil
}

// at0 is es[i], if i is an index of es.
func at0(es []m.Entry, i int) (m.Entry, bool) {
	if i < 0 || i >= len(es) {
		return m.Entry{}, false
	}
	return es[i], true
}

// refused checks lanes send refuses now (a dialog or menu shows), naming
// why.
func (c *campaign) refused(why string) error {
	card := c.r.card()
	code, msg := c.r.send("Hello?")
	if code == 0 {
		return violated("lanes send was taken while %s shows (card before: %s)", why, card)
	}
	if !strings.Contains(msg, why) {
		return violated("lanes send refused with %q, which does not name the %s (card before: %s)", msg, why, card)
	}
	return nil
}

// keyGuard is a person reading a dialog before a key.
func (c *campaign) keyGuard(mv move) {
	time.Sleep(adapter.KeyGuard(state.Agent(c.a.name)) + time.Duration(mv.WaitMS)*time.Millisecond)
}
