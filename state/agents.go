package state

// Each coding agent lanes reads is described once, as data, in a file of
// its own (claude.go, codex.go, gemini.go, opencode.go, qwen.go, pi.go): its hook events
// and what each means, its screen markers, the tool it asks with, the ids
// it resumes by. The rest of the package asks the description, never the
// agent's name; an agent is added with its file and its entry in readings.
// What lanes does to an agent (launch, hooks install, dialog keys) is
// package agent's, described the same way.

// Reading is what lanes reads from one coding agent.
type Reading struct {
	Agent Agent
	// Translate maps one of its hook lines to an event; false for an
	// event it does not know.
	Translate func(Line) (Event, bool)
	// Markers are its screen's (docs/design.md §11); nil when none were
	// recorded: its pane is then never captured, as a guess would be
	// worse than the hooks alone.
	Markers *Markers
	// Menus are how its screen shows a menu open (menus.go); nil: none
	// known.
	Menus *Menus
	// AskTool is the tool it asks its human a question with.
	AskTool string
	// Plan is how it asks to leave its plan mode (plan.go); nil: lanes
	// reads no plan approval of its.
	Plan *PlanReading
	// ResumeShape reports whether id is one it takes to resume a
	// conversation by (Claude reads any other text as a search in a
	// picker, Gemini a number as a list position); nil: it cannot resume.
	ResumeShape func(id string) bool
	// KeepsOnlyDone: its history keeps no turn that ended interrupted
	// (Gemini CLI writes it again without it), and it lists no
	// conversation whose turns all failed or were interrupted, so only a
	// turn that ended done makes its conversation one a restore can
	// resume.
	KeepsOnlyDone bool
	// Usage is how lanes reads the numbers in its records (usage.go);
	// nil: it reads none from a file (OpenCode's hooks send them).
	Usage *UsageReading
}

// readings are the coding agents lanes reads, in the order lists show them.
var readings = []Reading{claude, codex, gemini, opencode, qwen, pi}

// ReadingOf is agent a's description; false for an agent lanes reads
// nothing of (a shell, a custom command).
func ReadingOf(a Agent) (Reading, bool) {
	for _, r := range readings {
		if r.Agent == a {
			return r, true
		}
	}
	return Reading{}, false
}

// CodingAgents are the agents lanes reads, in the order lists show them.
func CodingAgents() []Agent {
	out := make([]Agent, len(readings))
	for i, r := range readings {
		out[i] = r.Agent
	}
	return out
}
