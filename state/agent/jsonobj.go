package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// An order-preserving JSON tree, so that merging lanes' hooks into a user's
// settings file keeps every other key where it was (a diff shows only what
// lanes added). Values are *object, []any, string, json.Number, bool or nil.

type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// set replaces k's value in place, or appends k.
func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			return
		}
	}
}

func jsonInt(n int) json.Number { return json.Number(strconv.Itoa(n)) }

// decodeObject parses a JSON document whose top level is an object. Empty
// or blank input is an empty object.
func decodeObject(b []byte) (*object, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return newObject(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the top-level value")
	}
	o, ok := v.(*object)
	if !ok {
		return nil, errors.New("the top level is not a JSON object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, err
			}
			return o, nil
		case '[':
			a := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, err
			}
			return a, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil // string, json.Number, bool, nil
	}
}

// encodeJSON writes v indented by two spaces, with a final newline.
func encodeJSON(v any) []byte { return encodeJSONIndent(v, "  ") }

// encodeJSONIndent writes v with one level of indentation being unit.
func encodeJSONIndent(v any, unit string) []byte {
	var b bytes.Buffer
	w := jsonWriter{&b, unit}
	w.value(v, "")
	b.WriteByte('\n')
	return b.Bytes()
}

// detectIndent is the indentation unit of an existing JSON document: the
// leading blanks of its first indented line, else two spaces.
func detectIndent(doc []byte) string {
	for _, line := range bytes.Split(doc, []byte("\n"))[1:] {
		if n := len(line) - len(bytes.TrimLeft(line, " \t")); n > 0 && n < len(line) {
			return string(line[:n])
		}
	}
	return "  "
}

type jsonWriter struct {
	b    *bytes.Buffer
	unit string
}

func (w jsonWriter) value(v any, indent string) {
	b := w.b
	switch t := v.(type) {
	case *object:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range t.keys {
			b.WriteString(indent + w.unit)
			writeString(b, k)
			b.WriteString(": ")
			w.value(t.vals[k], indent+w.unit)
			if i < len(t.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			b.WriteString(indent + w.unit)
			w.value(e, indent+w.unit)
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("agent: cannot encode %T", v))
	}
}

func writeString(b *bytes.Buffer, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func mustJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// mergeHooks puts lanes' hooks for agent into a settings object of the
// shape every agent here shares:
//
//	{"hooks": {"Event": [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]}}
//
// Every handler lanes wrote before (for this agent, injected or installed,
// whatever binary path) is removed first, along with groups and events that
// only held lanes' handlers; then one group per spec is appended to its
// event. Every other key, event, group and handler is kept in place, so
// merging twice gives the same document.
func mergeHooks(root *object, agent string, specs []hookSpec, handler func() *object) error {
	hooks := newObject()
	if v, ok := root.get("hooks"); ok && v != nil {
		h, isObj := v.(*object)
		if !isObj {
			return errors.New(`"hooks" is not a JSON object`)
		}
		hooks = h
	}
	wanted := map[string]bool{}
	for _, s := range specs {
		wanted[s.Event] = true
	}
	for _, ev := range append([]string(nil), hooks.keys...) {
		groups, ok := hooks.vals[ev].([]any)
		if !ok {
			if wanted[ev] {
				return fmt.Errorf(`"hooks.%s" is not a JSON array`, ev)
			}
			continue // not ours to judge
		}
		kept, removed := stripLanes(groups, agent)
		if removed && len(kept) == 0 && !wanted[ev] {
			hooks.del(ev)
			continue
		}
		hooks.set(ev, kept)
	}
	for _, s := range specs {
		g := newObject()
		if s.Matcher != "" {
			g.set("matcher", s.Matcher)
		}
		g.set("hooks", []any{handler()})
		groups, _ := hooks.vals[s.Event].([]any)
		hooks.set(s.Event, append(groups, g))
	}
	root.set("hooks", hooks)
	return nil
}

// stripLanes removes lanes' handlers from hook groups, dropping groups left
// empty by it; groups it cannot read are kept as they are.
func stripLanes(groups []any, agent string) (kept []any, removed bool) {
	kept = []any{}
	for _, g := range groups {
		gobj, ok := g.(*object)
		if !ok {
			kept = append(kept, g)
			continue
		}
		hs, ok := gobj.vals["hooks"].([]any)
		if !ok {
			kept = append(kept, g)
			continue
		}
		var left []any
		dropped := false
		for _, h := range hs {
			if isLanesHandler(h, agent) {
				dropped = true
				continue
			}
			left = append(left, h)
		}
		if !dropped {
			kept = append(kept, g)
			continue
		}
		removed = true
		if len(left) > 0 {
			gobj.set("hooks", left)
			kept = append(kept, gobj)
		}
	}
	return kept, removed
}

func isLanesHandler(h any, agent string) bool {
	o, ok := h.(*object)
	if !ok {
		return false
	}
	cmd, _ := o.vals["command"].(string)
	return isLanesCommand(cmd, agent)
}

// hasAllHooks reports whether a settings object holds an installed lanes
// handler for every spec's event.
func hasAllHooks(root *object, agent string, specs []hookSpec) bool {
	hv, _ := root.get("hooks")
	hooks, ok := hv.(*object)
	if !ok {
		return false
	}
	installed := func(h any) bool {
		if !isLanesHandler(h, agent) {
			return false
		}
		cmd, _ := h.(*object).vals["command"].(string)
		return strings.HasSuffix(strings.TrimSpace(cmd), " "+InstalledFlag)
	}
	for _, s := range specs {
		groups, _ := hooks.vals[s.Event].([]any)
		if !slices.ContainsFunc(groups, func(g any) bool {
			gobj, ok := g.(*object)
			if !ok {
				return false
			}
			hs, _ := gobj.vals["hooks"].([]any)
			return slices.ContainsFunc(hs, installed)
		}) {
			return false
		}
	}
	return true
}
