package config

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"lanes/internal/fsafe"
	"lanes/internal/near"
	"lanes/state"
)

// maxSize bounds the file lanes reads (a config is a few hundred bytes).
const maxSize = 1 << 20

// Problem is one thing wrong in a file, where it is.
type Problem struct {
	Line, Col int
	Msg       string
}

// Error is what makes a file unusable: every problem in it, each
// FILE:LINE:COLUMN: what is wrong and what was expected.
type Error struct {
	Path     string
	Problems []Problem
}

func (e *Error) Error() string { return Says(e.Path, e.Problems) }

// Says is problems one a line, FILE:LINE:COLUMN: what.
func Says(path string, problems []Problem) string {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = fmt.Sprintf("%s:%d:%d: %s", path, p.Line, p.Col, p.Msg)
	}
	return strings.Join(lines, "\n")
}

// Read reads the file at path for the user uid whose home is home (for
// ~/ in paths). A missing file is every default. Warnings are the keys
// lanes does not know; err is an *Error for a file lanes cannot use (its
// settings are then none), or a plain error for one it cannot read or
// must not trust (another user may write it: its profiles are commands).
func Read(path, home string, uid int) (f *File, warnings []Problem, err error) {
	f = &File{Path: path, Values: map[string]Value{}}
	if path == "" {
		return f, nil, nil
	}
	data, err := readOwn(path, uid)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil, nil
	}
	if err != nil {
		return f, nil, err
	}
	f.Found = true
	got, warnings, problems := Parse(data, home)
	if len(problems) > 0 {
		return f, warnings, &Error{Path: path, Problems: problems}
	}
	got.Path, got.Found = path, true
	return got, warnings, nil
}

// readOwn reads path when it is a regular file of uid's that no one
// else may write, at most maxSize bytes.
func readOwn(path string, uid int) ([]byte, error) {
	// A link (dotfiles) is read as what it names; a FIFO there would hold
	// the open forever without O_NONBLOCK (then it is refused below).
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	fi, err := fh.Stat() // what was opened, not what the path names now
	if err != nil {
		return nil, err
	}
	switch {
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a file", path)
	case fsafe.Owner(fi) != uid:
		return nil, fmt.Errorf("%s belongs to %s, not you: lanes runs what its profiles say, so it reads only your own (remove it, or chown it)", path, fsafe.Who(fsafe.Owner(fi)))
	case fsafe.OthersMayWrite(path, fi, uid):
		return nil, fmt.Errorf("%s may be written by other users: lanes runs what its profiles say (chmod go-w %s)", path, path)
	case fi.Size() > maxSize:
		return nil, fmt.Errorf("%s is %d bytes: a config file is at most %d", path, fi.Size(), maxSize)
	}
	return io.ReadAll(io.LimitReader(fh, maxSize))
}

// Parse reads a file's text: its settings, the unknown keys (warnings)
// and what makes it unusable (problems).
func Parse(data []byte, home string) (f *File, warnings, problems []Problem) {
	f = &File{Values: map[string]Value{}}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return f, nil, []Problem{{line, col, strings.TrimPrefix(de.Error(), "toml: ")}}
		}
		return f, nil, []Problem{{1, 1, err.Error()}}
	}
	r := reader{f: f, at: positions(data), home: home}
	r.top(doc)
	byPlace := func(a, b Problem) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col)) }
	slices.SortStableFunc(r.warnings, byPlace)
	slices.SortStableFunc(r.problems, byPlace)
	return f, r.warnings, r.problems
}

// positions maps each key path (parts joined by \x1f) to where its key
// is: the keys of key-values and of table headers.
func positions(data []byte) map[string]unstable.Position {
	at := map[string]unstable.Position{}
	p := unstable.Parser{}
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		var parts []string
		var first *unstable.Node
		for it := e.Key(); it.Next(); {
			if first == nil {
				first = it.Node()
			}
			parts = append(parts, string(it.Node().Data))
		}
		if first == nil {
			continue
		}
		pos := p.Shape(first.Raw).Start
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = parts
			at[join(parts)] = pos
		case unstable.KeyValue:
			at[join(append(slices.Clone(table), parts...))] = pos
		}
	}
	return at
}

func join(parts []string) string { return strings.Join(parts, "\x1f") }

// reader checks a decoded file against the settings.
type reader struct {
	f                  *File
	at                 map[string]unstable.Position
	home               string
	warnings, problems []Problem
}

