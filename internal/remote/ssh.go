package remote

import (
	"lanes/internal/shell"
	"strings"
)

// EnvSSH names the ssh program lanes runs (default "ssh"): a wrapper that
// adds options, or a stand-in in tests.
const EnvSSH = "LANES_SSH"

// connectTimeout bounds ssh's connect (seconds): an unreachable host is
// said to be one in seconds, not after the system's TCP timeout.
const connectTimeout = "5"

// SSH builds the ssh command lines for hosts.
type SSH struct {
	// Program is the ssh client; "" means "ssh".
	Program string
	// Timing paces Watch (zero: the defaults).
	Timing WatchTiming
}

func (s SSH) program() string {
	if s.Program == "" {
		return "ssh"
	}
	return s.Program
}

// Lanes is the argv that runs `lanes ARGS…` on h without a terminal:
// BatchMode, so a missing key fails instead of asking for a password the
// board cannot type, and a bounded connect. ssh joins what follows the destination into one
// line for the remote shell, so each argument goes quoted: no word of the
// user's reaches that shell unquoted.
func (s SSH) Lanes(h Host, args ...string) []string {
	words := []string{"lanes"}
	for _, a := range args {
		words = append(words, shell.Quote(a))
	}
	return []string{s.program(), "-o", "BatchMode=yes", "-o", "ConnectTimeout=" + connectTimeout, "-T", "--", h.Dest, strings.Join(words, " ")}
}

// Attach is the argv that attaches this terminal to a session's tmux
// session on h: socket is its tmux -L name ("" for the default server).
func (s SSH) Attach(h Host, socket, session string) []string {
	words := []string{"tmux"}
	if socket != "" {
		words = append(words, "-L", shell.Quote(socket))
	}
	words = append(words, "attach-session", "-t", shell.Quote("="+session))
	return []string{s.program(), "-t", "--", h.Dest, strings.Join(words, " ")}
}
