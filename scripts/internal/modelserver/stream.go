package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// dialect renders a turn in one API's wire shape. A dialect value lives for
// one response, so it may keep state such as sequence numbers.
type dialect interface {
	begin(s *sse)
	textStart(s *sse, i int)
	textDelta(s *sse, i int, chunk string)
	textStop(s *sse, i int, full string)
	tool(s *sse, i int, call renderedTool)
	finish(s *sse, usedTool bool)
	// errorBody is the API's JSON error for an HTTP status.
	errorBody(code int) any
	// limited is the API's 429 for a usage limit reached until resets:
	// the headers to add and the body.
	limited(resets time.Time) (http.Header, any)
	// plain is a whole non-streamed text reply.
	plain(model, text string) any
	tokenCount() any
	// shell renders the neutral shell tool for this API's agent.
	shell(tc ToolCall) renderedTool
}

type renderedTool struct {
	name  string
	input json.RawMessage // a JSON object
}

// request is what routing needs from a request.
type request struct {
	kind   string // main, side, count, probe, or "" (unknown)
	stream bool
	model  string
}

// classify names the API a request speaks and whether it is a turn.
func classify(method, path string, body []byte) (func() dialect, request) {
	var b struct {
		Stream bool            `json:"stream"`
		Model  string          `json:"model"`
		Tools  json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(body, &b) // a body that is not JSON has no tools: a side request
	withTools := len(b.Tools) > 0 && string(b.Tools) != "null" && string(b.Tools) != "[]"
	req := request{kind: "side", stream: b.Stream, model: b.Model}
	if req.stream && withTools {
		req.kind = "main"
	}
	switch {
	case method == http.MethodHead || (method == http.MethodGet && strings.HasSuffix(path, "/models")):
		return nil, request{kind: "probe"}
	case method != http.MethodPost:
		return nil, request{}
	case strings.HasSuffix(path, "/messages/count_tokens"):
		return newAnthropic, request{kind: "count"}
	case strings.HasSuffix(path, "/messages"):
		return newAnthropic, req
	case strings.HasSuffix(path, "/responses"):
		return newResponses, req
	case strings.HasSuffix(path, "/chat/completions"):
		return newChat, req
	}
	// Gemini puts the model and the method in the path: /v1beta/models/M:method.
	model, method, ok := strings.Cut(path[strings.LastIndex(path, "/")+1:], ":")
	if !ok || !strings.Contains(path, "/models/") {
		return nil, request{}
	}
	req.model, req.stream = model, method == "streamGenerateContent"
	switch {
	case method == "countTokens":
		req.kind = "count"
	case req.stream && withTools:
		req.kind = "main"
	case req.stream || method == "generateContent":
		req.kind = "side"
	default:
		return nil, request{}
	}
	return newGemini, req
}

// play answers with turn: an HTTP error, or a stream of its steps ending
// with u; it reports whether the stream got to its end, usage and all.
func play(w http.ResponseWriter, r *http.Request, newDialect func() dialect, model string, turn Turn, u Usage) bool {
	d := newDialect()
	s := &sse{w: w, r: r, usage: u}
	if last := turn[len(turn)-1]; last.Error != 0 || last.Limit != 0 {
		for _, st := range turn[:len(turn)-1] {
			s.sleep(st.DelayMS)
		}
		switch {
		case s.err != nil:
		case last.Error != 0:
			writeJSON(w, last.Error, d.errorBody(last.Error))
		default:
			h, body := d.limited(time.Now().Add(time.Duration(last.Limit) * time.Second))
			for k, v := range h {
				w.Header()[k] = v
			}
			writeJSON(w, http.StatusTooManyRequests, body)
		}
		return false
	}
	s.model = model
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	d.begin(s)
	block, usedTool := 0, false
	for _, st := range turn {
		switch {
		case st.DelayMS > 0:
			s.sleep(st.DelayMS)
		case st.Text != "":
			d.textStart(s, block)
			for k, c := range chunks(st.Text) {
				if k > 0 {
					s.sleep(st.ChunkMS)
				}
				d.textDelta(s, block, c)
			}
			d.textStop(s, block, st.Text)
			block++
		case st.Tool != nil:
			d.tool(s, block, render(d, *st.Tool))
			block, usedTool = block+1, true
		}
		if s.err != nil {
			return false // the client cut the stream
		}
	}
	d.finish(s, usedTool)
	return s.err == nil
}

// chunks splits text after each space, so a slow stream shows word by word.
func chunks(text string) []string { return strings.SplitAfter(text, " ") }

func render(d dialect, tc ToolCall) renderedTool {
	if tc.Shell != "" {
		return d.shell(tc)
	}
	in := tc.Input
	if len(in) == 0 {
		in = json.RawMessage("{}")
	}
	return renderedTool{name: tc.Name, input: in}
}

// object marshals a tool input built here from strings and bools, which
// always marshals.
func object(m map[string]any) json.RawMessage {
	b, _ := json.Marshal(m)
	return b
}

// sse writes server-sent events, flushing each so the agent sees it at once.
type sse struct {
	w     http.ResponseWriter
	r     *http.Request
	model string
	usage Usage // what the stream's end reports
	err   error // first write failure or client cancellation; later writes do nothing
}

// event writes one event; name "" writes a data-only event (OpenAI Chat, Gemini).
func (s *sse) event(name string, data any) {
	if s.err != nil {
		return
	}
	payload, ok := data.(string)
	if !ok {
		b, err := json.Marshal(data)
		if err != nil {
			s.err = fmt.Errorf("encoding %s event: %w", name, err)
			return
		}
		payload = string(b)
	}
	var b strings.Builder
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	b.WriteString("data: " + payload + "\n\n")
	if _, err := s.w.Write([]byte(b.String())); err != nil {
		s.err = err
		return
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// sleep waits ms, or stops the stream early if the client goes away.
func (s *sse) sleep(ms int) {
	if s.err != nil || ms <= 0 {
		return
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.r.Context().Done():
		s.err = s.r.Context().Err()
	}
}

// callID makes tool-call ids unique per response and turn, as agents match
// results to calls by id.
func callID(prefix string, block int) string {
	return fmt.Sprintf("%s_%d_%d", prefix, time.Now().UnixNano(), block)
}
