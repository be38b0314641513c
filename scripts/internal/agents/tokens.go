package main

import (
	m "lanes/scripts/internal/modelserver"
)

// tokensRun is issue 36's walk: two prompts, each a turn that says a word
// and calls a quiet tool, then one of text. Each of the four answers
// reports its own token counts (the model server's turnUsage), so the
// agent's own records show whether it writes one message on several lines
// (a text block and a tool call), and whether its numbers are per message,
// per prompt or for the session; with --keep the world keeps the server's
// log (modellog.json) to check them against (testdata/real/usage).
var tokensRun = scenario{name: "tokens",
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
		return nil
	}}

func init() { scenarios = append(scenarios, tokensRun) }
