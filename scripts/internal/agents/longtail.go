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

// The long tail (issue 32): work that outlives a turn, turns no human
// started.

func init() { scenarios = append(scenarios, longTail...) }

// bgJob is how long a background job or subagent runs.
const bgJob = 20

// background: the card says the work goes on, and the agent's own turn
// reporting its end leaves the card plain idle.
func background(s world.Session) bool {
	return idle(s) && slices.Contains(s.Marks, "background")
}

var longTail = []scenario{
	{name: "background_shell", quick: true, quickOnly: "claude",
		turns: func(a agent, _ bool) ([]m.Turn, string) {
			if a.background == nil {
				return nil, a.name + " has no background shell a model can start here"
			}
			return append([]m.Turn{{m.Step{Tool: a.background(bgJob)}}, {m.Text("Started it in the background.")},
				{m.Text("The background job finished.")}}, texts...), ""
		},
		drive: func(r *run) error {
			return backgroundWalk(r, "Run the job in the background.", r.a.bgAsks, func(s world.Session) bool { return s.Background.Jobs == 1 })
		}},
	{name: "background_agent",
		turns: func(a agent, _ bool) ([]m.Turn, string) {
			if a.bgAgent == nil {
				return nil, a.name + " has no background subagent a model can start here"
			}
			// The parent (its request holds the tool's result) ends its
			// turn at once, the subagent runs bgJob seconds: they ask side
			// by side, in either order.
			match := "tool_result"
			if a.bgMatch != "" {
				match = a.bgMatch
			}
			return append([]m.Turn{{m.Step{Tool: a.bgAgent}}, {m.Matching(match), m.Text("It runs in the background.")},
				{m.Pause(bgJob * time.Second), m.Text("Subagent done.")}, {m.Text("The agent finished.")}}, texts...), ""
		},
		drive: func(r *run) error {
			return backgroundWalk(r, "Start a background agent.", r.a.subAsks, func(s world.Session) bool { return s.Background.Agents == 1 })
		}},
}

// approveAsked: a call that asks first (what) has the card say Needs you
// and its dialog drawn; the human approves it.
func approveAsked(r *run, what string) error {
	if _, err := r.expect(what+" asks → needs_input", turnDeadline, needs); err != nil {
		return err
	}
	if err := r.waitScreen("its dialog", 30*time.Second, r.a.dialog); err != nil {
		return err
	}
	return r.press(r.a.approve)
}

// backgroundWalk: the prompt's turn ends with work in the background (the
// card idle, marked, counting it: counts), then the agent's automatic turn
// reports its end, and the card is plain idle. asks: the call asks first.
func backgroundWalk(r *run, prompt string, asks bool, counts func(world.Session) bool) error {
	if err := r.prompt(prompt); err != nil {
		return err
	}
	if asks {
		if err := approveAsked(r, "the call"); err != nil {
			return err
		}
	}
	if _, err := r.settled("turn over, work goes on → idle + background", turnDeadline, func(s world.Session) bool {
		return background(s) && counts(s)
	}); err != nil {
		return err
	}
	r.captureReady("idle-background")
	if err := r.hold("idle + background while it runs", bgJob*time.Second/4, background); err != nil {
		return err
	}
	r.act()
	// The agent's automatic turn reports the end (hook events counted);
	// for one whose work ends quietly, only its screen says so.
	wait, what := r.settled, "work done, automatic turn over → idle"
	if r.a.bgQuiet {
		wait, what = r.expect, "work done, its screen says none → idle"
	}
	if _, err := wait(what, bgJob*time.Second+turnDeadline, func(s world.Session) bool {
		return idle(s) && len(s.Marks) == 0 && (s.Automatic || r.a.bgQuiet)
	}); err != nil {
		return err
	}
	r.capture("done")
	if s := r.latest(); s.Background.Jobs+s.Background.Agents != 0 {
		return fmt.Errorf("after the automatic turn ls --json says background %+v, want none", s.Background)
	}
	return afterwards(r)
}

func init() { scenarios = append(scenarios, planApproval) }

// planApproval: in plan mode the model asks to leave it with a plan; the
// card says Needs you for as long as the dialog shows.
var planApproval = scenario{name: "plan_approval", plan: true,
	turns: func(a agent, _ bool) ([]m.Turn, string) {
		if a.plan == nil {
			return nil, a.name + " has no plan mode lanes knows"
		}
		asks := m.Step{Tool: a.exitPlan}
		if a.planText != "" {
			asks = m.Text(a.planText)
		}
		turns := []m.Turn{{asks}, {m.Text("Plan approved; done.")}}
		if a.writePlan != nil {
			turns = append([]m.Turn{{m.Step{Tool: a.writePlan}}}, turns...)
		}
		return append(turns, texts...), ""
	},
	drive: func(r *run) error {
		if r.a.planCommand != "" {
			if err := r.prompt(r.a.planCommand); err != nil {
				return err
			}
			r.capture("plan-mode")
		}
		if err := r.prompt("Plan a greeting."); err != nil {
			return err
		}
		if _, err := r.expect("plan asked → needs_input", turnDeadline, needs); err != nil {
			return err
		}
		// (A plan question no hook reports is a halt of lanes' markers.)
		dialog, step := r.a.dialog, "dialog"
		if r.a.planDialog != nil {
			dialog, step = r.a.planDialog, "halt"
		}
		if err := r.waitScreen("the plan dialog", 30*time.Second, dialog); err != nil {
			return err
		}
		r.capture(step)
		if err := r.hold("needs_input while the plan dialog shows", 8*time.Second, needs); err != nil {
			return err
		}
		if reading, _ := state.ReadingOf(state.Agent(r.a.name)); reading.Plan != nil {
			// The card shows the plan's first line, and lanes answers it.
			if _, err := r.expect("the card shows the plan", witnessDeadline, func(s world.Session) bool {
				return s.Tool != nil && s.Tool.Input == "Greeting"
			}); err != nil {
				return err
			}
			if err := r.answer(adapter.Yes, "approved"); err != nil {
				return err
			}
		} else if err := r.press("Enter"); err != nil {
			return err
		}
		return idleAfter(r, "plan approved")
	}}

