package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"lanes/internal/shell"
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
	// ControlDir, when set, is a directory only the user can reach where
	// ssh keeps one connection per host (OpenSSH connection sharing):
	// the watch stream, every action and every preview go over it, with
	// no new connection or login per key press. "": one connection each.
	// It is checked (Private) before each command line: ssh trusts any
	// socket it finds there, whoever made it.
	ControlDir string
}

func (s SSH) program() string {
	if s.Program == "" {
		return "ssh"
	}
	return s.Program
}

// batch are the options of a command line to h with no terminal:
// BatchMode, so a missing key fails instead of asking for a password the
// board cannot type; a bounded connect; and a link that stops answering
// ended after 3 keepalives 5 s apart (a new-user trial's frozen host held
// every command on its shared connection for a minute).
func (s SSH) batch(h Host) []string {
	o := []string{"-o", "BatchMode=yes", "-o", "ConnectTimeout=" + connectTimeout,
		"-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"}
	return append(o, s.shared(h)...)
}

// shared are the options that put a command line on h's shared
// connection, kept 60 s past its last use (none without ControlDir). Its
// socket is named by h's destination, not by ssh's %C of where that
// leads: two destinations may reach one address as different users, or
// with different options from the user's ssh config.
func (s SSH) shared(h Host) []string {
	path := s.controlPath(h)
	if path == "" {
		return nil
	}
	return []string{"-o", "ControlMaster=auto", "-o", "ControlPath=" + path, "-o", "ControlPersist=60"}
}

// controlPath is the socket of h's shared connection ("": none).
func (s SSH) controlPath(h Host) string {
	if s.ControlDir == "" || Private(s.ControlDir) != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(h.Dest))
	return s.ControlDir + "/" + hex.EncodeToString(sum[:ControlNameBytes/2])
}

// ControlNameBytes is how long the name of a shared connection's socket
// is in ControlDir.
const ControlNameBytes = 20

// Lanes is the argv that runs `lanes ARGS…` on h without a terminal.
// ssh joins what follows the destination into one line for the remote
// shell, so each argument goes quoted: no word of the user's reaches that
// shell unquoted.
func (s SSH) Lanes(h Host, args ...string) []string {
	words := []string{"lanes"}
	for _, a := range args {
		words = append(words, shell.Quote(a))
	}
	return slices.Concat([]string{s.program()}, s.batch(h), []string{"-T", "--", h.Dest, strings.Join(words, " ")})
}

// Interactive is Lanes with a terminal: `lanes ARGS…` on h that the user
// runs in this one (lanes attach there), where ssh may ask for a password.
func (s SSH) Interactive(h Host, args ...string) []string {
	words := []string{"lanes"}
	for _, a := range args {
		words = append(words, shell.Quote(a))
	}
	return slices.Concat([]string{s.program()}, s.shared(h), quietEnd, []string{"-t", "--", h.Dest, strings.Join(words, " ")})
}

// quietEnd keeps ssh's word of a shared connection closing ("Shared
// connection to … closed.") off a terminal lanes hands back to the board
// or the shell; its errors still show.
var quietEnd = []string{"-o", "LogLevel=ERROR"}

// Attach is the argv that attaches this terminal to a session's tmux
// session on h: socket is its tmux -L name ("" for the default server).
func (s SSH) Attach(h Host, socket, session string) []string {
	words := []string{"tmux"}
	if socket != "" {
		words = append(words, "-L", shell.Quote(socket))
	}
	words = append(words, "attach-session", "-t", shell.Quote("="+session))
	return slices.Concat([]string{s.program()}, s.shared(h), quietEnd, []string{"-t", "--", h.Dest, strings.Join(words, " ")})
}
