package modelserver

import (
	"encoding/json"
	"net/http"
	"time"
)

// gemini is the Gemini API (Gemini CLI): POST /v1beta/models/M:streamGenerateContent?alt=sse.
// Each event is a whole GenerateContentResponse; the last one carries finishReason.
type gemini struct{}

func newGemini() dialect { return gemini{} }

// candidate is one event; the last (u not nil) says STOP and the usage.
func (gemini) candidate(parts []any, u *Usage) map[string]any {
	c := map[string]any{"content": map[string]any{"parts": parts, "role": "model"}, "index": 0}
	ev := map[string]any{"candidates": []any{c}}
	if u != nil {
		c["finishReason"] = "STOP"
		ev["usageMetadata"] = geminiUsage(*u)
	}
	return ev
}

func (gemini) begin(*sse)          {}
func (gemini) textStart(*sse, int) {}

func (g gemini) textDelta(s *sse, _ int, chunk string) {
	s.event("", g.candidate([]any{map[string]any{"text": chunk}}, nil))
}

func (gemini) textStop(*sse, int, string) {}

func (g gemini) tool(s *sse, _ int, call renderedTool) {
	s.event("", g.candidate([]any{map[string]any{"functionCall": map[string]any{
		"name": call.name, "args": json.RawMessage(call.input)}}}, nil))
}

// finish sends an empty text part with finishReason STOP: Gemini's stream
// has no separate end event. A tool call also ends with STOP.
func (g gemini) finish(s *sse, _ bool) {
	s.event("", g.candidate([]any{map[string]any{"text": ""}}, &s.usage))
}

var geminiStatus = map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 429: "RESOURCE_EXHAUSTED",
	500: "INTERNAL", 503: "UNAVAILABLE", 529: "UNAVAILABLE"}

func (gemini) errorBody(code int) any {
	status, ok := geminiStatus[code]
	if !ok {
		status = "INTERNAL"
	}
	return map[string]any{"error": map[string]any{"code": code, "status": status,
		"message": "modelserver: scripted " + status}}
}

// limited is a spent daily quota, which Gemini CLI never retries; the API
// says no reset time.
func (gemini) limited(time.Time) (http.Header, any) {
	return nil, map[string]any{"error": map[string]any{"code": 429, "status": "RESOURCE_EXHAUSTED",
		"message": "modelserver: scripted quota exceeded", "details": []any{map[string]any{
			"@type":      "type.googleapis.com/google.rpc.QuotaFailure",
			"violations": []any{map[string]any{"quotaId": "GenerateRequestsPerDayPerProjectPerModel"}}}}}}
}

func (g gemini) plain(model, text string) any {
	ev := g.candidate([]any{map[string]any{"text": text}}, &sideUsage)
	ev["modelVersion"] = model
	return ev
}

func (gemini) tokenCount() any { return map[string]int{"totalTokens": 10} }

// shell is Gemini CLI's run_shell_command.
func (gemini) shell(tc ToolCall) renderedTool {
	return renderedTool{name: "run_shell_command", input: object(map[string]any{
		"command": tc.Shell, "description": "Run " + tc.Shell})}
}
