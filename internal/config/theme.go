package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"

	"github.com/pelletier/go-toml/v2/unstable"

	"lanes/internal/fsafe"
)

// SetTheme writes theme into the file at path (the board's t): the one
// value's bytes change, every comment and line around them stays. A file
// without the key gets it before its first table; no file, a new one.
// A file lanes cannot read as its own (an error in it, another user's)
// is left as it is, and the error says why.
func SetTheme(path, theme, home string, uid int) error {
	if err := oneOf("auto", "dark", "light")(Value{Text: theme}); err != nil {
		return fmt.Errorf("theme: %w", err)
	}
	if path == "" {
		return errors.New("no config file to keep it in: set $HOME or $XDG_CONFIG_HOME")
	}
	value := []byte(strconv.Quote(theme))
	data, err := readOwn(path, uid)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return err
		}
		data = append([]byte(newFileHead+"theme = "), append(value, '\n')...)
		return fsafe.WriteFile(path, data, 0o600)
	case err != nil:
		return err
	}
	if _, _, problems := Parse(data, home); len(problems) > 0 {
		return fmt.Errorf("the theme was not saved: %s", Says(path, problems[:1]))
	}
	target, err := filepath.EvalSymlinks(path) // a dotfiles link stays a link
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	return fsafe.WriteFile(target, withTheme(data, value), fi.Mode().Perm())
}

// newFileHead starts a file lanes makes.
const newFileHead = "# lanes settings: `lanes config` shows each, and where it came from.\n"

// withTheme is data with its top-level theme's value replaced by value;
// else with the commented-out `# theme = …` line of the top level (as
// `lanes config --init` writes it) made that setting; else with `theme =
// value` inserted before the first table (and the comment lines right
// above it).
func withTheme(data, value []byte) []byte {
	p := unstable.Parser{}
	p.Reset(data)
	insert := len(data)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind == unstable.Table || e.Kind == unstable.ArrayTable {
			it := e.Key()
			it.Next()
			insert = commentsAbove(data, lineStart(data, int(it.Node().Raw.Offset)-1))
			break
		}
		if e.Kind != unstable.KeyValue {
			continue
		}
		it := e.Key()
		if it.Next() && string(it.Node().Data) == "theme" && it.IsLast() {
			v := e.Value().Raw
			out := append([]byte{}, data[:v.Offset]...)
			out = append(out, value...)
			return append(out, data[v.Offset+v.Length:]...)
		}
	}
	line := append([]byte("theme = "), append(value, '\n')...)
	if m := commentedTheme().FindIndex(data[:insert]); m != nil {
		out := append(append([]byte{}, data[:m[0]]...), line...)
		return append(out, data[m[1]:]...)
	}
	out := append([]byte{}, data[:insert]...)
	if insert > 0 && data[insert-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, line...)
	return append(out, data[insert:]...)
}

// commentedTheme is the template's `# theme = "auto"` line, newline and all.
var commentedTheme = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^#[ \t]*theme[ \t]*=[^\n]*\n`) })

// lineStart is the offset of the start of the line offset i is on.
func lineStart(data []byte, i int) int {
	return bytes.LastIndexByte(data[:max(i, 0)], '\n') + 1
}

// commentsAbove is the start of the comment lines right above the line
// starting at at (at itself when there are none).
func commentsAbove(data []byte, at int) int {
	for at > 0 {
		prev := lineStart(data, at-1)
		if t := bytes.TrimSpace(data[prev:at]); len(t) == 0 || t[0] != '#' {
			return at
		}
		at = prev
	}
	return at
}
