package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// api is one wire: where its turn requests go, a main request body (with
// tools; %s varies it per turn, as a growing conversation does), and how
// to read a tool call and the text back out of its stream.
type api struct {
	name     string
	path     string
	main     string
	toolTurn string // event names of a one-tool-call turn
	textTurn string // event names of the turn streaming "All done."
	tool     func(t *testing.T, evs []event) (name string, input map[string]any)
	text     func(t *testing.T, evs []event) string
}

var apis = []api{{
	name: "anthropic", path: "/v1/messages?beta=true",
	main:     `{"model":"claude-opus-4-8","stream":true,"messages":[{"role":"user","content":"%s"}],"tools":[{"name":"Bash","input_schema":{"type":"object"}}]}`,
	toolTurn: "message_start content_block_start content_block_delta content_block_stop message_delta message_stop",
	textTurn: "message_start content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop",
	tool: func(t *testing.T, evs []event) (string, map[string]any) {
		if r := field(t, evs[4].data, "delta", "stop_reason"); r != "tool_use" {
			t.Errorf("stop_reason = %v, want tool_use", r)
		}
		return field(t, evs[1].data, "content_block", "name").(string),
			decodeJSON(t, field(t, evs[2].data, "delta", "partial_json"))
	},
	text: func(t *testing.T, evs []event) string {
		if r := field(t, evs[5].data, "delta", "stop_reason"); r != "end_turn" {
			t.Errorf("stop_reason = %v, want end_turn", r)
		}
		return field(t, evs[2].data, "delta", "text").(string) + field(t, evs[3].data, "delta", "text").(string)
	},
}, {
	name: "responses", path: "/v1/responses",
	main:     `{"model":"fake-model","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"%s"}]}],"tools":[{"type":"function","name":"exec_command"}]}`,
	toolTurn: "response.created response.output_item.added response.output_item.done response.completed",
	textTurn: "response.created response.output_item.added response.content_part.added response.output_text.delta response.output_text.delta response.output_text.done response.output_item.done response.completed",
	tool: func(t *testing.T, evs []event) (string, map[string]any) {
		item := field(t, evs[2].data, "item").(map[string]any)
		if item["type"] != "function_call" || item["call_id"] == "" {
			t.Errorf("tool item = %v, want a function_call with a call_id", item)
		}
		for i, e := range evs {
			if n := field(t, e.data, "sequence_number"); n != float64(i) {
				t.Errorf("event %d has sequence_number %v", i, n)
			}
		}
		return item["name"].(string), decodeJSON(t, item["arguments"])
	},
	text: func(t *testing.T, evs []event) string {
		if s := field(t, evs[7].data, "response", "output", 0, "content", 0, "text"); s != "All done." {
			t.Errorf("response.completed output text = %v", s)
		}
		return field(t, evs[5].data, "text").(string)
	},
}, {
	name: "chat", path: "/v1/chat/completions",
	main:     `{"model":"fake-model","stream":true,"messages":[{"role":"user","content":"%s"}],"tools":[{"type":"function","function":{"name":"bash"}}]}`,
	toolTurn: "data data data data",
	textTurn: "data data data data data",
	tool: func(t *testing.T, evs []event) (string, map[string]any) {
		if evs[3].data != "[DONE]" {
			t.Errorf("last event = %s, want [DONE]", evs[3].data)
		}
		if r := field(t, evs[2].data, "choices", 0, "finish_reason"); r != "tool_calls" {
			t.Errorf("finish_reason = %v, want tool_calls", r)
		}
		fn := field(t, evs[1].data, "choices", 0, "delta", "tool_calls", 0, "function").(map[string]any)
		return fn["name"].(string), decodeJSON(t, fn["arguments"])
	},
	text: func(t *testing.T, evs []event) string {
		if r := field(t, evs[3].data, "choices", 0, "finish_reason"); r != "stop" {
			t.Errorf("finish_reason = %v, want stop", r)
		}
		var s string
		for _, e := range evs[:3] {
			s += field(t, e.data, "choices", 0, "delta", "content").(string)
		}
		return s
	},
}, {
	name: "gemini", path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
	main:     `{"contents":[{"role":"user","parts":[{"text":"%s"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`,
	toolTurn: "data data",
	textTurn: "data data data",
	tool: func(t *testing.T, evs []event) (string, map[string]any) {
		if r := field(t, evs[1].data, "candidates", 0, "finishReason"); r != "STOP" {
			t.Errorf("finishReason = %v, want STOP", r)
		}
		fc := field(t, evs[0].data, "candidates", 0, "content", "parts", 0, "functionCall").(map[string]any)
		return fc["name"].(string), decodeJSON(t, fc["args"])
	},
	text: func(t *testing.T, evs []event) string {
		var s string
		for _, e := range evs {
			s += field(t, e.data, "candidates", 0, "content", "parts", 0, "text").(string)
		}
		return s
	},
}}

