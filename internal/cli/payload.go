package cli

import (
	"bytes"
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
		raw  json.RawMessage
		err  error
		seen *bytes.Buffer // what the decoder read: salvaged when it is cut
	}
	done := make(chan result, 1)
	arrived := make(chan struct{})
	go func() {
		res := result{seen: &bytes.Buffer{}}
		res.err = json.NewDecoder(io.TeeReader(&noticeRead{r: io.LimitReader(r, maxPayloadBytes), first: arrived}, res.seen)).Decode(&res.raw)
		if res.err != nil && res.seen.Len() >= maxPayloadBytes {
			go func() { _, _ = io.Copy(io.Discard, r) }() // the rest of stdin is drained, not left to the agent
		}
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
	if res.err != nil && res.seen.Len() >= maxPayloadBytes {
		// Over the bound (a Write of a large file): the fields read before
		// the cut still say what the agent asks, so its dialog shows. Read
		// here, past the wait: the deadline is for stdin, not for this.
		res.raw, res.err = salvagePayload(res.seen.Bytes()), nil
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

// salvagePayload is the object prefix (a payload cut at maxPayloadBytes)
// began, with the members that ended before the cut: the top level's
// scalars, and the scalars of its objects (tool_input, details) up to the
// cut. A member cut short is left out: a tool's long content, say.
func salvagePayload(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	out := map[string]any{}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		key, ok := k.(string)
		if err != nil || !ok {
			break
		}
		v, err := dec.Token()
		if err != nil {
			break
		}
		switch v {
		case json.Delim('{'):
			inner := map[string]any{}
			out[key] = inner
			if !salvageObject(dec, inner) {
				b, _ := json.Marshal(out)
				return b
			}
		case json.Delim('['):
			var skip []json.RawMessage
			for dec.More() {
				var e json.RawMessage
				if dec.Decode(&e) != nil {
					b, _ := json.Marshal(out)
					return b
				}
				skip = append(skip, e)
			}
			if _, err := dec.Token(); err != nil {
				b, _ := json.Marshal(out)
				return b
			}
			out[key] = skip
		default:
			out[key] = v
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// salvageObject reads an object's scalar members into into, up to its end
// (true) or the cut (false); a nested value is skipped.
func salvageObject(dec *json.Decoder, into map[string]any) bool {
	for dec.More() {
		k, err := dec.Token()
		key, ok := k.(string)
		if err != nil || !ok {
			return false
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return false
		}
		var scalar any
		if json.Unmarshal(v, &scalar) == nil {
			switch scalar.(type) {
			case map[string]any, []any:
				continue
			}
			into[key] = scalar
		}
	}
	_, err := dec.Token()
	return err == nil
}
