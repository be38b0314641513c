package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"lanes/state"
)

// profiles takes the [profiles.NAME] tables.
func (r *reader) profiles(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		r.problem([]string{"profiles"}, "want tables ([profiles.NAME]), not %s", kindOf(v))
		return
	}
	for _, name := range sortedKeys(m) {
		path := []string{"profiles", name}
		if !profileName().MatchString(name) {
			r.problem(path, "a profile's name is letters, digits, - and _ (as `lanes new --profile NAME` takes it), not %q", name)
			continue
		}
		t, ok := m[name].(map[string]any)
		if !ok {
			r.problem(path, "want a table ([profiles.%s]), not %s", name, kindOf(m[name]))
			continue
		}
		line, _ := r.place(path...)
		p := Profile{Name: name, Line: line}
		if r.profile(&p, path, t) {
			r.f.Profiles = append(r.f.Profiles, p)
		}
	}
}

// profile fills p from its table; false when a value is wrong (each said).
func (r *reader) profile(p *Profile, path []string, t map[string]any) bool {
	good := true
	bad := func(key, format string, args ...any) {
		r.problem(append(slices.Clone(path), key), format, args...)
		good = false
	}
	for _, k := range sortedKeys(t) {
		v := t[k]
		switch k {
		case "agent", "dir":
			s, ok := v.(string)
			switch {
			case !ok:
				bad(k, "want a string (in quotes), not %s", kindOf(v))
			case k == "agent" && checkAgent(Value{Text: s}) != nil:
				bad(k, "%v", checkAgent(Value{Text: s}))
			case k == "agent":
				p.Agent = s
			case !filepath.IsAbs(expandHome(s, r.home)):
				bad(k, "want an absolute directory (or ~/…), not %q", s)
			default:
				p.Dir = expandHome(s, r.home)
			}
		case "args":
			list, err := stringList(v)
			if err != nil {
				bad(k, "%v", err)
			}
			p.Args = list
		case "env":
			env, err := envOf(v)
			if err != nil {
				bad(k, "%v", err)
			}
			p.Env = env
		case "budget":
			s, _ := v.(string)
			b, err := state.ParseBudget(s)
			switch {
			case s == "":
				bad(k, "want tokens (\"2M\") or dollars (\"$20\") in quotes, not %s", kindOf(v))
			case err != nil:
				bad(k, "%v", err)
			}
			p.Budget = b
		case "worktree":
			b, ok := v.(bool)
			if !ok {
				bad(k, "want true or false, not %s", kindOf(v))
			}
			p.Worktree = &b
		default:
			r.unknown(append(slices.Clone(path), k), profileKeys)
		}
	}
	if good && p.Agent == "custom" && len(p.Args) == 0 {
		bad("agent", "a custom profile runs its args: give args = [\"CMD\", …]")
	}
	return good
}

// envOf is an env table as KEY=VALUE, sorted by key. lanes' own
// variables are lanes' to set.
func envOf(v any) ([]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a table of variables (env = { NAME = \"value\" }), not %s", kindOf(v))
	}
	var out []string
	for _, k := range sortedKeys(m) {
		s, ok := m[k].(string)
		switch {
		case !envKey().MatchString(k):
			return nil, fmt.Errorf("%q is not a variable name (letters, digits and _)", k)
		case strings.HasPrefix(k, "LANES_") || k == "TMUX" || k == "TMUX_PANE":
			return nil, fmt.Errorf("%s is lanes' and tmux's to set, not a profile's", k)
		case !ok:
			return nil, fmt.Errorf("%s: want a string (in quotes), not %s", k, kindOf(m[k]))
		case strings.ContainsRune(s, 0):
			return nil, fmt.Errorf("%s holds a NUL", k)
		}
		out = append(out, k+"="+s)
	}
	return out, nil
}