func init() { scenarios = append(scenarios, retry) }

// retry: the API answers 429 and the agent retries by itself, with no
// hook, then gives up; the card keeps Working while it retries and says
// so (a look every WitnessRetryEvery once no hook spoke for a while), then
// Needs you + Failed with the reason.
var retry = scenario{name: "retry", env: []string{retryEnv},
	turns: func(a agent, _ bool) ([]m.Turn, string) {
		switch a.name {
		case "codex":
			// Tried with 0.171.0 (request_max_retries 4): a 429 is given
			// up at once ("■ exceeded retry limit, last status: 429"),
			// a 503 retried with nothing on its screen but "Working
			// (28s)" and no hook: no retry to read (api_error covers
			// its failure).
			return nil, "Codex retries with no word on its screen and no hook"
		case "gemini":
			// Tried with 0.61.0 (general.maxAttempts 3): a 429 retried
			// six times in 28 s under "Thinking... (esc to cancel, 29s)"
			// alone, no hook, then "✕ [API Error: …]".
			return nil, "Gemini CLI retries with no word on its screen and no hook"
		case "qwen":
			// Tried with 0.24.4: a 429 retried sixteen times in 22 s
			// under its spinner alone ("(21s · esc to cancel)"), no hook.
			return nil, "Qwen Code retries with no word on its screen and no hook"
		}
		return append([]m.Turn{{m.Fail(429)}}, texts...), ""
	},
	drive: func(r *run) error {
		if err := r.prompt("Hello."); err != nil {
			return err
		}
		if _, err := r.expect("retrying → working + retrying", 30*time.Second, func(s world.Session) bool {
			return working(s) && slices.Contains(s.Marks, "retrying")
		}); err != nil {
			return err
		}
		r.capture("retrying")
		_, err := r.expect("given up → idle+failed, rate limited", turnDeadline, func(s world.Session) bool {
			return is("idle", "failed")(s) && s.Failure != nil && *s.Failure == "rate limited"
		})
		return err
	}}

func init() { scenarios = append(scenarios, usageLimit) }

// usageLimit: the account's usage limit is reached (a 429 the agents do
// not retry). Codex says so and when it resets: idle+failed, "usage
// limit, resets 10:04 PM". Gemini CLI asks in a box, no hook firing,
// whether to keep trying: Needs you, the box's line the question, until
// the human picks Stop.
var usageLimit = scenario{name: "usage_limit",
	turns: func(a agent, _ bool) ([]m.Turn, string) {
		switch a.name {
		case "claude":
			// Tried with 2.1.332: its limit screen ("You've hit your
			// limit · resets 7pm") is for subscription accounts; with an
			// API key the same 429 says "API Error: Request rejected
			// (429)" and StopFailure rate_limit (retry covers it).
			return nil, "Claude Code says a usage limit to subscription accounts only, not to an API key"
		case "opencode":
			// Tried with 1.18.33: insufficient_quota is retried five
			// times like any 429, then session.error (retry covers it).
			return nil, "OpenCode has no usage limit of its own for a custom provider"
		case "pi":
			// Tried with 0.73.1: a quota 429 is retried three times like
			// any 429, then the run ends failed (retry covers it).
			return nil, "pi has no usage limit of its own: a quota 429 is retried as any 429"
		}
		return append([]m.Turn{{m.UsageLimit(90 * time.Minute)}}, texts...), ""
	},
	drive: func(r *run) error {
		if err := r.prompt("Hello."); err != nil {
			return err
		}
		switch r.a.name {
		case "gemini":
			return geminiLimit(r)
		case "qwen":
			return qwenLimit(r)
		}
		_, err := r.expect("usage limit → idle+failed, usage limit, resets", turnDeadline, func(s world.Session) bool {
			return is("idle", "failed")(s) && s.Failure != nil && strings.HasPrefix(*s.Failure, "usage limit, resets ")
		})
		r.capture("limited")
		return err
	}}

// geminiLimit: its usage-limit box is a question; Stop (Down, Enter)
// ends the turn.
func geminiLimit(r *run) error {
	if _, err := r.expect("usage limit box → needs_input, its line the question", turnDeadline, func(s world.Session) bool {
		return needs(s) && s.Question != nil && strings.HasPrefix(*s.Question, "Usage limit reached for")
	}); err != nil {
		return err
	}
	r.capture("halt")
	if err := r.press("Down"); err != nil {
		return err
	}
	if err := r.waitScreen("Stop picked", 10*time.Second, []string{"● 2. Stop"}); err != nil {
		return err
	}
	if err := r.press("Enter"); err != nil {
		return err
	}
	_, err := r.expect("Stop → idle+failed, usage limit", turnDeadline, func(s world.Session) bool {
		return is("idle", "failed")(s) && s.Failure != nil && *s.Failure == "usage limit"
	})
	r.capture("stopped")
	return err
}
