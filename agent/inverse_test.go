package agent

import (
	"slices"
	"testing"

	"lanes/state"
)

// TestUserCommandUndoesLaunch: what Launch started gives back the command
// `lanes new` recorded, where lanes' additions can be told apart.
func TestUserCommandUndoesLaunch(t *testing.T) {
	const dir, id = "/state", "abcd1234"
	user := []string{"--model", "x y"}
	for _, a := range []state.Agent{state.AgentClaude, state.AgentGemini, state.AgentOpenCode, state.AgentCodex, state.AgentCustom} {
		args := user
		if a == state.AgentCustom {
			args = []string{"sh", "-c", "sleep 1"}
		}
		plan, err := Launch(a, "/bin/lanes", dir, id, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := UserCommand(a, dir, id, plan.Args)
		want := append([]string{string(a)}, user...)
		if a == state.AgentCustom {
			want = args
		}
		if a == state.AgentCodex {
			if ok {
				t.Errorf("codex: %q taken apart; its -c overrides mix with the user's arguments", got)
			}
			continue
		}
		if !ok || !slices.Equal(got, want) {
			t.Errorf("%s: UserCommand(%q) = %q, %v; want %q", a, plan.Args, got, ok, want)
		}
	}
	if got, ok := UserCommand(state.AgentCustom, dir, id, []string{"/usr/bin/env", "--", "my agent"}); !ok || !slices.Equal(got, []string{"my agent"}) {
		t.Errorf("a single word run through env: %q, %v", got, ok)
	}
	// A Claude Code pane lanes injected nothing into is the user's own
	// command; one with another session's settings is not this one's.
	if got, ok := UserCommand(state.AgentClaude, dir, id, []string{"claude", "-c"}); !ok || !slices.Equal(got, []string{"claude", "-c"}) {
		t.Errorf("claude without lanes' settings: %q, %v", got, ok)
	}
	if got, ok := UserCommand(state.AgentClaude, dir, id, []string{"claude", "--settings", "/elsewhere/claude-settings.json", "-c"}); ok {
		t.Errorf("claude with another file's settings: %q, %v (want not told)", got, ok)
	}
	if _, ok := UserCommand(state.AgentCodex, dir, id, []string{"codex"}); ok {
		t.Error("codex: its -c overrides cannot be told from the user's: want not told")
	}
}
