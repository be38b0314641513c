package modelserver

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// event is one server-sent event as a client reads it.
type event struct {
	name string
	data string
}

// readSSE reads a whole stream the way the agents' SDKs do: "event:" and
// "data:" lines, a blank line ends an event. It fails on a data line that is
// neither JSON nor the Chat API's [DONE].
func readSSE(t *testing.T, r io.Reader) []event {
	t.Helper()
	var evs []event
	var cur event
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.data != "" {
				if cur.data != "[DONE]" && !json.Valid([]byte(cur.data)) {
					t.Fatalf("event %q has data that is not JSON: %s", cur.name, cur.data)
				}
				evs = append(evs, cur)
			}
			cur = event{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data += strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("stray line in stream: %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading stream: %v", err)
	}
	if cur.data != "" {
		t.Fatalf("stream ended inside an event: %+v", cur)
	}
	return evs
}

// names lists the event names, or for data-only streams (Chat, Gemini) "data".
func names(evs []event) string {
	var out []string
	for _, e := range evs {
		n := e.name
		if n == "" {
			n = "data"
		}
		out = append(out, n)
	}
	return strings.Join(out, " ")
}

// field digs a value out of an event's JSON by keys and array indexes.
func field(t *testing.T, data string, path ...any) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("no %q in %s", k, data)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("no [%d] in %s", k, data)
			}
			v = a[k]
		}
	}
	return v
}

// decodeJSON parses a JSON string (a tool's arguments) into a map.
func decodeJSON(t *testing.T, s any) map[string]any {
	t.Helper()
	str, ok := s.(string)
	if !ok {
		b, _ := json.Marshal(s)
		str = string(b)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(str), &m); err != nil {
		t.Fatalf("tool input %v is not a JSON object: %v", s, err)
	}
	return m
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// stream posts and reads the whole SSE answer, which must be a 200 event stream.
func stream(t *testing.T, url, body string) []event {
	t.Helper()
	resp := post(t, url, body)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: %s %s: %s", url, resp.Status, resp.Header.Get("Content-Type"), b)
	}
	return readSSE(t, resp.Body)
}
