package agent

import (
	"strings"

	"lanes/state"
)

// Prompt is the text to type into agent a's input so that the Enter after
// it submits the prompt as the user wrote it.
//
// Claude Code and Gemini CLI (Driver.continues) read a backslash right
// before Enter as "continue on the next line": a prompt ending in `\` was
// left unsubmitted, and the next send was glued to it (real claude
// 2.1.197, gemini 0.61.0). A space after the backslash makes Enter submit,
// and both trim it from the prompt, so the prompt arrives as written
// (Claude's UserPromptSubmit shows it). Other agents get the text unchanged.
func Prompt(a state.Agent, text string) string {
	if d, ok := DriverOf(a); ok && d.continues && strings.HasSuffix(text, `\`) {
		return text + " "
	}
	return text
}
