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

// scenario is one thing a human does with an agent, and the card walk the
// design (DESIGN §4, §5, §8, §11) says lanes must show for it.
type scenario struct {
	name  string
	quick bool // part of --quick
	// quickOnly, when set, limits the scenario's --quick run to this agent.
	quickOnly string
	// worktree: the project is a git repository and the session starts
	// in a worktree of its own (lanes new --worktree).
	worktree bool
	// untrusted: the session starts in a folder the agent's config does
	// not trust, and setUp does not wait for its prompt.
	untrusted bool
	// adopt: the agent is started by hand in a plain tmux pane, with
	// lanes' hooks installed in its config, not by lanes new.
	adopt bool
	// mode: the agent starts with its mode args (agent.mode); plan: with
	// its plan mode's (agent.plan).
	mode, plan bool
	// asks: the walk answers a dialog, which an agent that asks nothing
	// before a call (agent.asks nil) never shows: CANNOT.
	asks bool
	// env is added to the agent's environment (after its own: it wins).
	env []string
	// turns is the model's script for this agent; nil with a reason when
	// the agent lacks the feature.
	turns func(a agent, q bool) ([]m.Turn, string)
	drive func(r *run) error
}

// Deadlines are generous: real agents on a loaded 2-core machine. The times
// the walk reports are what was measured, not these.
var turnDeadline = 90 * time.Second // a prompt to its turn's end; 45 s with --quick

const (
	witnessDeadline = 5 * time.Second // DESIGN §11: approve/reject/interrupt → card
)

// toolRun is how long the approved tool runs: 20 s, 10 s with --quick, 8 s for Codex.
func toolRun(a agent, q bool) int {
	switch {
	case a.name == "codex":
		// Codex hands a command still running after 10 s back to the
		// model and may ask to run it again: a longer tool is another
		// scenario, so Codex's stays under that.
		return 8
	case q:
		return 10
	}
	return 20
}

var (
	working  = is("working")
	idle     = is("idle")
	needs    = is("needs_input")
	texts    = []m.Turn{{m.Text("Done.")}, {m.Text("Done again.")}, {m.Text("Done once more.")}, {m.Text("Still done.")}}
	allTexts = func(agent, bool) ([]m.Turn, string) { return texts, "" }
)

func idleAfter(r *run, what string) error {
	_, err := r.settled(what+" → idle", turnDeadline, idle)
	return err
}

