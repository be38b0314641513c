package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The TOML lanes needs: the top-level notify key of Codex's config.toml (an
// array of strings), decoded by a library, and the -c override values lanes
// writes (strings and arrays of them, quoted here).

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

// errNotifyNotStrings: Codex runs notify as an argv, so any other value is
// a setting lanes cannot chain.
var errNotifyNotStrings = errors.New("notify is not an array of strings")

// parseTopLevelNotify decodes src and returns its top-level notify key (a
// notify inside a [table] is another setting). A file that is not TOML, or a
// notify that is not an array of strings, is an error: Codex refuses such a
// file too, and the caller then leaves the user's notify as configured.
func parseTopLevelNotify(src string) (argv []string, found bool, err error) {
	// notify is decoded as any, not []string, so that a wrong type gets
	// an error in the user's terms rather than the decoder's Go types.
	var cfg struct {
		Notify any `toml:"notify"`
	}
	if err := toml.Unmarshal([]byte(src), &cfg); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, false, fmt.Errorf("line %d column %d: %w", line, col, err)
		}
		return nil, false, err
	}
	if cfg.Notify == nil {
		return nil, false, nil
	}
	items, ok := cfg.Notify.([]any)
	if !ok {
		return nil, false, errNotifyNotStrings
	}
	argv = make([]string, len(items))
	for i, item := range items {
		if argv[i], ok = item.(string); !ok {
			return nil, false, errNotifyNotStrings
		}
	}
	return argv, true, nil
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
