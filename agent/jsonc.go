package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/tailscale/hujson"
)

// Lanes' hooks in an agent's JSON settings file, patched in place with
// hujson: comments, key order, escapes, duplicate keys, trailing commas and
// layout stay byte for byte, so a diff shows only what lanes added, and
// removing lanes' hooks gives back the file as it was. What lanes inserts is
// laid out like its neighbours (one line for a one-line file, else the
// file's own indentation).

// hookGroup and hookHandler are the shape every agent here shares:
//
//	{"hooks": {"Event": [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]}}
type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookHandler `json:"hooks"`
}

type hookHandler struct {
	Name    string `json:"name,omitempty"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// errNotJSON: the file is neither JSON nor JSONC (JSON with comments and
// trailing commas), so lanes will not rewrite it.
var errNotJSON = errors.New("not JSON or JSONC (lanes will not rewrite it; fix the file or add the hooks by hand)")

// patchHooks is doc with lanes' hooks for agent put in by mergeHooks. An
// empty or blank doc is an empty object.
func patchHooks(doc []byte, agent string, specs []hookSpec, handler hookHandler) ([]byte, error) {
	l := layout{multi: true, unit: "  "}
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	} else {
		l = layout{multi: bytes.ContainsRune(bytes.TrimSpace(doc), '\n'), unit: detectIndent(doc)}
	}
	v, err := parseObject(doc)
	if err != nil {
		return nil, err
	}
	ours := func(cmd string) bool { return isLanesCommand(cmd, agent) }
	if err := mergeHooks(v.Value.(*hujson.Object), l, ours, specs, handler); err != nil {
		return nil, err
	}
	return v.Pack(), nil
}

// parseObject parses a JSON or JSONC document whose top level is an object.
func parseObject(doc []byte) (hujson.Value, error) {
	v, err := hujson.Parse(bytes.Clone(doc)) // the tree shares its bytes, and lanes edits it
	if err != nil {
		return v, fmt.Errorf("%w: %w", errNotJSON, err)
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return v, fmt.Errorf("%w: the top level is not an object", errNotJSON)
	}
	return v, nil
}

// detectIndent is the indentation unit of an existing document: the
// leading blanks of its first indented line, else two spaces.
func detectIndent(doc []byte) string {
	for _, line := range bytes.Split(doc, []byte("\n"))[1:] {
		if n := len(line) - len(bytes.TrimLeft(line, " \t")); n > 0 && n < len(line) {
			return string(line[:n])
		}
	}
	return "  "
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

// mergeHooks puts lanes' hooks into a settings object. Every handler whose
// command ours claims (patchHooks: any lanes wrote for this agent, injected
// or installed, whatever binary path) is removed first, along with groups, events and a
// "hooks" object that only held lanes' handlers; then one group per spec is
// appended to its event. Every other member and element is kept in place,
// so merging twice gives the same document, and merging no specs removes
// lanes' hooks. Of duplicate names the last counts, as in the agents' own
// JSON readers.
func mergeHooks(root *hujson.Object, l layout, ours func(cmd string) bool, specs []hookSpec, handler hookHandler) error {
	hv := member(root, "hooks")
	switch {
	case (hv == nil || hv.Value.Kind() == 'n') && len(specs) == 0:
		return nil // no hooks, and none to add
	case hv == nil:
		hv = appendItem(root, "", l, "hooks", struct{}{})
	case hv.Value.Kind() == 'n':
		hv.Value = &hujson.Object{} // null: no hooks yet
	}
	hooks, ok := hv.Value.(*hujson.Object)
	if !ok {
		return errors.New(`"hooks" is not a JSON object`)
	}
	wanted := map[string]bool{}
	for _, s := range specs {
		wanted[s.Event] = true
	}
	removed := false
	for i := 0; i < len(hooks.Members); i++ {
		ev := hooks.Members[i].Name.Value.(hujson.Literal).String()
		groups, ok := hooks.Members[i].Value.Value.(*hujson.Array)
		if !ok {
			if wanted[ev] {
				return fmt.Errorf(`"hooks.%s" is not a JSON array`, ev)
			}
			continue // not ours to judge
		}
		if stripLanes(groups, ours) {
			removed = true
			if len(groups.Elements) == 0 && !wanted[ev] {
				removeItem(hooks, i)
				i--
			}
		}
	}
	hooksInd := itemIndent(root, "", l)
	for _, s := range specs {
		ev := member(hooks, s.Event)
		if ev == nil {
			ev = appendItem(hooks, hooksInd, l, s.Event, []any{})
		}
		groups := ev.Value.(*hujson.Array) // checked above
		g := hookGroup{Matcher: s.Matcher, Hooks: []hookHandler{handler}}
		appendItem(groups, itemIndent(hooks, hooksInd, l), l, "", g)
	}
	if removed && len(specs) == 0 && len(hooks.Members) == 0 {
		removeItem(root, memberIndex(root, "hooks"))
	}
	return nil
}

// stripLanes removes the handlers whose command ours claims from hook
// groups, and the groups left empty by it; groups it cannot read are kept
// as they are.
func stripLanes(groups *hujson.Array, ours func(cmd string) bool) (removed bool) {
	for i := 0; i < len(groups.Elements); i++ {
		g, ok := groups.Elements[i].Value.(*hujson.Object)
		if !ok {
			continue
		}
		hv := member(g, "hooks")
		if hv == nil {
			continue
		}
		hs, ok := hv.Value.(*hujson.Array)
		if !ok {
			continue
		}
		dropped := false
		for j := 0; j < len(hs.Elements); j++ {
			if ours(handlerCommand(&hs.Elements[j])) {
				removeItem(hs, j)
				j--
				dropped = true
			}
		}
		if dropped {
			removed = true
			if len(hs.Elements) == 0 {
				removeItem(groups, i)
				i--
			}
		}
	}
	return removed
}

// handlerCommand is a handler's command string, "" when it has none.
func handlerCommand(h *hujson.Value) string {
	o, ok := h.Value.(*hujson.Object)
	if !ok {
		return ""
	}
	c := member(o, "command")
	if c == nil || c.Value.Kind() != '"' {
		return ""
	}
	return c.Value.(hujson.Literal).String()
}

// hasAllHooks reports whether a settings object holds an installed lanes
// handler for every spec's event.
func hasAllHooks(root *hujson.Object, agent string, specs []hookSpec) bool {
	hv := member(root, "hooks")
	if hv == nil {
		return false
	}
	hooks, ok := hv.Value.(*hujson.Object)
	if !ok {
		return false
	}
	installed := func(h hujson.Value) bool {
		_, ok := installedBinary(handlerCommand(&h), agent)
		return ok
	}
	for _, s := range specs {
		ev := member(hooks, s.Event)
		if ev == nil {
			return false
		}
		groups, _ := ev.Value.(*hujson.Array)
		if groups == nil || !slices.ContainsFunc(groups.Elements, func(g hujson.Value) bool {
			gobj, _ := g.Value.(*hujson.Object)
			if gobj == nil {
				return false
			}
			hv := member(gobj, "hooks")
			if hv == nil {
				return false
			}
			hs, _ := hv.Value.(*hujson.Array)
			return hs != nil && slices.ContainsFunc(hs.Elements, installed)
		}) {
			return false
		}
	}
	return true
}
