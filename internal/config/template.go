package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Template is a file with every setting, each commented out at its
// default under what it does, and a profile to copy.
func Template() string {
	var b strings.Builder
	b.WriteString(newFileHead)
	b.WriteString("# A flag wins over the environment, which wins over this file, which wins over the default.\n")
	section := ""
	for _, s := range Settings {
		sec, key, dotted := strings.Cut(s.Key, ".")
		if !dotted {
			sec, key = "", s.Key
		}
		if sec != section {
			fmt.Fprintf(&b, "\n[%s]\n", sec)
			section = sec
		}
		doc := s.Doc
		if s.Env != "" {
			doc += " ($" + s.Env + " wins)"
		}
		fmt.Fprintf(&b, "\n# %s\n# %s = %s\n", doc, key, tomlDefault(s))
	}
	b.WriteString(`
# A profile is what ` + "`lanes new NAME --profile opus`" + ` starts (its flags win; args
# after -- replace these). Its variables are given to the agent at each start.
# [profiles.opus]
# agent = "claude"
# args = ["--model", "opus"]
# env = { ANTHROPIC_LOG = "debug" }
# dir = "~/src/api"
# worktree = true
# budget = "$5"            # each session of it: tokens ("2M") or the agent's cost; crossing it notifies once
`)
	return b.String()
}

// tomlDefault is s's default as the file would say it.
func tomlDefault(s Setting) string {
	switch s.Kind {
	case Bool:
		return s.Default
	case List:
		q := []string{}
		for _, w := range strings.Split(s.Default, ",") {
			q = append(q, strconv.Quote(w))
		}
		return "[" + strings.Join(q, ", ") + "]"
	default:
		return strconv.Quote(s.Default)
	}
}

// WriteNew writes Template to path, which must not exist (its directory
// is made, private, when missing).
func WriteNew(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(Template()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