// place is where the key at path is (its table's, for a key of an inline
// table; line 1 when unknown).
func (r *reader) place(path ...string) (int, int) {
	for n := len(path); n > 0; n-- {
		if p, ok := r.at[join(path[:n])]; ok {
			return p.Line, p.Column
		}
	}
	return 1, 1
}

func (r *reader) problem(path []string, format string, args ...any) {
	line, col := r.place(path...)
	r.problems = append(r.problems, Problem{line, col, strings.Join(path, ".") + ": " + fmt.Sprintf(format, args...)})
}

// unknown warns of the key at path; the nearest of among to its last
// part (all of it, among holding dotted keys) is the one suggested.
func (r *reader) unknown(path []string, among []string) {
	line, col := r.place(path...)
	key := strings.Join(path, ".")
	word := path[len(path)-1]
	if strings.Contains(strings.Join(among, ""), ".") {
		word = key
	}
	msg := fmt.Sprintf("unknown key %q (lanes ignores it)", key)
	if n := near.Word(word, among); n != "" {
		msg = fmt.Sprintf("unknown key %q (lanes ignores it); did you mean %q?", key, n)
	}
	r.warnings = append(r.warnings, Problem{line, col, msg})
}

// sections are the tables of Settings' dotted keys.
func sections() []string {
	var out []string
	for _, s := range Settings {
		if sec, _, ok := strings.Cut(s.Key, "."); ok && !slices.Contains(out, sec) {
			out = append(out, sec)
		}
	}
	return out
}

// knownKeys are every key and table name of the file, for did-you-mean.
func knownKeys() []string {
	out := append(sections(), "profiles")
	for _, s := range Settings {
		out = append(out, s.Key)
	}
	return out
}

func (r *reader) top(doc map[string]any) {
	for _, k := range sortedKeys(doc) {
		v := doc[k]
		switch {
		case k == "profiles":
			r.profiles(v)
		case slices.Contains(sections(), k):
			m, ok := v.(map[string]any)
			if !ok {
				r.problem([]string{k}, "want a table ([%s]), not %s", k, kindOf(v))
				continue
			}
			for _, sub := range sortedKeys(m) {
				r.setting([]string{k, sub}, m[sub])
			}
		default:
			r.setting([]string{k}, v)
		}
	}
}

// setting takes one key's value.
func (r *reader) setting(path []string, v any) {
	key := strings.Join(path, ".")
	s, ok := SettingOf(key)
	if !ok {
		r.unknown(path, knownKeys())
		return
	}
	line, col := r.place(path...)
	val, err := valueOf(s.Kind, v)
	if err == nil && s.Kind == String && key == "worktree.root" {
		val.Text = expandHome(val.Text, r.home)
	}
	if err == nil && s.check != nil {
		err = s.check(val)
	}
	if err != nil {
		r.problem(path, "%v", err)
		return
	}
	val.Line, val.Col = line, col
	r.f.Values[key] = val
}

// valueOf is v as a Value of kind k.
func valueOf(k Kind, v any) (Value, error) {
	switch k {
	case Bool:
		if b, ok := v.(bool); ok {
			return Value{Text: fmt.Sprint(b)}, nil
		}
		return Value{}, fmt.Errorf("want true or false, not %s", kindOf(v))
	case List:
		list, err := stringList(v)
		return Value{Text: strings.Join(list, ","), List: list}, err
	default:
		if s, ok := v.(string); ok {
			return Value{Text: s}, nil
		}
		return Value{}, fmt.Errorf("want a string (in quotes), not %s", kindOf(v))
	}
}

// stringList is v as a list of strings.
func stringList(v any) ([]string, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of strings ([\"a\", \"b\"]), not %s", kindOf(v))
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("want a list of strings, and item %d is %s", i+1, kindOf(it))
		}
		out[i] = s
	}
	return out, nil
}

// kindOf names v's TOML type.
func kindOf(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", state.Summary(v, 40))
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case int64, float64:
		return fmt.Sprintf("the number %v", v)
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	default:
		return "a date or time"
	}
}

// expandHome is p with a leading ~/ as home.
func expandHome(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	if p == "~" && home != "" {
		return home
	}
	return p
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// envKey is a variable name a profile may set. Compiled on first use, as
// the other patterns here: every lanes start (each hook, each status
// line) links this package, and a compile at init would cost them all.
var envKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// profileName is a profile's name.
var profileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`) })
