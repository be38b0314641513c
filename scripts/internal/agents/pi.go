package main

import (
	"encoding/json"
	"path/filepath"

	"lanes/scripts/internal/modelserver"
)

// piAgent is pi against the model server's chat completions
// (docs/real-agents.md): its models and settings in a private agent dir,
// offline. It asks nothing before a call (no permission dialog, no
// question tool), so the walks that answer a dialog say CANNOT.
var piAgent = agent{
	name: "pi",
	env: func(h *home, url string) []string {
		return []string{"PI_CODING_AGENT_DIR=" + filepath.Join(h.dir, ".pi", "agent"), "PI_OFFLINE=1", "TMPDIR=" + h.tmp}
	},
	files: func(h *home, url string) error {
		if err := h.write(".pi/agent/models.json", map[string]any{"providers": map[string]any{"scripted": map[string]any{
			"baseUrl": url + "/v1", "api": "openai-completions", "apiKey": fakeKey,
			"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
			"models": []any{map[string]any{"id": "fake-model", "cost": piPrices}}}}}); err != nil {
			return err
		}
		if h.tap != "" {
			if err := h.write(".pi/agent/extensions/tap.ts", piTap(h.tap)); err != nil {
				return err
			}
		}
		return h.write(".pi/agent/settings.json", map[string]any{"defaultProvider": "scripted", "defaultModel": "fake-model",
			"enableInstallTelemetry": false})
	},
	// Its footer, under its input, idle or busy: "↑30 ↓15 0.0%/128k (auto)".
	ready:     []string{"(auto)"},
	interrupt: "Escape",
	exit:      "/quit", compact: "/compact", menu: "/model", clear: "/new",
	quiet:     modelserver.ToolCall{Name: "bash", Input: json.RawMessage(`{"command":"echo hi"}`)},
	toolEvent: "tool_start",
}

// piPrices are the scripted model's, in USD per million tokens: pi writes
// each message's usage.cost from them. With the model server's token
// counts (modelserver's turnUsage) every cost is a whole number of
// micro-dollars, so the cost lanes shows can be checked to the last digit:
// turn 1's 1007 input, 300 cached and 43 output tokens cost $0.001007 +
// $0.000150 + $0.000086.
var piPrices = map[string]float64{"input": 1, "output": 2, "cacheRead": 0.5, "cacheWrite": 1.25}

func init() { agents = append(agents, piAgent) }

// piTap is an extension that appends every event pi gives one, whole (big
// fields cut), for --record.
func piTap(file string) string {
	f, _ := json.Marshal(file)
	return `import { appendFileSync } from "node:fs";
const FILE = ` + string(f) + `;
const EVENTS = ["session_start", "input", "agent_start", "turn_start", "turn_end", "tool_execution_start", "tool_call",
  "tool_result", "tool_execution_end", "agent_end", "session_shutdown"];
const cut = (k: string, v: any) => (typeof v === "string" && v.length > 2000 ? v.slice(0, 2000) + "…" : k === "messages" && Array.isArray(v) ? v.slice(-2) : v);
export default function (pi: any) {
  for (const event of EVENTS) {
    pi.on(event, (e: any) => { try { appendFileSync(FILE, JSON.stringify({ event, payload: e }, cut) + "\n"); } catch {} });
  }
}
`
}