var scenarios = []scenario{
	{name: "tool", quick: true,
		turns: func(a agent, _ bool) ([]m.Turn, string) {
			return append([]m.Turn{{m.Step{Tool: &a.quiet}}}, texts...), ""
		},
		drive: func(r *run) error {
			if err := r.prompt("List the files."); err != nil {
				return err
			}
			if err := r.waitTurns(2, turnDeadline); err != nil {
				return err
			}
			if err := idleAfter(r, "tool ran"); err != nil {
				return err
			}
			r.captureIdle()
			return nil
		}},
	{name: "approve", quick: true, asks: true,
		turns: func(a agent, q bool) ([]m.Turn, string) {
			call := a.asks(fmt.Sprintf("sleep %d", toolRun(a, q)))
			return append([]m.Turn{{m.Step{Tool: &call}}}, texts...), ""
		},
		drive: func(r *run) error {
			if err := asked(r); err != nil {
				return err
			}
			if err := r.press(r.a.approve); err != nil {
				return err
			}
			if err := r.toolRuns("approved"); err != nil {
				return err
			}
			r.captureIdle()
			return nil
		}},
	{name: "reject", quick: true, asks: true,
		turns: func(a agent, q bool) ([]m.Turn, string) {
			call := a.asks("sleep 30")
			return append([]m.Turn{{m.Step{Tool: &call}}}, texts...), ""
		},
		drive: func(r *run) error {
			if err := asked(r); err != nil {
				return err
			}
			if err := r.press(r.a.reject); err != nil {
				return err
			}
			if err := r.witnessed("rejected → idle", witnessDeadline, idle); err != nil {
				return err
			}
			r.capture("rejected")
			return afterwards(r)
		}},
	{name: "interrupt", quick: true, turns: slowTurns, drive: interrupt},
	// The same in the mode a new user's agent starts in: its footer has
	// other words (issue 32, item 5), and send and the witness must still
	// find its prompt.
	{name: "mode_interrupt", quick: true, quickOnly: "claude", mode: true,
		turns: func(a agent, q bool) ([]m.Turn, string) {
			if a.mode == nil {
				return nil, "starts in the harness's own mode"
			}
			return slowTurns(a, q)
		},
		drive: interrupt},
	{name: "api_error", quick: true,
		turns: func(a agent, _ bool) ([]m.Turn, string) {
			// Claude and Codex are told not to retry; Gemini and OpenCode
			// retry server errors for minutes, so they get a 400.
			code := 400
			if a.name == "claude" {
				code = 529
			} else if a.name == "codex" {
				code = 500
			}
			return append([]m.Turn{{m.Fail(code)}}, texts...), ""
		},
		drive: func(r *run) error {
			if err := r.prompt("Hello."); err != nil {
				return err
			}
			if _, err := r.expect("API error → idle+failed (Needs you)", turnDeadline, func(s world.Session) bool {
				return is("idle", "failed")(s) && s.Zone == "needs_you"
			}); err != nil {
				return err
			}
			r.capture("failed")
			return afterwards(r)
		}},
	// Claude Code 2.1.332 starts every Agent call in the background
	// (async_launched even with run_in_background: false) unless its
	// background tasks are off: a foreground subagent is walked so.
	{name: "subagent", env: []string{"CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1"},
		turns: func(a agent, _ bool) ([]m.Turn, string) {
			if a.subagent == nil {
				return nil, a.name + " has no subagent tool a model can call here"
			}
			// The subagent's own turn takes 12 s; then the parent ends.
			return []m.Turn{{m.Step{Tool: a.subagent}}, {m.Pause(12 * time.Second), m.Text("Subagent done.")},
				{m.Text("All done.")}, {m.Text("Done.")}}, ""
		},
		drive: func(r *run) error {
			if err := r.prompt("Ask a subagent."); err != nil {
				return err
			}
			if r.a.subAsks {
				if err := approveAsked(r, "the subagent"); err != nil {
					return err
				}
			}
			if err := r.waitTurns(2, turnDeadline); err != nil {
				return err
			}
			if ok, names := r.offered(r.a.subagent.Name); !ok {
				return cannot("%s did not offer %s (its tools: %s)", r.a.name, r.a.subagent.Name, strings.Join(names, ","))
			}
			if err := r.hold("working while the subagent runs", 6*time.Second, working); err != nil {
				return err
			}
			r.capture("subagent")
			return idleAfter(r, "subagent and turn done")
		}},
	{name: "question",
		turns: func(a agent, _ bool) ([]m.Turn, string) {
			if a.question == nil {
				return nil, a.name + " has no question tool"
			}
			return []m.Turn{{m.Text("Hello.")}, {m.Step{Tool: a.question}}, {m.Text("Blue it is.")}, {m.Text("Done.")}}, ""
		},
		drive: func(r *run) error {
			if err := r.prompt("Hello."); err != nil {
				return err
			}
			if err := idleAfter(r, "first turn"); err != nil {
				return err
			}
			if ok, names := r.offered(r.a.question.Name); !ok {
				return cannot("%s does not offer a question tool %q in this mode (its tools: %s)", r.a.name, r.a.question.Name, strings.Join(names, ","))
			}
			if err := r.waitReady(30 * time.Second); err != nil {
				return err
			}
			if err := r.prompt("Ask me which colour."); err != nil {
				return err
			}
			if _, err := r.expect("question → needs_input", turnDeadline, needs); err != nil {
				return err
			}
			if err := r.waitScreen("the question", 30*time.Second, []string{"Which colour"}); err != nil {
				return err
			}
			r.capture("question")
			time.Sleep(adapter.KeyGuard(state.Agent(r.a.name))) // a person reads it first
			if err := r.press("Enter"); err != nil {
				return err
			}
			if _, err := r.expect("answered → working or idle", turnDeadline, func(s world.Session) bool {
				return working(s) || idle(s)
			}); err != nil {
				return err
			}
			return idleAfter(r, "answered turn")
		}},
	{name: "compact",
		turns: allTexts,
		drive: func(r *run) error {
			if err := firstTurnReady(r); err != nil {
				return err
			}
			before := r.turnsServed()
			if err := r.prompt(r.a.compact); err != nil {
				return err
			}
			if err := r.waitReady(turnDeadline); err != nil {
				return err
			}
			// Not every agent fires a hook lanes counts for a compaction
			// (Codex: none), so the card need only be idle once the
			// prompt is back, and the next prompt must work.
			r.act()
			if _, err := r.expect("compacted, prompt back → idle", turnDeadline, idle); err != nil {
				return err
			}
			r.capture("compacted")
			return afterwardsFrom(r, before)
		}},
	{name: "exit",
		turns: allTexts,
		drive: func(r *run) error {
			if err := r.prompt("Hello."); err != nil {
				return err
			}
			if err := idleAfter(r, "first turn"); err != nil {
				return err
			}
			// DESIGN §5: a clean exit closes the session only after ≥ 10 s of life.
			time.Sleep(time.Until(r.started.Add(11 * time.Second)))
			if err := r.waitReady(30 * time.Second); err != nil {
				return err
			}
			if err := r.prompt(r.a.exit); err != nil {
				return err
			}
			_, err := r.expect("exit → terminated, clean exit", 30*time.Second, func(s world.Session) bool {
				return s.IsTerminated && s.TerminatedReason != nil && strings.Contains(*s.TerminatedReason, "clean")
			})
			return err
		}},
	{name: "kill9",
		turns: allTexts,
		drive: func(r *run) error {
			if err := r.prompt("Hello."); err != nil {
				return err
			}
			if err := idleAfter(r, "first turn"); err != nil {
				return err
			}
			pid, err := r.panePID()
			if err != nil {
				return err
			}
			r.act()
			killTree(pid)
			if _, err := r.expect("kill -9 → exited (SIGKILL)", 20*time.Second, func(s world.Session) bool {
				return s.Status == "exited" && exitDetail(s) == "SIGKILL"
			}); err != nil {
				return err
			}
			if code, msg := r.send("Are you there?"); code != 3 {
				return fmt.Errorf("send to a killed agent: exit %d (%s), want 3 (refused: agent exited)", code, msg)
			}
			return nil
		}},
	{name: "restart",
		turns: allTexts,
		drive: func(r *run) error {
			if err := r.prompt("Hello."); err != nil {
				return err
			}
			if err := idleAfter(r, "first turn"); err != nil {
				return err
			}
			launch := r.latest().Launch
			r.act()
			if res := r.w.Lanes("", "restart", r.name); res.Code != 0 {
				return fmt.Errorf("lanes restart: exit %d: %s", res.Code, res.Stderr)
			}
			if _, err := r.expect("restart → new launch, idle", 30*time.Second, func(s world.Session) bool {
				return s.Launch != launch && idle(s)
			}); err != nil {
				return err
			}
			if err := r.waitReady(120 * time.Second); err != nil {
				return err
			}
			return afterwardsFrom(r, r.turnsServed())
		}},
}

