package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// How long `lanes hook` waits for its payload on stdin. Agents write it at
// once; a caller that leaves stdin open and silent must not hang the hook,
// nor an agent that waits on its hooks. Once bytes arrive, the payload is
// being written and is waited for whole (up to payloadWhole), but never for
// EOF: the hook reads one JSON value.
const (
	payloadFirstByte = 2 * time.Second  // with EVENT given: no byte by then, no payload
	payloadWhole     = 10 * time.Second // the longest wait for a payload, EVENT or not
	maxPayloadBytes  = 16 << 20
)

// payload is the hook's JSON: the last argument for Codex notify, else
// stdin unless it is a terminal or the agent is generic. nil: none.
func (a *app) payload(agent, arg string, haveEvent bool) ([]byte, error) {
	if arg != "" {
		return []byte(arg), nil
	}
	if agent == "generic" {
		return nil, nil
	}
	if a.stdinTerminal() != nil {
		return nil, nil // a person at a terminal, not a hook's payload
	}
	if !haveEvent {
		return readPayload(a.stdin, payloadWhole)
	}
	raw, err := readPayload(a.stdin, payloadFirstByte)
	if errors.Is(err, errNoPayload) {
		return nil, nil // the EVENT argument is enough
	}
	return raw, err
}

// errNoPayload: no byte arrived on stdin in time.
var errNoPayload = errors.New("no payload on stdin")

// readPayload reads one JSON value from r; nil when r ends first. When no
// byte arrives within first it gives up with errNoPayload. The reading
// goroutine may stay blocked on r: the hook exits right after.
func readPayload(r io.Reader, first time.Duration) ([]byte, error) {
	type result struct {
		raw json.RawMessage
		err error
	}
	done := make(chan result, 1)
	arrived := make(chan struct{})
	go func() {
		var res result
		res.err = json.NewDecoder(&noticeRead{r: io.LimitReader(r, maxPayloadBytes), first: arrived}).Decode(&res.raw)
		done <- res
	}()
	start := time.Now()
	wait := time.NewTimer(first)
	defer wait.Stop()
	var res result
	select {
	case res = <-done:
	case <-wait.C:
		return nil, fmt.Errorf("%w within %v", errNoPayload, first)
	case <-arrived:
		select {
		case res = <-done:
		case <-time.After(payloadWhole - time.Since(start)):
			return nil, fmt.Errorf("the payload on stdin did not end within %v", payloadWhole)
		}
	}
	switch {
	case errors.Is(res.err, io.EOF):
		return nil, nil // stdin empty or closed: no payload
	case res.err != nil:
		return nil, fmt.Errorf("payload is not JSON: %v", res.err)
	}
	return res.raw, nil
}

// noticeRead closes first when the first bytes come through.
type noticeRead struct {
	r     io.Reader
	first chan struct{}
	seen  bool
}

func (n *noticeRead) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	if k > 0 && !n.seen {
		n.seen = true
		close(n.first)
	}
	return k, err
}
