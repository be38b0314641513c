package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// ErrRemote: `lanes` on the other host ran and failed; the error says
// what it printed.
var ErrRemote = errors.New("lanes failed on the host")

// remoteErr is what lanes printed on the host when it failed: it reads
// as that alone (the caller names the host), and is ErrRemote.
type remoteErr string

func (e remoteErr) Error() string        { return string(e) }
func (e remoteErr) Is(target error) bool { return target == ErrRemote }

// Run runs `lanes ARGS…` on h with stdin (nil: none) and returns what it
// printed on stdout. A failure says which host, and what lanes or ssh
// printed there.
func (s SSH) Run(ctx context.Context, h Host, stdin io.Reader, args ...string) ([]byte, error) {
	argv := s.Lanes(h, args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), nil
	case errors.As(err, &exit) && exit.ExitCode() == 255:
		return nil, fmt.Errorf("host %s: %s", h.Name, sshSaid(errb.String(), h.Dest))
	case errors.As(err, &exit):
		return out.Bytes(), fmt.Errorf("host %s: %w", h.Name, remoteErr(lastLine(errb.String(), exit.String())))
	}
	return nil, fmt.Errorf("host %s: running %s: %w", h.Name, argv[0], err)
}

// sshSaid is ssh's last word on a failure to reach dest, "ssh: …" once.
func sshSaid(stderr, dest string) string {
	line := lastLine(stderr, "could not reach "+dest)
	if !strings.HasPrefix(line, "ssh:") {
		line = "ssh: " + line
	}
	return line
}

// lastLine is the last non-empty line of s, or def.
func lastLine(s, def string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return strings.TrimPrefix(l, "lanes: ")
	}
	return def
}
