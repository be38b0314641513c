package remote

import (
	"regexp"
	"strings"
)

// AtHostCommands are the commands that act on one session and take
// NAME@HOST for another host's (docs/design.md §16).
var AtHostCommands = []string{"answer", "send", "attach", "kill", "restart", "rm", "restore", "peek", "diff", "history", "mute", "seen"}

// aHint is a command lanes suggests for one session, `lanes VERB NAME` or
// (lanes VERB NAME).
var aHint = regexp.MustCompile("([`(])lanes (" + strings.Join(AtHostCommands, "|") + ") ([A-Za-z0-9_][A-Za-z0-9_-]*)([^A-Za-z0-9_@…-]|$)")

// Across is what lanes on host said, for a reader on this host: each
// command it suggests for one of its sessions, `lanes VERB NAME`, names
// the session as NAME@HOST (lanes there suggests it to its own users).
func Across(said, host string) string {
	return aHint.ReplaceAllString(said, "${1}lanes $2 ${3}@"+host+"$4")
}