// wantShell is each wire's shell tool and the argument holding the command.
var wantShell = map[string][2]string{
	"anthropic": {"Bash", "command"}, "responses": {"exec_command", "cmd"},
	"chat": {"bash", "command"}, "gemini": {"run_shell_command", "command"},
}

func start(t *testing.T) *Server {
	t.Helper()
	srv := New()
	if _, err := srv.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func assign(t *testing.T, srv *Server, key string, turns ...Turn) {
	t.Helper()
	if err := srv.Assign(key, Scenario{Name: key, Turns: turns}); err != nil {
		t.Fatal(err)
	}
}

func TestToolThenTextOnEachAPI(t *testing.T) {
	srv := start(t)
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			assign(t, srv, a.name, Turn{Shell("echo hi")}, Turn{Text("All done.")})
			evs := stream(t, srv.URL(a.name)+a.path, fmt.Sprintf(a.main, "run it"))
			if got := names(evs); got != a.toolTurn {
				t.Fatalf("tool turn events:\n got %s\nwant %s", got, a.toolTurn)
			}
			name, input := a.tool(t, evs)
			if want := wantShell[a.name]; name != want[0] || input[want[1]] != "echo hi" {
				t.Errorf("tool call = %s %v, want %s with %s=echo hi", name, input, want[0], want[1])
			}
			evs = stream(t, srv.URL(a.name)+a.path, fmt.Sprintf(a.main, "tool result"))
			if got := names(evs); got != a.textTurn {
				t.Fatalf("text turn events:\n got %s\nwant %s", got, a.textTurn)
			}
			if got := a.text(t, evs); got != "All done." {
				t.Errorf("text = %q, want %q", got, "All done.")
			}
		})
	}
}

// TestSideRequestsDoNotAdvance sends each agent's side calls between turns:
// none may take a turn, or the agent would see the script skip.
func TestSideRequestsDoNotAdvance(t *testing.T) {
	srv := start(t)
	assign(t, srv, "k", Turn{Text("FIRST")}, Turn{Text("SECOND")})
	side := []struct{ path, body string }{
		{"/v1/messages?beta=true", `{"model":"claude-haiku","max_tokens":10,"messages":[{"role":"user","content":"title"}]}`},
		{"/v1/messages?beta=true", `{"model":"claude-haiku","stream":true,"messages":[{"role":"user","content":"summary"}]}`},
		{"/v1/messages/count_tokens?beta=true", `{"model":"m","messages":[],"tools":[{"name":"Bash"}]}`},
		{"/v1/responses", `{"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}]}]}`},
		{"/v1/chat/completions", `{"model":"fake-model","stream":true,"messages":[{"role":"system","content":"You are a title generator"}]}`},
		{"/v1beta/models/gemini-3.5-flash-lite:generateContent", `{"contents":[{"role":"user","parts":[{"text":"Summarize"}]}]}`},
		{"/v1beta/models/gemini-2.5-flash:countTokens", `{"contents":[]}`},
	}
	for _, s := range side {
		resp := post(t, srv.URL("k")+s.path, s.body)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("side request %s: %s: %s", s.path, resp.Status, b)
		}
		if strings.Contains(string(b), "FIRST") || strings.Contains(string(b), "SECOND") {
			t.Errorf("side request %s was answered from the script: %s", s.path, b)
		}
	}
	if head, err := http.Head(srv.URL("k") + "/"); err != nil || head.StatusCode != http.StatusOK {
		t.Errorf("HEAD / = %v %v, want 200 (Claude's reachability check)", head, err)
	}
	a := apis[0]
	evs := stream(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, "go"))
	if got := field(t, evs[2].data, "delta", "text"); got != "FIRST" {
		t.Errorf("first main request after side calls got %q, want the first turn", got)
	}
	var kinds []string
	for _, e := range srv.Log("k") {
		kinds = append(kinds, e.Kind)
	}
	if got, want := strings.Join(kinds, " "), "side side count side side side count probe main"; got != want {
		t.Errorf("log kinds = %s, want %s", got, want)
	}
}

