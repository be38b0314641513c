package cli

import (
	"strings"

	"lanes/state"
)

// The agent lists commands name, from the agents described in packages
// state and agent (never typed again here).

// codingAgents are the coding agents' names: what hooks install takes.
func codingAgents() []string { return names(state.CodingAgents()) }

// hookAgents are the AGENT values `lanes hook` accepts.
func hookAgents() []string { return append(codingAgents(), "generic") }

// newAgents are the agents `lanes new --agent` takes.
func newAgents() []string { return names(state.Agents) }

func names(agents []state.Agent) []string {
	out := make([]string, len(agents))
	for i, a := range agents {
		out[i] = string(a)
	}
	return out
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
