package modelserver

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSlowStreamCanBeCut: a harness interrupts an agent mid-turn, and the agent
// drops the stream. The server must stop that turn at once, both between
// slow chunks and inside a pause, rather than hold the handler for minutes.
func TestSlowStreamCanBeCut(t *testing.T) {
	for name, turn := range map[string]Turn{
		"slow text": {SlowText("one two three", time.Minute)},
		"pause":     {Text("one "), Pause(time.Minute), Text("never")},
	} {
		t.Run(name, func(t *testing.T) {
			srv := New()
			assign(t, srv, "k", turn)
			returned := make(chan struct{})
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(returned)
				srv.ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a := apis[0]
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/s/k"+a.path,
				strings.NewReader(fmt.Sprintf(a.main, "go")))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			lines := bufio.NewScanner(resp.Body)
			for lines.Scan() && !strings.Contains(lines.Text(), "text_delta") {
			}
			if !strings.Contains(lines.Text(), `"one "`) {
				t.Fatalf("first delta = %q, want the first chunk", lines.Text())
			}
			cut := time.Now()
			cancel()
			select {
			case <-returned:
				t.Logf("handler returned %v after the client cut the stream", time.Since(cut))
			case <-time.After(10 * time.Second):
				t.Fatal("handler still streaming 10 s after the client cut the stream")
			}
		})
	}
}
