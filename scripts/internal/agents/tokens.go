package main

import (
	"fmt"
	"time"

	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// tokensRun is issue 36's walk: two prompts, each a turn that says a word
// and calls a quiet tool, then one of text. Each of the four answers
// reports its own token counts (the model server's turnUsage), so the
// agent's own records show whether it writes one message on several lines
// (a text block and a tool call), and whether its numbers are per message,
// per prompt or for the session; with --keep the world keeps the server's
// log (modellog.json) to check them against (testdata/real/usage).
var tokensRun = scenario{name: "tokens", quick: true,
	turns: func(a agent, _ bool) ([]m.Turn, string) {
		return []m.Turn{
			{m.Text("Looking first."), m.Step{Tool: &a.quiet}}, {m.Text("Done.")},
			{m.Text("Looking again."), m.Step{Tool: &a.quiet}}, {m.Text("Done again.")},
		}, ""
	},
	drive: func(r *run) error {
		for i, text := range []string{"List the files.", "List them again."} {
			if err := r.prompt(text); err != nil {
				return err
			}
			if err := r.waitTurns(2*(i+1), turnDeadline); err != nil {
				return err
			}
			if err := idleAfter(r, "prompt's turns"); err != nil {
				return err
			}
		}
		r.captureIdle()
		return r.usageServed()
	}}

// usageServed waits until the card says exactly the usage the model
// server served the session's turns (issue 36): the agent's own records,
// read by lanes, against the server's log. Side requests (titles, Codex's
// request without tools) are in no agent's record. Codex's card shows its
// limit windows and its context's share of the window; pi's the cost pi
// computed from its model's prices (pi.go: 1, 2, 0.5, 1.25 USD per million).
func (r *run) usageServed() error {
	var want world.Usage
	for _, e := range r.srv.Log(r.key) {
		if u := e.Usage; e.Kind == "main" && u != nil {
			want.Input, want.Output = want.Input+int64(u.Input), want.Output+int64(u.Output)
			want.CacheRead, want.CacheWrite = want.CacheRead+int64(u.CacheRead), want.CacheWrite+int64(u.CacheWrite)
			want.Context = int64(u.Input + u.CacheRead + u.CacheWrite + u.Output)
		}
	}
	if r.a.name == "pi" {
		want.CostMicros = want.Input + 2*want.Output + want.CacheRead/2 + want.CacheWrite*5/4
	}
	var got *world.Usage
	ok := world.Poll(10*time.Second, 250*time.Millisecond, func() bool {
		got = r.latest().Usage
		return got != nil && got.Input == want.Input && got.Output == want.Output && got.CacheRead == want.CacheRead &&
			got.CacheWrite == want.CacheWrite && got.CostMicros == want.CostMicros && got.Context == want.Context
	})
	switch {
	case !ok:
		return fmt.Errorf("the card's usage is %+v, the model server served %+v", got, want)
	case r.a.name == "codex" && (len(got.Limits) != 2 || got.ContextWindow == nil):
		return fmt.Errorf("the Codex card shows limit windows %+v and context window %v, want both windows and its model's", got.Limits, got.ContextWindow)
	}
	return nil
}

func init() { scenarios = append(scenarios, tokensRun) }
