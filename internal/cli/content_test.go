package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// What a card says comes from the real agents' payloads (testdata/real):
// the tool and its input while working, the question or the tool asking
// while the agent waits on its human, the start of the last message once
// idle.
func TestRealContent(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		agent, dir         string
		working, ask, idle string
	}{
		{"claude", "claude/permission-approve", "Bash: touch approved.txt && sleep 12", "Bash: touch approved.txt && sleep 12", "Done with the approved command."},
		{"claude", "harness/claude/question", "AskUserQuestion", "Which colour should the button be?", "Blue it is."},
		{"codex", "codex/permission-approve", "Bash: touch approved.txt && sleep 12", "Bash: touch approved.txt && sleep 12", "Done with the approved command."},
		{"codex", "harness/codex/question", "request_user_input", "Which colour should the button be?", "Blue it is."},
		// Gemini's prompt_response is what it reported, doubled words and all.
		{"gemini", "gemini/permission-approve", "run_shell_command: touch approved.txt && sleep 12", "run_shell_command: touch approved.txt && sleep 12", "Done with the approved command. with the approved command."},
		{"gemini", "harness/gemini/question", "ask_user", "Which colour should the button be?", "Blue it is. it is."},
	} {
		t.Run(c.dir, func(t *testing.T) {
			first := map[state.Say]string{}
			var last string
			replayRealSteps(t, c.agent, c.dir, at, func(l state.Line, r *state.Record) {
				say, text := state.Says(r)
				if _, seen := first[say]; !seen {
					first[say] = text
				}
				if say == state.SayMessage {
					last = text
				}
				t.Logf("%-28s %-14s say %d %q", l.Event, r.Activity.State, say, text)
			})
			// A permission or a question, each said as its kind.
			ask := "permission " + first[state.SayPermission]
			if strings.Contains(c.dir, "question") {
				ask = "question " + first[state.SayAsk]
			}
			got := fmt.Sprintf("working %q ask %q idle %q", first[state.SayTool], ask, last)
			kind := "permission "
			if strings.Contains(c.dir, "question") {
				kind = "question "
			}
			want := fmt.Sprintf("working %q ask %q idle %q", c.working, kind+c.ask, c.idle)
			if got != want {
				t.Errorf("card said %s\nwant         %s", got, want)
			}
		})
	}
}

// LANES_CONTENT=off where lanes starts an agent reaches the agent's hooks:
// the tmux server gives the new session its own environment, not the
// caller's, so lanes passes it on.
func TestContentOffReachesTheAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.vars[state.EnvContent] = "off"
	e.must("new", "quiet", "--", "sh", "-c", "echo content=$LANES_CONTENT; sleep 60")
	waitPane(t, e.tc, "lanes-quiet", "content=off")
}
