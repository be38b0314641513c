package tmux

import (
	"context"
	"fmt"
	"strings"
)

// ControlCrash says what a tmux server of version v does to a control-mode
// client that connects while a session opens or closes: "" when nothing
// (3.7 and later), else the crash, in a line for doctor.
//
// Up to 3.6a the server marks a client as a control client when its first
// identify message arrives, but gives it the state control output needs
// only with the last one; the messages between carry file descriptors, so
// they come in separate reads and other clients' commands run in between.
// A session created, closed or renamed then notifies every control client,
// the half-made one too, and control_write reads its missing state: a NULL
// read at offset 0x20, and every session on the server ends with it
// (tmux/tmux e5a2a25, "Do not notify clients if not fully initialized",
// first in 3.7). Reproduced here on Debian 12's 3.3a with tmux commands
// alone (docs/design.md §5). A version lanes cannot read counts as one
// that crashes: the safe way costs a tmux client per read, nothing more.
func ControlCrash(v string) string {
	if ma, mi, ok := parseVersion(v); ok && (ma > 3 || ma == 3 && mi >= 7) {
		return ""
	}
	return "its server crashes when a control-mode client connects while a session opens or closes (fixed in tmux 3.7)"
}

// parseVersion reads "3.3a", "next-3.7" or "3.6" as major and minor.
func parseVersion(v string) (major, minor int, ok bool) {
	_, err := fmt.Sscanf(strings.TrimPrefix(v, "next-"), "%d.%d", &major, &minor)
	return major, minor, err == nil
}

// AtLeast reports whether version v is major.minor or newer; a version it
// cannot read passes (an unusual build is not refused for its name).
func AtLeast(v string, major, minor int) bool {
	ma, mi, ok := parseVersion(v)
	return !ok || ma > major || ma == major && mi >= minor
}

// ServerVersion is the running server's version ("3.3a"), which may differ
// from the binary's (Version) when tmux was upgraded after the server
// started: what a server does is its own version's.
func (c *Client) ServerVersion(ctx context.Context) (string, error) {
	out, err := c.run(ctx, []string{"display-message", "-p", "#{version}"})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
