package tmux

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Display shows msg on the status line of every client attached to the
// server, for d, and returns how many there were. It is two tmux calls:
// list-clients, then one display-message -c per client chained in a single
// invocation. A server with no client gets only the first. msg is plain
// text: it is escaped as a format ('#'), for strftime ('%': display-message
// expands both) and as an argv word.
func (c *Client) Display(ctx context.Context, msg string, d time.Duration) (int, error) {
	// A control-mode client (a board's reader) has no status line to show it.
	out, err := c.run(ctx, []string{"list-clients", "-F", "#{?client_control_mode,,#{client_name}}"})
	if err != nil {
		return 0, err
	}
	var cmds [][]string
	for name := range strings.Lines(string(out)) {
		if name = strings.TrimSpace(name); name != "" {
			cmds = append(cmds, []string{"display-message", "-c", name,
				"-d", strconv.FormatInt(d.Milliseconds(), 10), strings.ReplaceAll(escapeFormat(msg), "%", "%%")})
		}
	}
	if len(cmds) == 0 {
		return 0, nil
	}
	_, err = c.run(ctx, cmds...)
	return len(cmds), err
}