// TestUsageLimitInEachAPIsShape: a Limit turn answers 429 the way each API
// says an account is over its limit, with the reset time where it says one.
func TestUsageLimitInEachAPIsShape(t *testing.T) {
	srv := start(t)
	from := time.Now().Add(time.Hour).Unix()
	for i, want := range []string{"rate_limit_error", `"resets_at":`, "insufficient_quota", "PerDay"} {
		assign(t, srv, "l", Turn{UsageLimit(time.Hour)})
		resp := post(t, srv.URL("l")+apis[i].path, `{"stream":true,"tools":[{}]}`)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 429 || !strings.Contains(string(b), want) {
			t.Errorf("%s limit turn: %s %s, want 429 with %s", apis[i].path, resp.Status, b, want)
		}
		if i == 0 {
			got, err := strconv.ParseInt(resp.Header.Get("anthropic-ratelimit-unified-reset"), 10, 64)
			if to := time.Now().Add(time.Hour).Unix(); err != nil || got < from || got > to {
				t.Errorf("anthropic reset header %d (%v), want an hour from now, %d to %d", got, err, from, to)
			}
		}
	}
}

// TestKeysAreIsolated: two sessions on one server keep their own script and log.
func TestKeysAreIsolated(t *testing.T) {
	srv := start(t)
	assign(t, srv, "a", Turn{Text("from a")})
	assign(t, srv, "b", Turn{Text("from b")})
	a := apis[0]
	for _, key := range []string{"a", "b"} {
		evs := stream(t, srv.URL(key)+a.path, fmt.Sprintf(a.main, "hi"))
		if got := field(t, evs[2].data, "delta", "text").(string) + field(t, evs[3].data, "delta", "text").(string); got != "from "+key {
			t.Errorf("key %s got %q", key, got)
		}
	}
	if la, lb := srv.Log("a"), srv.Log("b"); len(la) != 1 || len(lb) != 1 || la[0].Turn != 1 || lb[0].Turn != 1 {
		t.Errorf("logs a=%v b=%v, want one first-turn request each", la, lb)
	}
	evs := stream(t, srv.URL("nobody")+a.path, fmt.Sprintf(a.main, "hi"))
	if got := field(t, evs[2].data, "delta", "text"); !strings.Contains(got.(string), "modelserver: ") {
		t.Errorf("unassigned key got %q, want a visible modelserver note", got)
	}
	if l := srv.Log("nobody"); len(l) != 1 || l[0].Kind != "unscripted" {
		t.Errorf("unassigned key log = %v, want one unscripted entry", l)
	}
}

