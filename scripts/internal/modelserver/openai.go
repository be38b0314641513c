package modelserver

import (
	"fmt"
	"net/http"
	"time"
)

// responses is the OpenAI Responses API (Codex): POST /v1/responses. Codex
// rejects the Chat API for custom providers, so this is its only wire.
type responses struct {
	id     string
	seq    int
	output []any // finished items, repeated in response.completed
}

func newResponses() dialect { return &responses{id: callID("resp", 0)} }

// event adds the type and the sequence number every Responses event carries.
func (o *responses) event(s *sse, typ string, fields map[string]any) {
	fields["type"], fields["sequence_number"] = typ, o.seq
	o.seq++
	s.event(typ, fields)
}

func (o *responses) begin(s *sse) {
	o.event(s, "response.created", map[string]any{"response": map[string]any{
		"id": o.id, "object": "response", "status": "in_progress", "output": []any{}}})
}

// msgID names a message item; unique per response as agents key items by id.
func (o *responses) msgID(i int) string { return fmt.Sprintf("msg_%s_%d", o.id, i) }

func (o *responses) textStart(s *sse, i int) {
	o.event(s, "response.output_item.added", map[string]any{"output_index": i, "item": map[string]any{
		"type": "message", "id": o.msgID(i), "role": "assistant", "status": "in_progress", "content": []any{}}})
	o.event(s, "response.content_part.added", map[string]any{"item_id": o.msgID(i), "output_index": i,
		"content_index": 0, "part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
}

func (o *responses) textDelta(s *sse, i int, chunk string) {
	o.event(s, "response.output_text.delta", map[string]any{"item_id": o.msgID(i), "output_index": i,
		"content_index": 0, "delta": chunk})
}

func (o *responses) textStop(s *sse, i int, full string) {
	o.event(s, "response.output_text.done", map[string]any{"item_id": o.msgID(i), "output_index": i,
		"content_index": 0, "text": full})
	item := map[string]any{"type": "message", "id": o.msgID(i), "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": full, "annotations": []any{}}}}
	o.output = append(o.output, item)
	o.event(s, "response.output_item.done", map[string]any{"output_index": i, "item": item})
}

func (o *responses) tool(s *sse, i int, call renderedTool) {
	item := map[string]any{"type": "function_call", "id": callID("fc", i), "call_id": callID("call", i),
		"name": call.name, "arguments": "", "status": "in_progress"}
	o.event(s, "response.output_item.added", map[string]any{"output_index": i, "item": item})
	done := map[string]any{}
	for k, v := range item {
		done[k] = v
	}
	done["arguments"], done["status"] = string(call.input), "completed"
	o.output = append(o.output, done)
	o.event(s, "response.output_item.done", map[string]any{"output_index": i, "item": done})
}

func (o *responses) finish(s *sse, _ bool) {
	o.event(s, "response.completed", map[string]any{"response": map[string]any{"id": o.id,
		"object": "response", "status": "completed", "output": o.output, "usage": responsesUsage(s.usage)}})
}

func (o *responses) errorBody(code int) any { return openAIError(code) }

func (o *responses) plain(model, text string) any {
	return map[string]any{"id": o.id, "object": "response", "status": "completed", "model": model,
		"output": []any{map[string]any{"type": "message", "id": o.msgID(0), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}},
		"usage": responsesUsage(sideUsage)}
}

func (o *responses) tokenCount() any { return map[string]int{"input_tokens": 10} }

// shell is Codex's exec_command. Escalated is how a model asks Codex to leave
// its sandbox, which is what makes Codex ask the user.
func (o *responses) shell(tc ToolCall) renderedTool {
	in := map[string]any{"cmd": tc.Shell}
	if tc.Escalated {
		in["sandbox_permissions"] = "require_escalated"
		in["justification"] = "The scripted scenario asks to run this outside the sandbox."
	}
	return renderedTool{name: "exec_command", input: object(in)}
}

var openAIErrors = map[int]string{400: "invalid_request_error", 401: "invalid_api_key",
	429: "rate_limit_exceeded", 500: "server_error", 503: "server_is_overloaded", 529: "server_is_overloaded"}

// limited is the Responses API's usage limit as Codex reads it: a 429
// whose error type is usage_limit_reached, with when it resets (epoch
// seconds).
func (o *responses) limited(resets time.Time) (http.Header, any) {
	return nil, map[string]any{"error": map[string]any{"type": "usage_limit_reached",
		"message": "modelserver: scripted usage limit", "plan_type": "pro", "resets_at": resets.Unix()}}
}

// limited is the Chat Completions API's spent quota (insufficient_quota,
// never retried); it says no reset time.
func (c *chat) limited(time.Time) (http.Header, any) {
	return nil, map[string]any{"error": map[string]any{"message": "modelserver: scripted quota exceeded",
		"type": "insufficient_quota", "code": "insufficient_quota", "param": nil}}
}

func openAIError(code int) any {
	typ, ok := openAIErrors[code]
	if !ok {
		typ = "server_error"
	}
	return map[string]any{"error": map[string]any{"message": "modelserver: scripted " + typ,
		"type": typ, "code": typ, "param": nil}}
}

// chat is the OpenAI Chat Completions API (OpenCode): POST /v1/chat/completions.
type chat struct {
	id    string
	calls int // tool_calls index: counts tool calls only, not text blocks
}

func newChat() dialect { return &chat{id: callID("chatcmpl", 0)} }

func (c *chat) chunk(s *sse, delta map[string]any, finish any, extra map[string]any) {
	ev := map[string]any{"id": c.id, "object": "chat.completion.chunk", "created": 0, "model": s.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	for k, v := range extra {
		ev[k] = v
	}
	s.event("", ev)
}

func (c *chat) begin(s *sse) {
	c.chunk(s, map[string]any{"role": "assistant", "content": ""}, nil, nil)
}

func (c *chat) textStart(*sse, int) {}

func (c *chat) textDelta(s *sse, _ int, chunk string) {
	c.chunk(s, map[string]any{"content": chunk}, nil, nil)
}

func (c *chat) textStop(*sse, int, string) {}

func (c *chat) tool(s *sse, i int, call renderedTool) {
	c.chunk(s, map[string]any{"tool_calls": []any{map[string]any{"index": c.calls, "id": callID("call", i),
		"type": "function", "function": map[string]any{"name": call.name, "arguments": string(call.input)}}}}, nil, nil)
	c.calls++
}

func (c *chat) finish(s *sse, usedTool bool) {
	reason := "stop"
	if usedTool {
		reason = "tool_calls"
	}
	c.chunk(s, map[string]any{}, reason, map[string]any{"usage": chatUsage(s.usage)})
	s.event("", "[DONE]")
}

func (c *chat) errorBody(code int) any { return openAIError(code) }

func (c *chat) plain(model, text string) any {
	return map[string]any{"id": c.id, "object": "chat.completion", "created": 0, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text},
			"finish_reason": "stop"}},
		"usage": chatUsage(sideUsage)}
}

func (c *chat) tokenCount() any { return map[string]int{"prompt_tokens": 10} }

// shell is OpenCode's bash tool, which wants a description beside the command.
func (c *chat) shell(tc ToolCall) renderedTool {
	return renderedTool{name: "bash", input: object(map[string]any{
		"command": tc.Shell, "description": "Run " + tc.Shell})}
}
