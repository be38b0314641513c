package state

import (
	"encoding/json"
	"strings"
	"testing"
)

// A submitted prompt's digest covers its start as the agent wrote it,
// whatever JSON escapes a cut at 4 KiB falls inside; the scheduled list's
// entries match it, clipped or not, and say nothing of any other prompt.
func TestPromptSumMatchesTheScheduledPrompt(t *testing.T) {
	long := strings.Repeat("é\"\\\u2028x", 900) // escapes all the way past the cut
	for _, p := range []string{"Check the build.", long, "ü" + long} {
		raw, _ := json.Marshal(p)
		clipped := string([]rune(p)[:min(len([]rune(p)), 1000)])
		crons, _ := json.Marshal([]map[string]string{{"prompt": clipped}, {"prompt": "another"}})
		list := ScheduledList(crons)
		if list == nil || len(*list) != 2 {
			t.Fatalf("%.20q: list %v", p, list)
		}
		a := ActivityFacts{Scheduled: *list}
		if sum := PromptSum(raw); sum == "" || !a.scheduledPrompt(sum) {
			t.Errorf("%.20q (%d bytes): digest %q not among %v", p, len(raw), sum, a.Scheduled)
		}
	}
	other, _ := json.Marshal("Check the build!")
	a := ActivityFacts{Scheduled: *ScheduledList(json.RawMessage(`[{"prompt":"Check the build."}]`))}
	if a.scheduledPrompt(PromptSum(other)) || a.scheduledPrompt(PromptSum(json.RawMessage(`{"x":1}`))) || a.scheduledPrompt("") {
		t.Error("another prompt, or none, taken for the scheduled one")
	}
	if ScheduledList(nil) != nil || ScheduledList(json.RawMessage(`"x"`)) != nil {
		t.Error("a payload with no list said one")
	}
}
