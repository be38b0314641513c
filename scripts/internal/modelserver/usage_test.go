package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// wireUsage reads the usage a turn's stream reported, in the API's own
// field names, flattened: "a.b" for a nested field.
var wireUsage = map[string]func(t *testing.T, evs []event) map[string]any{
	"anthropic": func(t *testing.T, evs []event) map[string]any {
		m := flat(field(t, evs[0].data, "message", "usage"), "")
		m["delta.output_tokens"] = field(t, evs[len(evs)-2].data, "usage", "output_tokens")
		return m
	},
	"responses": func(t *testing.T, evs []event) map[string]any {
		return flat(field(t, evs[len(evs)-1].data, "response", "usage"), "")
	},
	"chat": func(t *testing.T, evs []event) map[string]any {
		return flat(field(t, evs[len(evs)-2].data, "usage"), "")
	},
	"gemini": func(t *testing.T, evs []event) map[string]any {
		return flat(field(t, evs[len(evs)-1].data, "usageMetadata"), "")
	},
}

// wantUsage is each API's shape of the turn-k numbers: 1000k+7 uncached
// input, 300k cache read, 50k cache write (Anthropic), 40k+3 output;
// OpenAI and Gemini count the cached part inside the input.
func wantUsage(api string, k int) string {
	in, read, write, out := 1000*k+7, 300*k, 50*k, 40*k+3
	switch api {
	case "anthropic":
		return fmt.Sprintf("map[cache_creation_input_tokens:%d cache_read_input_tokens:%d delta.output_tokens:%d input_tokens:%d output_tokens:1]",
			write, read, out, in)
	case "responses":
		return fmt.Sprintf("map[input_tokens:%d input_tokens_details.cached_tokens:%d output_tokens:%d output_tokens_details.reasoning_tokens:0 total_tokens:%d]",
			in+read, read, out, in+read+out)
	case "chat":
		return fmt.Sprintf("map[completion_tokens:%d prompt_tokens:%d prompt_tokens_details.cached_tokens:%d total_tokens:%d]",
			out, in+read, read, in+read+out)
	}
	return fmt.Sprintf("map[cachedContentTokenCount:%d candidatesTokenCount:%d promptTokenCount:%d thoughtsTokenCount:0 totalTokenCount:%d]",
		read, out, in+read, in+read+out)
}

func flat(v any, prefix string) map[string]any {
	out := map[string]any{}
	for k, x := range v.(map[string]any) {
		if sub, ok := x.(map[string]any); ok {
			for k2, y := range flat(sub, "") {
				out[prefix+k+"."+k2] = y
			}
			continue
		}
		out[prefix+k] = x
	}
	return out
}

// TestTurnsReportDistinctUsage: each main turn reports its own numbers in
// the API's shape, a retry the numbers of the turn it repeats, and the log
// keeps what each answer reported (side answers their small fixed usage).
func TestTurnsReportDistinctUsage(t *testing.T) {
	srv := start(t)
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			assign(t, srv, a.name, Turn{Shell("echo hi")}, Turn{Text("All done.")})
			for i, prompt := range []string{"one", "two", "two"} {
				evs := stream(t, srv.URL(a.name)+a.path, fmt.Sprintf(a.main, prompt))
				k := min(i+1, 2)
				if got, want := fmt.Sprint(wireUsage[a.name](t, evs)), wantUsage(a.name, k); got != want {
					t.Errorf("request %d usage:\n got %s\nwant %s", i+1, got, want)
				}
			}
			side := map[string]string{"anthropic": `{"stream":true}`, "responses": `{}`, "chat": `{}`,
				"gemini": `{"contents":[]}`}[a.name]
			if resp := post(t, srv.URL(a.name)+a.path, side); resp.StatusCode != http.StatusOK {
				t.Fatalf("side request: %s", resp.Status)
			}
			var got []string
			for _, e := range srv.Log(a.name) {
				got = append(got, fmt.Sprintf("%s:%d %+v", e.Kind, e.Turn, *e.Usage))
			}
			w := a.name == "anthropic"
			want := []string{fmt.Sprintf("main:1 %+v", turnUsage(1, w)), fmt.Sprintf("main:2 %+v", turnUsage(2, w)),
				fmt.Sprintf("retry:2 %+v", turnUsage(2, w)), fmt.Sprintf("side:0 %+v", sideUsage)}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("log:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestErrorsAndCountsLogNoUsage: an answer that reports no usage logs none.
func TestErrorsAndCountsLogNoUsage(t *testing.T) {
	srv := start(t)
	assign(t, srv, "k", Turn{Fail(529)})
	a := apis[0]
	post(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, "go"))
	post(t, srv.URL("k")+"/v1/messages/count_tokens", `{}`)
	for _, e := range srv.Log("k") {
		if e.Usage != nil {
			t.Errorf("%s entry logged usage %+v", e.Kind, *e.Usage)
		}
	}
}

// TestResponsesReportLimitWindows: every Responses answer, main or side,
// carries the rate-limit headers Codex reads; a scenario sets them.
func TestResponsesReportLimitWindows(t *testing.T) {
	srv := start(t)
	a := apis[1]
	assign(t, srv, "d", Turn{Text("hi")})
	scripted := &Limits{PrimaryUsed: 7.5, PrimaryWindowMin: 60, PrimaryResetIn: 120,
		SecondaryUsed: 100, SecondaryWindowMin: 1440, SecondaryResetIn: 10}
	if err := srv.Assign("s", Scenario{Name: "s", Turns: []Turn{{Text("hi")}}, Limits: scripted}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	for _, c := range []struct {
		key, body string
		want      Limits
	}{
		{"d", fmt.Sprintf(a.main, "hi"), DefaultLimits},
		{"d", `{"input":"title"}`, DefaultLimits},
		{"s", fmt.Sprintf(a.main, "hi"), *scripted},
	} {
		resp := post(t, srv.URL(c.key)+a.path, c.body)
		io.Copy(io.Discard, resp.Body)
		h := resp.Header
		for _, w := range []struct {
			name       string
			used       float64
			window, in int
		}{{"primary", c.want.PrimaryUsed, c.want.PrimaryWindowMin, c.want.PrimaryResetIn},
			{"secondary", c.want.SecondaryUsed, c.want.SecondaryWindowMin, c.want.SecondaryResetIn}} {
			p := "X-Codex-" + w.name + "-"
			at, _ := strconv.ParseInt(h.Get(p+"Reset-At"), 10, 64)
			if h.Get(p+"Used-Percent") != strconv.FormatFloat(w.used, 'f', -1, 64) || h.Get(p+"Window-Minutes") != strconv.Itoa(w.window) ||
				at < now+int64(w.in) || at > now+int64(w.in)+5 {
				t.Errorf("%s %s: %s headers %v, want %+v", c.key, c.body, w.name, h, w)
			}
		}
	}
	b, _ := json.Marshal(Scenario{Name: "x", Turns: []Turn{{Text("a")}}, Limits: scripted})
	var back Scenario
	if err := json.Unmarshal(b, &back); err != nil || back.Limits == nil || *back.Limits != *scripted {
		t.Errorf("limits do not survive JSON: %s → %+v (%v)", b, back.Limits, err)
	}
}
