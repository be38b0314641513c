package state

import "cmp"

// noteTool keeps the tool call an event names as the current one, with
// its input's summary and the question it asks (a question tool's may
// come before the dialog that shows it). An event naming no tool (a
// permission notification) keeps the call, and adds a summary where there
// was none, or replaces it when the dialog asks about another input.
func (a *ActivityFacts) noteTool(e Event) (another bool) {
	// Two inputs may share their summary: the digest tells them apart.
	otherSum := e.CallSum != "" && e.CallSum != a.CallSum
	switch {
	case e.ToolName != "":
		if e.ToolName != a.Tool || e.ToolInput != a.ToolInput || otherSum {
			a.Question = "" // another call: the last one's question is not its own
			another = true
		}
		a.Tool, a.ToolInput, a.CallSum = e.ToolName, e.ToolInput, e.CallSum
	case (e.ToolInput != "" || e.CallSum != "") && a.ToolInput == "" && a.CallSum == "":
		a.ToolInput, a.CallSum = e.ToolInput, e.CallSum
	case e.Dialog && (e.ToolInput != "" && e.ToolInput != a.ToolInput || otherSum):
		// A dialog that names another input than the current call's
		// (Gemini's ToolPermission, after two BeforeTools) is about that
		// input: the card must show what the dialog asks.
		a.ToolInput, a.CallSum, a.Question, another = cmp.Or(e.ToolInput, a.ToolInput), e.CallSum, "", true
	}
	if e.Question != "" && e.Question != a.Question {
		a.Question, another = e.Question, true
	}
	return another
}