// TestAdminAssignAndLog drives the HTTP admin endpoints a harness in another
// process would use, and checks the log keeps the body but not the key.
func TestAdminAssignAndLog(t *testing.T) {
	srv := start(t)
	if err := srv.Add(Scenario{Name: "lib", Turns: []Turn{{Text("from the library")}}}); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{"key":"x","scenario":{"name":"inline","turns":[[{"tool":{"name":"AskUserQuestion","input":{"q":"?"}}}]]}}`,
		`{"key":"y","name":"lib"}`,
	} {
		resp := post(t, srv.base+"/admin/assign", body)
		if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
			t.Fatalf("assign %s: %s %s", body, resp.Status, b)
		}
	}
	for body, code := range map[string]int{
		`{"key":"z","name":"missing"}`: http.StatusNotFound,
		`{"key":"z","scenario":{"name":"bad","turns":[[{"text":"a","error":529}]]}}`: http.StatusUnprocessableEntity,
		`{"key":"a/b","name":"lib"}`: http.StatusBadRequest,
	} {
		if resp := post(t, srv.base+"/admin/assign", body); resp.StatusCode != code {
			t.Errorf("assign %s: %s, want %d", body, resp.Status, code)
		}
	}
	a := apis[0]
	req, _ := http.NewRequest(http.MethodPost, srv.URL("x")+a.path, strings.NewReader(fmt.Sprintf(a.main, "ask")))
	req.Header.Set("X-Api-Key", "sk-secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	evs := readSSE(t, resp.Body)
	resp.Body.Close()
	if name := field(t, evs[1].data, "content_block", "name"); name != "AskUserQuestion" {
		t.Errorf("raw tool name = %v", name)
	}
	if in := field(t, evs[2].data, "delta", "partial_json"); in != `{"q":"?"}` {
		t.Errorf("raw tool input = %v, want it as given", in)
	}
	evs = stream(t, srv.URL("lib")+a.path, fmt.Sprintf(a.main, "hi"))
	if len(evs) == 0 || !strings.Contains(evs[2].data, "from ") {
		t.Errorf("scenario added by name is not served at /s/lib: %v", evs)
	}

	logResp := post(t, srv.base+"/admin/log?key=x", "")
	var log []Entry
	if err := json.NewDecoder(logResp.Body).Decode(&log); err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || log[0].Path != "/v1/messages" || log[0].Query != "beta=true" || log[0].Kind != "main" {
		t.Fatalf("log = %+v, want the one main request", log)
	}
	if !json.Valid(log[0].Body) || !strings.Contains(string(log[0].Body), `"ask"`) {
		t.Errorf("logged body = %s, want the request body", log[0].Body)
	}
	if _, ok := log[0].Header["X-Api-Key"]; ok {
		t.Errorf("log kept the API key header: %v", log[0].Header)
	}
}

func TestValidateRejects(t *testing.T) {
	for name, turn := range map[string]Turn{
		"empty turn":          {},
		"two kinds":           {{Text: "a", DelayMS: 5}},
		"error after text":    {Text("a"), Fail(529)},
		"error not last":      {Fail(529), Text("a")},
		"not an error status": {Fail(200)},
		"chunk_ms alone":      {{ChunkMS: 5}},
		"shell and name":      {{Tool: &ToolCall{Shell: "ls", Name: "Bash"}}},
		"bad input":           {{Tool: &ToolCall{Name: "Bash", Input: json.RawMessage("{")}}},
	} {
		if err := (Scenario{Name: name, Turns: []Turn{turn}}).Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := (Scenario{Turns: []Turn{{Pause(5 * time.Millisecond), Fail(529)}}}).Validate(); err != nil {
		t.Errorf("delay then error: %v", err)
	}
}

// TestMatchTurnWaitsForItsRequest: a subagent and its parent ask side by
// side in either order; the parent's turn (its body holds a tool_result)
// goes to the parent whichever asks first, and a turn for neither in
// particular to the other.
func TestMatchTurnWaitsForItsRequest(t *testing.T) {
	a := apis[0]
	text := func(srv *Server, body string) string {
		evs := stream(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, body))
		return field(t, evs[2].data, "delta", "text").(string)
	}
	for _, order := range [][]string{{"sub", "parent tool_result"}, {"parent tool_result", "sub"}} {
		srv := start(t)
		assign(t, srv, "k", Turn{Matching("tool_result"), Text("parent")}, Turn{Text("child")}, Turn{Text("last")})
		got := map[string]string{}
		for _, who := range order {
			got[who] = text(srv, who)
		}
		if got["sub"] != "child" || got["parent tool_result"] != "parent" {
			t.Errorf("order %v: got %v", order, got)
		}
		if got := text(srv, "again tool_result"); got != "last" {
			t.Errorf("order %v: the next request got %q, want the last turn", order, got)
		}
	}
	if err := (Scenario{Name: "x", Turns: []Turn{{Text("a"), Matching("b")}}}).Validate(); err == nil {
		t.Error("a match that is not a turn's first step was taken")
	}
}
