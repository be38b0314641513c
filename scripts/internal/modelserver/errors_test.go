package modelserver

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestErrorTurnAndRetry: the 529 turn answers in the API's error shape, an
// agent's retry (same body) gets it again, and the next prompt moves on.
func TestErrorTurnAndRetry(t *testing.T) {
	srv := start(t)
	assign(t, srv, "k", Turn{Fail(529)}, Turn{Text("recovered")})
	a := apis[0]
	for i, b := range refusedEach(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, "go"), 2, 529) {
		if typ := field(t, b, "error", "type"); typ != "overloaded_error" || field(t, b, "type") != "error" {
			t.Errorf("attempt %d: body %s, want an Anthropic overloaded_error", i+1, b)
		}
	}
	evs := stream(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, "try again"))
	if got := field(t, evs[2].data, "delta", "text"); got != "recovered" {
		t.Errorf("after the error, a new prompt got %q, want the second turn", got)
	}
	var got []string
	for _, e := range srv.Log("k") {
		got = append(got, fmt.Sprintf("%s:%d", e.Kind, e.Turn))
	}
	if want := "main:1 retry:1 main:2"; strings.Join(got, " ") != want {
		t.Errorf("log = %v, want %s", got, want)
	}
	for _, c := range []struct {
		path, want string
		code       int
	}{
		{apis[1].path, "rate_limit_exceeded", 429},
		{apis[2].path, "server_error", 500},
		{apis[3].path, "RESOURCE_EXHAUSTED", 429},
	} {
		assign(t, srv, "e", Turn{Fail(c.code)})
		resp := post(t, srv.URL("e")+c.path, `{"stream":true,"tools":[{}]}`)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != c.code || !strings.Contains(string(b), c.want) {
			t.Errorf("%s error turn: %s %s, want %d with %s", c.path, resp.Status, b, c.code, c.want)
		}
	}
}

// TestErrorThenRecover: a recovering error answers the request and as many
// retries as it says; the retry after them gets the next turn, as a main
// request, and a new prompt the one after.
func TestErrorThenRecover(t *testing.T) {
	srv := start(t)
	assign(t, srv, "k", Turn{FailThenRecover(429, 2)}, Turn{Text("back")}, Turn{Text("next")})
	a := apis[0]
	refusedEach(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, "go"), 3, 429)
	for _, c := range []struct{ prompt, want string }{{"go", "back"}, {"and", "next"}} {
		evs := stream(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, c.prompt))
		if got := field(t, evs[2].data, "delta", "text"); got != c.want {
			t.Errorf("%q got %q, want %q", c.prompt, got, c.want)
		}
	}
	var got []string
	for _, e := range srv.Log("k") {
		got = append(got, fmt.Sprintf("%s:%d", e.Kind, e.Turn))
	}
	if want := "main:1 retry:1 retry:1 main:2 main:3"; strings.Join(got, " ") != want {
		t.Errorf("log = %v, want %s", got, want)
	}
	if err := (Scenario{Name: "x", Turns: []Turn{{Step{Text: "a", Recover: 1}}}}).Validate(); err == nil {
		t.Error("recover on a text step validated")
	}
}

// refusedEach posts body to url n times, as an agent retrying it, and
// requires status code each time; it returns the bodies.
func refusedEach(t *testing.T, url, body string, n, code int) []string {
	t.Helper()
	var out []string
	for i := range n {
		resp := post(t, url, body)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != code {
			t.Fatalf("attempt %d: status %s, want %d: %s", i+1, resp.Status, code, b)
		}
		out = append(out, string(b))
	}
	return out
}
