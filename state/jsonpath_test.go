package state

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestJSONAt(t *testing.T) {
	line := []byte(` {"a" : "x\"}{\\", "m":{"content":[{"t":"]}\\\""},{"u":{"usage":9}}],"usage":{"input_tokens":12,"n":null}}, "ts":"2026-12-04T12:00:00Z","f":1.5e-3,"e":"\u00e9"}`)
	for _, tt := range []struct {
		path []string
		want string
		ok   bool
	}{
		{[]string{"a"}, `"x\"}{\\"`, true},
		{[]string{"m", "usage", "input_tokens"}, `12`, true},
		{[]string{"m", "usage", "n"}, `null`, true},
		{[]string{"ts"}, `"2026-12-04T12:00:00Z"`, true},
		{[]string{"m", "nope"}, ``, false},
		{[]string{"a", "b"}, ``, false},
	} {
		got, ok := jsonAt(line, tt.path...)
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("jsonAt(%v) = %q, %v; want %q, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
	if u, _ := jsonAt(line, "m", "usage"); ints(u, "input_tokens")[0] != 12 {
		t.Errorf("input_tokens = %d", ints(u, "input_tokens")[0])
	}
	if f := jsonFloat(line, "f"); f != 0.0015 {
		t.Errorf("jsonFloat = %v", f)
	}
	if v, _ := jsonAt(line, "e"); str(v) != "" {
		t.Errorf("an escaped string read as %q, want none", str(v))
	}
	if a, _ := jsonAt(line, "a"); len(a) == 0 || string(a) == "null" {
		t.Error(`"a" read as none`)
	}
	if n, ok := jsonAt(line, "m", "usage", "n"); !ok || string(n) != "null" {
		t.Error(`"n" read as a value`)
	}
}

// The walk never panics or loops on any input, and on valid JSON finds
// what encoding/json finds.
func FuzzJSONAt(f *testing.F) {
	f.Add([]byte(`{"message":{"id":"m","usage":{"input_tokens":3}},"type":"assistant"}`), "message", "usage")
	f.Add([]byte(`{"a":"\\\\","b":[1,{"c":"}"}]}`), "b", "c")
	f.Add([]byte(`{"a":`), "a", "")
	f.Fuzz(func(t *testing.T, b []byte, k1, k2 string) {
		v, ok := jsonAt(b, k1)
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil || !json.Valid(b) {
			jsonAt(b, k1, k2)
			return
		}
		want, has := m[k1]
		if ok != has || ok && !reflect.DeepEqual(compact(v), compact(want)) && !dup(b, k1) {
			t.Fatalf("jsonAt(%q) = %q, %v; encoding/json %q, %v", k1, v, ok, want, has)
		}
	})
}

func compact(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// dup: the key is in b more than once (encoding/json keeps the last, the
// walk the first).
func dup(b []byte, key string) bool {
	n := 0
	d := json.NewDecoder(bytes.NewReader(b))
	tok, _ := d.Token()
	if tok != json.Delim('{') {
		return false
	}
	for d.More() {
		k, _ := d.Token()
		if k == key {
			n++
		}
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return false
		}
	}
	return n > 1
}

// No line of any agent's record, however made, panics a reading or gives
// a count below zero.
func FuzzReadUsage(f *testing.F) {
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":-3,"output_tokens":9}}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1,"cached_input_tokens":5}},"rate_limits":{"primary":{"used_percent":1e308}}}}`))
	f.Add([]byte(`{"type":"message","message":{"role":"assistant","usage":{"input":1,"cost":{"total":-1e300}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, a := range CodingAgents() {
			l, ok := ReadUsage(a, b)
			if ok && (l.Tokens.backwards() || l.Context < 0 || l.Window < 0) {
				t.Fatalf("%s read %+v", a, l)
			}
			for _, lim := range l.Limits {
				if !(lim.UsedPct >= 0 && lim.UsedPct <= 100) || lim.WindowMin < 0 {
					t.Fatalf("%s read limit %+v", a, lim)
				}
			}
		}
	})
}
