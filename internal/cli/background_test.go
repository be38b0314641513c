package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/theme"
)

// card is what a surface shows of r at at: status, zone and marks, with
// the background mark's words.
func card(r *state.Record, at time.Time) string {
	d := state.Derive(r, at)
	s := fmt.Sprintf("%s/%s", d.Status, d.Zone)
	for _, m := range d.Marks {
		s += " +" + string(m)
		if m == state.MarkBackground {
			s += "(" + state.BackgroundSays(r.Activity.Background, false) + ")"
		}
	}
	return s
}

// walk replays a recorded real scenario and returns the card after each
// event, as "Event: card".
func walk(t *testing.T, dir string) []string {
	t.Helper()
	at := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	var out []string
	replayRealSteps(t, "claude", dir, at, func(l state.Line, r *state.Record) {
		ev := l.Event
		if l.Automatic {
			ev += "(automatic)"
		}
		out = append(out, ev+": "+card(r, at.Add(time.Minute)))
	})
	return out
}

// Issue 32 item 1: a real Claude Code 2.1.332 runs `sleep 20` with
// run_in_background. Its turn ends at once, the job runs on: the card is
// Idle and says "1 background job" until the turn Claude starts by itself
// to report the job's end (an automatic turn, Working), then plain Idle.
// Before, the card read plain Idle all along.
func TestRealBackgroundShell(t *testing.T) {
	got := walk(t, "harness/claude/background_shell")
	want := []string{
		"SessionStart: idle/working",
		"UserPromptSubmit: working/working",
		"PreToolUse: working/working",
		"PostToolUse: working/working +background(1 background job)",
		"Stop: idle/working +background(1 background job)",
		"UserPromptSubmit(automatic): working/working",
		"Stop: idle/working",
		"UserPromptSubmit: working/working", // the human's next prompt
		"Stop: idle/working",
	}
	if !slices.Equal(got, want) {
		t.Errorf("cards:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A background subagent (the Agent tool with run_in_background): its turn
// ends while it runs, so the card is Idle with "1 background agent" (with
// Claude Code 2.1.197 it read Working for the whole run: its Stop waited
// on the live subagent), and its own stop is not the session's.
func TestRealBackgroundAgent(t *testing.T) {
	got := walk(t, "harness/claude/background_agent")
	want := []string{
		"SessionStart: idle/working",
		"UserPromptSubmit: working/working",
		"PreToolUse: working/working",
		"SubagentStart: working/working",
		"PostToolUse: working/working +background(1 background agent)",
		"Stop: idle/working +background(1 background agent)",
		"SubagentStop: idle/working +background(1 background agent)",
		"UserPromptSubmit(automatic): working/working",
		"Stop: idle/working",
		"UserPromptSubmit: working/working",
		"Stop: idle/working",
	}
	if !slices.Equal(got, want) {
		t.Errorf("cards:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Issue 32, item 3: when Claude Code gives up on an API error its
// StopFailure says what failed (error "server_error" for a 529); the card
// says so beside its mark, ls --json as failure. Before, only the last
// message's start hinted at it.
func TestRealFailureSaysWhy(t *testing.T) {
	at := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	var failed *state.Record
	r := replayRealSteps(t, "claude", "harness/claude/api_error", at, func(l state.Line, r *state.Record) {
		if l.Event == "StopFailure" {
			failed = r.Clone()
		}
	})
	if failed == nil || failed.Activity.Failure != "server error" {
		t.Fatalf("after the recorded StopFailure: %+v, want failure %q", failed, "server error")
	}
	if got := theme.MarkShort(state.MarkFailed, failed, true); got != "Failed: server error" {
		t.Errorf("the card's mark says %q", got)
	}
	if r.Activity.Failure != "" {
		t.Errorf("the next turn went well, yet failure %q stays", r.Activity.Failure)
	}
}

// Issue 32, item 2 (harness cron_turn, recorded with the real Claude Code
// 2.1.332): a prompt the model scheduled (CronCreate) fires by itself as
// a UserPromptSubmit no different from a human's; the Stop before it
// listed it in session_crons. Its turn is automatic, and the failure of
// the human's turn before it, which nobody saw, stays on the card until
// the human's own next prompt.
func TestRealClaudeCronTurnIsAutomatic(t *testing.T) {
	at := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	var cron, human bool
	replayRealSteps(t, "claude", "harness/claude/cron_turn", at, func(l state.Line, r *state.Record) {
		if l.Event != "Stop" || r.Activity.Outcome != state.OutcomeNone {
			return
		}
		switch d := state.Derive(r, l.At.Add(time.Second)); {
		case !cron && r.Activity.Automatic:
			cron = true
			if r.Activity.Unseen != state.OutcomeFailure || !slices.Contains(d.Marks, state.MarkFailed) {
				t.Errorf("after the scheduled prompt's turn: unseen %q, marks %v; want the failure kept", r.Activity.Unseen, d.Marks)
			}
		case cron && !r.Activity.Automatic:
			human = true
			if r.Activity.Unseen != state.OutcomeNone {
				t.Errorf("after the human's prompt: unseen %q, want it gone", r.Activity.Unseen)
			}
		}
	})
	if !cron || !human {
		t.Errorf("turns seen: the scheduled prompt's automatic %v, the human's after it %v", cron, human)
	}
}
