package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Just enough TOML to read one top-level key of Codex's config.toml (notify,
// an array of strings) and to write -c override values. Anything else in the
// file is scanned over, never interpreted, so a config lanes cannot read
// fully still yields its notify or a clear error.

// userCodexNotify reads notify = [...] from $CODEX_HOME/config.toml (else
// ~/.codex/config.toml). A missing file or key is no program and no error.
func userCodexNotify(env func(string) string) ([]string, error) {
	home := codexHome(env)
	if home == "" {
		return nil, nil
	}
	path := filepath.Join(home, "config.toml")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	argv, _, err := parseTopLevelNotify(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return argv, nil
}

// parseTopLevelNotify finds the top-level notify key (before any [table]
// header) and returns its strings.
func parseTopLevelNotify(src string) (argv []string, found bool, err error) {
	p := &tomlScanner{s: src}
	for {
		p.skipBlank(true)
		if p.eof() {
			return nil, false, nil
		}
		if p.peek() == '[' {
			return nil, false, nil // a table header: top-level keys are over
		}
		key, err := p.key()
		if err != nil {
			return nil, false, err
		}
		p.skipBlank(false)
		if !p.take('=') {
			return nil, false, p.errorf("expected '=' after key %q", strings.Join(key, "."))
		}
		p.skipBlank(false)
		if len(key) == 1 && key[0] == "notify" {
			argv, err := p.stringArray()
			if err != nil {
				return nil, false, fmt.Errorf("notify: %w", err)
			}
			return argv, true, nil
		}
		if err := p.skipValue(); err != nil {
			return nil, false, err
		}
	}
}

type tomlScanner struct {
	s   string
	pos int
}

func (p *tomlScanner) eof() bool  { return p.pos >= len(p.s) }
func (p *tomlScanner) peek() byte { return p.s[p.pos] }

func (p *tomlScanner) take(c byte) bool {
	if !p.eof() && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *tomlScanner) errorf(format string, a ...any) error {
	line := 1 + strings.Count(p.s[:min(p.pos, len(p.s))], "\n")
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
}

// skipBlank skips spaces, tabs and comments, and newlines when nl is set.
func (p *tomlScanner) skipBlank(nl bool) {
	for !p.eof() {
		switch c := p.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '\n' && nl:
			p.pos++
		case c == '#':
			for !p.eof() && p.peek() != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// key reads a possibly dotted key: bare, "basic" or 'literal' parts.
func (p *tomlScanner) key() ([]string, error) {
	var parts []string
	for {
		p.skipBlank(false)
		if p.eof() {
			return nil, p.errorf("unexpected end of file in a key")
		}
		switch p.peek() {
		case '"', '\'':
			s, err := p.str()
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		default:
			start := p.pos
			for !p.eof() && isBareKey(p.peek()) {
				p.pos++
			}
			if p.pos == start {
				return nil, p.errorf("unexpected %q", p.peek())
			}
			parts = append(parts, p.s[start:p.pos])
		}
		p.skipBlank(false)
		if !p.take('.') {
			return parts, nil
		}
	}
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// skipValue passes over one value of any type.
func (p *tomlScanner) skipValue() error {
	if p.eof() {
		return p.errorf("missing value")
	}
	switch p.peek() {
	case '"', '\'':
		_, err := p.str()
		return err
	case '[':
		p.pos++
		for {
			p.skipBlank(true)
			if p.take(']') {
				return nil
			}
			if err := p.skipValue(); err != nil {
				return err
			}
			p.skipBlank(true)
			if p.take(']') {
				return nil
			}
			if !p.take(',') {
				return p.errorf("expected ',' or ']' in an array")
			}
		}
	case '{':
		p.pos++
		for {
			p.skipBlank(true)
			if p.take('}') {
				return nil
			}
			if _, err := p.key(); err != nil {
				return err
			}
			p.skipBlank(false)
			if !p.take('=') {
				return p.errorf("expected '=' in an inline table")
			}
			p.skipBlank(false)
			if err := p.skipValue(); err != nil {
				return err
			}
			p.skipBlank(true)
			if p.take('}') {
				return nil
			}
			if !p.take(',') {
				return p.errorf("expected ',' or '}' in an inline table")
			}
		}
	default: // number, bool, date: up to a delimiter
		start := p.pos
		for !p.eof() && !strings.ContainsRune(",]}#\n", rune(p.peek())) {
			p.pos++
		}
		if strings.TrimSpace(p.s[start:p.pos]) == "" {
			return p.errorf("missing value")
		}
		return nil
	}
}

// stringArray reads an array whose elements are all strings.
func (p *tomlScanner) stringArray() ([]string, error) {
	if !p.take('[') {
		return nil, p.errorf("not an array of strings")
	}
	out := []string{}
	for {
		p.skipBlank(true)
		if p.take(']') {
			return out, nil
		}
		if p.eof() || (p.peek() != '"' && p.peek() != '\'') {
			return nil, p.errorf("not an array of strings")
		}
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		p.skipBlank(true)
		if p.take(']') {
			return out, nil
		}
		if !p.take(',') {
			return nil, p.errorf("expected ',' or ']' in an array")
		}
	}
}

// str reads a basic, literal, multi-line basic or multi-line literal string.
func (p *tomlScanner) str() (string, error) {
	rest := p.s[p.pos:]
	switch {
	case strings.HasPrefix(rest, `"""`):
		p.pos += 3
		return p.basic(`"""`)
	case strings.HasPrefix(rest, `'''`):
		p.pos += 3
		p.skipNewline()
		end := strings.Index(p.s[p.pos:], `'''`)
		if end < 0 {
			return "", p.errorf("unterminated multi-line literal string")
		}
		s := p.s[p.pos : p.pos+end]
		p.pos += end + 3
		return s, nil
	case strings.HasPrefix(rest, `'`):
		p.pos++
		end := strings.IndexAny(p.s[p.pos:], "'\n")
		if end < 0 || p.s[p.pos+end] != '\'' {
			return "", p.errorf("unterminated literal string")
		}
		s := p.s[p.pos : p.pos+end]
		p.pos += end + 1
		return s, nil
	default:
		p.pos++
		return p.basic(`"`)
	}
}

func (p *tomlScanner) skipNewline() {
	if strings.HasPrefix(p.s[p.pos:], "\r\n") {
		p.pos += 2
	} else if strings.HasPrefix(p.s[p.pos:], "\n") {
		p.pos++
	}
}

// basic reads a basic string body (the opening quotes already taken) up to
// its closing delimiter, decoding escapes.
func (p *tomlScanner) basic(delim string) (string, error) {
	multi := len(delim) == 3
	if multi {
		p.skipNewline()
	}
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errorf("unterminated string")
		}
		if strings.HasPrefix(p.s[p.pos:], delim) {
			p.pos += len(delim)
			// A multi-line string may end with up to two extra quotes.
			for multi && strings.HasPrefix(p.s[p.pos:], `"`) && !strings.HasPrefix(p.s[p.pos:], `"""`) {
				b.WriteByte('"')
				p.pos++
			}
			return b.String(), nil
		}
		c := p.peek()
		switch {
		case c == '\n' && !multi:
			return "", p.errorf("newline in a basic string")
		case c == '\\':
			p.pos++
			if p.eof() {
				return "", p.errorf("unterminated escape")
			}
			e := p.peek()
			p.pos++
			switch e {
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case 'e':
				b.WriteByte(0x1b)
			case '"':
				b.WriteByte('"')
			case '\\':
				b.WriteByte('\\')
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				if p.pos+n > len(p.s) {
					return "", p.errorf("short \\%c escape", e)
				}
				r, err := strconv.ParseUint(p.s[p.pos:p.pos+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "", p.errorf("bad \\%c escape", e)
				}
				b.WriteRune(rune(r))
				p.pos += n
			case ' ', '\t', '\r', '\n':
				if !multi {
					return "", p.errorf("bad escape")
				}
				// Line-ending backslash: drop the newline and leading blanks.
				p.pos--
				for !p.eof() && strings.ContainsRune(" \t\r\n", rune(p.peek())) {
					p.pos++
				}
			default:
				return "", p.errorf("bad escape \\%c", e)
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlStringArray(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ",") + "]"
}
