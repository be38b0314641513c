package agent

import (
	"strings"

	"lanes/state"
)

// Prompt is the text to type into agent a's input so that the Enter after
// it submits the prompt as the user wrote it.
//
// Claude Code reads a backslash right before Enter as "continue on the
// next line": a prompt ending in `\` was left unsubmitted, and the next
// send was glued to it (real claude 2.1.197). A space after the backslash
// makes Enter submit, and Claude trims it from the prompt, so the prompt
// arrives exactly as written (its UserPromptSubmit shows it). Other agents
// get the text unchanged.
func Prompt(a state.Agent, text string) string {
	if a == state.AgentClaude && strings.HasSuffix(text, `\`) {
		return text + " "
	}
	return text
}
