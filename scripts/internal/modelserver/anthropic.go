package modelserver

import (
	"net/http"
	"strconv"
	"time"
)

// anthropic is the Messages API (Claude Code): POST /v1/messages.
type anthropic struct{}

func newAnthropic() dialect { return &anthropic{} }

func (a *anthropic) begin(s *sse) {
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": callID("msg", 0), "type": "message", "role": "assistant", "model": s.model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": anthropicUsage(s.usage, 1)}})
}

func (a *anthropic) textStart(s *sse, i int) {
	s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
		"content_block": map[string]any{"type": "text", "text": ""}})
}

func (a *anthropic) textDelta(s *sse, i int, chunk string) {
	s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
		"delta": map[string]any{"type": "text_delta", "text": chunk}})
}

func (a *anthropic) textStop(s *sse, i int, _ string) {
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
}

func (a *anthropic) tool(s *sse, i int, call renderedTool) {
	s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
		"content_block": map[string]any{"type": "tool_use", "id": callID("toolu", i), "name": call.name, "input": map[string]any{}}})
	s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": string(call.input)}})
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
}

func (a *anthropic) finish(s *sse, usedTool bool) {
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stopReason(usedTool), "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": s.usage.Output}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

func stopReason(usedTool bool) string {
	if usedTool {
		return "tool_use"
	}
	return "end_turn"
}

// anthropicErrors maps a status to the error type the API sends with it.
var anthropicErrors = map[int]string{400: "invalid_request_error", 401: "authentication_error",
	429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}

func (a *anthropic) errorBody(code int) any {
	typ, ok := anthropicErrors[code]
	if !ok {
		typ = "api_error"
	}
	return map[string]any{"type": "error", "error": map[string]any{
		"type": typ, "message": "modelserver: scripted " + typ}}
}

func (a *anthropic) plain(model, text string) any {
	return map[string]any{"id": callID("msg", 0), "type": "message", "role": "assistant", "model": model,
		"content":     []any{map[string]any{"type": "text", "text": text}},
		"stop_reason": "end_turn", "stop_sequence": nil, "usage": anthropicUsage(sideUsage, sideUsage.Output)}
}

func (a *anthropic) tokenCount() any { return map[string]int{"input_tokens": 10} }

// shell is Claude Code's Bash tool.
func (a *anthropic) shell(tc ToolCall) renderedTool {
	return renderedTool{name: "Bash", input: object(map[string]any{
		"command": tc.Shell, "description": "Run " + tc.Shell})}
}

// limited is what the API answers an account over its usage limit: the
// unified rate-limit headers Claude Code reads (its binary's names), the
// window and when it resets.
func (a *anthropic) limited(resets time.Time) (http.Header, any) {
	h := http.Header{}
	h.Set("anthropic-ratelimit-unified-status", "rejected")
	h.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
	h.Set("anthropic-ratelimit-unified-reset", strconv.FormatInt(resets.Unix(), 10))
	return h, map[string]any{"type": "error", "error": map[string]any{"type": "rate_limit_error",
		"message": "modelserver: scripted usage limit"}}
}
