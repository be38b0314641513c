package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// realPayload is the first hook payload a recorded real agent run gave for
// event (testdata/real/AGENT/SCENARIO/payloads.jsonl), as the agent wrote it.
func realPayload(t *testing.T, agent, scenario, event string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "real", agent, scenario, "payloads.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Event   string          `json:"event"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Event == event {
			return string(l.Payload)
		}
	}
	t.Fatalf("no %s payload recorded for %s/%s", event, agent, scenario)
	return ""
}
