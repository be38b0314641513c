package cli

import "testing"

// firstRealPayload is the first hook payload a recorded real agent run gave
// for event (testdata/real/AGENT/SCENARIO/payloads.jsonl), as the agent wrote it.
func firstRealPayload(t *testing.T, agent, scenario, event string) string {
	t.Helper()
	for _, p := range readRealPayloads(t, agent+"/"+scenario) {
		if p.Event == event {
			return string(p.Payload)
		}
	}
	t.Fatalf("no %s payload recorded for %s/%s", event, agent, scenario)
	return ""
}
