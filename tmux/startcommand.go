package tmux

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// SplitCommand takes apart the text tmux gives as #{pane_start_command}:
// the pane's argv, each word quoted and escaped by tmux (args_escape, in
// tmux 3.3). ok is false when the text cannot be taken apart safely: it is
// then accepted only if the words found quote back to exactly the same
// text, so a form this does not know is never guessed at.
func SplitCommand(text string) (words []string, ok bool) {
	var w strings.Builder
	inWord, quote := false, byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\':
			i++
			if i == len(text) {
				return nil, false
			}
			n := unescape(text[i:])
			if n.size == 0 {
				return nil, false
			}
			w.WriteString(n.s)
			i += n.size - 1
			inWord = true
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		words = append(words, w.String())
	}
	quoted := make([]string, len(words))
	for i, word := range words {
		quoted[i] = quoteWord(word)
	}
	if len(words) == 0 || strings.Join(quoted, " ") != text {
		return nil, false
	}
	return words, true
}

type unescaped struct {
	s    string
	size int // bytes of the escape after its backslash; 0: not one
}

// unescape reads one escape of tmux's vis(3) encoding (C style, octal).
func unescape(s string) unescaped {
	if len(s) >= 3 && isOctal(s[0]) && isOctal(s[1]) && isOctal(s[2]) {
		return unescaped{string([]byte{(s[0]-'0')<<6 | (s[1]-'0')<<3 | (s[2] - '0')}), 3}
	}
	if c, ok := map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'v': '\v', 'f': '\f', 's': ' ', '0': 0}[s[0]]; ok {
		return unescaped{string([]byte{c}), 1}
	}
	if s[0] >= 0x20 && s[0] < 0x7f {
		return unescaped{s[:1], 1}
	}
	return unescaped{}
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// quoteWord quotes word as tmux 3.3's args_escape does.
func quoteWord(word string) string {
	if word == "" {
		return "''"
	}
	quote := byte(0)
	if strings.ContainsAny(word, " #';${}%") {
		quote = '"'
	} else if strings.ContainsAny(word, " \"") {
		quote = '\''
	}
	if word[0] != ' ' && len(word) == 1 && (quote != 0 || word[0] == '~') {
		return `\` + word
	}
	esc := vis(word, quote == '"')
	tilde := ""
	if esc[0] == '~' {
		tilde = `\`
	}
	switch quote {
	case '\'':
		return "'" + esc + "'"
	case '"':
		return `"` + tilde + esc + `"`
	}
	return tilde + esc
}

// vis encodes s as tmux's utf8_stravis does with VIS_OCTAL, VIS_CSTYLE,
// VIS_TAB and VIS_NL (and VIS_DQ inside double quotes, where tmux also
// escapes a '$' that starts a variable's name): valid UTF-8 stays.
func vis(s string, dq bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case size > 1:
			b.WriteString(s[i : i+size])
		case c == '\\' || dq && (c == '"' || c == '$' && i+1 < len(s) && startsName(s[i+1])):
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		default:
			fmt.Fprintf(&b, `\%03o`, c)
		}
		i += max(size, 1)
	}
	return b.String()
}

func startsName(c byte) bool {
	return c == '_' || c == '{' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
