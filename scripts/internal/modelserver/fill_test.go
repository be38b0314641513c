package modelserver

import (
	"encoding/json"
	"testing"
)

// TestFillReadsTheRequest: a tool's input takes what only the agent's
// request says (Claude Code's plan file), and stays as written when the
// request does not say it.
func TestFillReadsTheRequest(t *testing.T) {
	turn := Turn{Text("a"), {Tool: &ToolCall{Name: "Write", Fill: `plan at ([^\s"]+\.md)`,
		Input: json.RawMessage(`{"file_path":"$FILL"}`)}}}
	got := turn.filled([]byte(`{"system":"create your plan at /h/.claude/plans/x-y.md now"}`))
	if string(got[1].Tool.Input) != `{"file_path":"/h/.claude/plans/x-y.md"}` {
		t.Errorf("filled input = %s", got[1].Tool.Input)
	}
	if string(turn[1].Tool.Input) != `{"file_path":"$FILL"}` {
		t.Errorf("the scenario's own turn changed: %s", turn[1].Tool.Input)
	}
	if got := turn.filled([]byte(`{}`)); string(got[1].Tool.Input) != `{"file_path":"$FILL"}` {
		t.Errorf("nothing to fill with: %s", got[1].Tool.Input)
	}
}

func TestValidateRejectsBadFills(t *testing.T) {
	for _, fill := range []string{`plan at \S+`, "(["} {
		sc := Scenario{Name: "fill", Turns: []Turn{{{Tool: &ToolCall{Name: "Write", Fill: fill}}}}}
		if err := sc.Validate(); err == nil {
			t.Errorf("fill %q: accepted", fill)
		}
	}
}
