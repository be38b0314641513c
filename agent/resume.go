package agent

import "lanes/state"

// ResumeArgs are the arguments that, appended to the user's own, make
// agent a resume its conversation id (state.ResumeID checked its shape);
// nil for an agent that cannot resume. Codex takes a subcommand: its global
// flags (lanes' injected -c, the user's) come before it.
func ResumeArgs(a state.Agent, id string) []string {
	if id == "" {
		return nil
	}
	switch a {
	case state.AgentClaude, state.AgentGemini:
		return []string{"--resume", id}
	case state.AgentCodex:
		return []string{"resume", id}
	case state.AgentOpenCode:
		return []string{"-s", id}
	}
	return nil
}
