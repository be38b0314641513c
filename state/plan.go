package state

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// A plan approval — the dialog in which an agent in its plan mode asks to
// leave it with the plan its model wrote — names no call its hooks could
// digest as the dialog draws it (Claude Code's hooks carry the plan's
// markdown, which the dialog draws rendered; Gemini CLI's a file name):
// the plan is what the dialog draws. So the
// witness reads it there, once per dialog, the first time it sees the
// dialog: the record keeps the digest of the plan as drawn (CallSum, never
// the plan) and its first line as the call's summary, which the card
// shows ("Allow plan: Greeting"). An answer from lanes goes only while the
// pane's newest dialog draws that same plan (agent.CheckDialog), so a plan
// redrawn since the card showed one is never approved unseen.

// PlanReading is how an agent asks to leave its plan mode: the tool its
// model calls, and the reader of the dialog that asks.
type PlanReading struct {
	Tool string
	// Read is the newest plan dialog on the screen's lines (trailing
	// spaces gone); false when none can be read whole, with nothing after
	// it but blank lines.
	Read func(lines []string) (PlanDialog, bool)
}

// PlanDialog is a plan approval as drawn: the plan's lines (as drawn,
// margins and all, joined by "\n") and the dialog's option lines.
type PlanDialog struct {
	Plan    string
	Options []string
}

// First is the plan's first line that says anything, trimmed.
func (p PlanDialog) First() string {
	for _, l := range strings.Split(p.Plan, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// Sum is the plan's digest, as a record keeps it (CallSum).
func (p PlanDialog) Sum() string {
	h := sha256.Sum256([]byte("plan\n" + p.Plan))
	return "plan-" + hex.EncodeToString(h[:16])
}

// PlanTool reports whether tool is the one agent a asks to leave its plan
// mode with.
func PlanTool(a Agent, tool string) bool {
	r, ok := ReadingOf(a)
	return ok && r.Plan != nil && tool != "" && tool == r.Plan.Tool
}

// toolName is tool as surfaces name it: "plan" for the plan tool ("Allow
// plan: Greeting").
func toolName(a Agent, tool string) string {
	if PlanTool(a, tool) {
		return "plan"
	}
	return tool
}

// CallLine is r's current call as surfaces name it, with its summary.
func CallLine(r *Record) string {
	return ToolLine(toolName(r.Agent, r.Activity.Tool), r.Activity.ToolInput)
}

// ReadPlan is the newest plan approval agent a's screen draws.
func ReadPlan(a Agent, screen string) (PlanDialog, bool) {
	r, ok := ReadingOf(a)
	if !ok || r.Plan == nil {
		return PlanDialog{}, false
	}
	p, ok := r.Plan.Read(ScreenLines(screen))
	return p, ok && strings.TrimSpace(p.Plan) != ""
}

// seePlan: the witness's first look at a plan dialog keeps the plan's
// digest and first line; later looks keep what the first one read (a plan
// redrawn since is another, which the answer's check refuses).
func seePlan(r *Record, s Screen) {
	a := &r.Activity
	if !a.Dialog || a.CallSum != "" || !PlanTool(r.Agent, a.Tool) {
		return
	}
	if p, ok := ReadPlan(r.Agent, string(s)); ok {
		a.CallSum, a.ToolInput = p.Sum(), Summary(p.First(), ToolInputMax)
	}
}

// onlyOnce is the index of the one line that is, trimmed, want; false
// when none is or more than one is (a plan that says the dialog's own
// words is not read).
func onlyOnce(lines []string, want string) (int, bool) {
	at, n := -1, 0
	for i, l := range lines {
		if TrimPlain(l) == want {
			at, n = i, n+1
		}
	}
	return at, n == 1
}

// blankFrom reports whether every line from i on is empty.
func blankFrom(lines []string, i int) bool {
	for _, l := range lines[i:] {
		if TrimPlain(l) != "" {
			return false
		}
	}
	return true
}

// ScreenLines is a capture's lines as the screen readers (the plan
// readers here, agent's dialog readers) take them: trailing spaces gone,
// trailing blank lines too.
func ScreenLines(screen string) []string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// TrimPlain is l without the plain spaces around it, the screen readers'
// one trim (agent's dialog readers too): any other space (U+00A0, say) is
// drawn text, as it is to a shell.
func TrimPlain(l string) string { return strings.Trim(l, " ") }

// ruleOf reports whether l, trimmed, is a rule drawn with r alone.
func ruleOf(l string, r rune) bool {
	t := TrimPlain(l)
	return t != "" && strings.Trim(t, string(r)) == ""
}
