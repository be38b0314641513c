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
	for i := 0; i < 2; i++ {
		resp := post(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, "go"))
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 529 {
			t.Fatalf("attempt %d: status %s, want 529: %s", i+1, resp.Status, b)
		}
		if typ := field(t, string(b), "error", "type"); typ != "overloaded_error" || field(t, string(b), "type") != "error" {
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
	for i := 0; i < 3; i++ {
		resp := post(t, srv.URL("k")+a.path, fmt.Sprintf(a.main, "go"))
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 429 {
			t.Fatalf("attempt %d: status %s, want 429: %s", i+1, resp.Status, b)
		}
	}
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
