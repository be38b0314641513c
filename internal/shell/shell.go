// Package shell quotes words for a POSIX shell (and zsh): the one quoter
// every command line lanes shows or hands to a shell goes through — a
// hook command, an ssh command line, a command the board says it runs.
package shell

import "strings"

// Quoted is s as one word, always in single quotes: each single quote in
// s closes the quoting, is written escaped with a backslash, and reopens
// it. (Installed hooks name lanes' binary so, and are found by it.)
func Quoted(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Quote is s as one word, quoted unless it is only letters, digits and
// - _ . / : @ % + , (so never a word with =, an assignment as a command's
// first word, or the path of a command to zsh as =NAME).
func Quote(s string) string {
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return Quoted(s)
}

const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+,"

// Words is argv as one command line: each word quoted where it needs it.
func Words(argv []string) string {
	out := make([]string, len(argv))
	for i, w := range argv {
		out[i] = Quote(w)
	}
	return strings.Join(out, " ")
}