// afterwards checks the prompt is free: send is taken, the agent asks the
// model for a new turn, and the card comes back to idle.
func afterwards(r *run) error { return afterwardsFrom(r, r.turnsServed()) }

// firstTurnReady walks a first turn to its end and waits for the prompt.
func firstTurnReady(r *run) error {
	if err := r.prompt("Hello."); err != nil {
		return err
	}
	if err := idleAfter(r, "first turn"); err != nil {
		return err
	}
	return r.waitReady(30 * time.Second)
}

func afterwardsFrom(r *run, before int) error {
	if err := r.waitReady(30 * time.Second); err != nil {
		return err
	}
	if err := r.prompt("And now?"); err != nil {
		return err
	}
	if err := r.waitTurns(before+1, turnDeadline); err != nil {
		return fmt.Errorf("after send: %w", err)
	}
	return idleAfter(r, "next prompt")
}

func selectScenarios(quick bool, sub string) []scenario {
	return slices.DeleteFunc(slices.Clone(scenarios), func(s scenario) bool {
		return (quick && !s.quick) || !strings.Contains(s.name, sub)
	})
}

// toolRuns: after the approval (what says how it was given), the card goes
// working within the witness's deadline, stays so while the tool runs, and
// goes idle when the turn ends.
func (r *run) toolRuns(what string) error {
	if err := r.witnessed(what+" → working", witnessDeadline, working); err != nil {
		return err
	}
	run := time.Duration(toolRun(r.a, r.quick)) * time.Second
	if err := r.hold("working while the approved tool runs", run/2, working); err != nil {
		return err
	}
	r.capture("running")
	_, err := r.expect("tool done → idle", run+turnDeadline, idle)
	return err
}
