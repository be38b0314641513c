package agent

import (
	"testing"

	"lanes/state"
)

// Claude Code reads a backslash before Enter as "continue on the next
// line" (seen with the real claude 2.1.197: `list C:\temp\` was not
// submitted, and the next send was glued to it). A trailing space makes
// Enter submit, and Claude trims it: the prompt arrives as written.
func TestPromptSubmitsAsWritten(t *testing.T) {
	for _, c := range []struct {
		agent      state.Agent
		text, want string
	}{
		{state.AgentClaude, `list C:\temp\`, `list C:\temp\ `},
		{state.AgentClaude, "two lines \\\nend\\", "two lines \\\nend\\ "},
		{state.AgentClaude, `a\ `, `a\ `},
		{state.AgentClaude, `a \b`, `a \b`},
		{state.AgentClaude, "plain", "plain"},
		{state.AgentGemini, `list C:\temp\`, `list C:\temp\ `},
		{state.AgentShell, `echo a\`, `echo a\`}, // a shell's own line continuation is the user's to use
		{state.AgentCustom, `x\`, `x\`},
	} {
		if got := Prompt(c.agent, c.text); got != c.want {
			t.Errorf("Prompt(%s, %q) = %q, want %q", c.agent, c.text, got, c.want)
		}
	}
}
