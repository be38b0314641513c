package tmux

import (
	"context"
	"strings"
)

// SessionName is the name of the session target (an id or a name).
func (c *Client) SessionName(ctx context.Context, target string) (string, error) {
	out, err := c.run(ctx, []string{"display-message", "-p", "-t", SessionTarget(target), "#{session_name}"})
	return strings.TrimSpace(string(out)), err
}

// SessionEnv is the value of the variable name in the session's own
// environment (set by new-session -e or set-environment -t), not the
// server's global one; set is false when the session has no such
// variable or has it marked removed.
func (c *Client) SessionEnv(ctx context.Context, target, name string) (value string, set bool, err error) {
	out, err := c.run(ctx, []string{"show-environment", "-t", SessionTarget(target), "--", name})
	if err != nil {
		if strings.Contains(err.Error(), "unknown variable") {
			return "", false, nil
		}
		return "", false, err
	}
	value, set = strings.CutPrefix(strings.TrimRight(string(out), "\n"), name+"=")
	return value, set, nil
}

// SessionLanesID is the session's @lanes_id, "" when it carries none.
func (c *Client) SessionLanesID(ctx context.Context, target string) (string, error) {
	// The target names a window ("=NAME:"): a bare session target resolves
	// no window here, and the option would expand empty.
	out, err := c.run(ctx, []string{"display-message", "-p", "-t", SessionTarget(target) + ":", "#{@lanes_id}"})
	return strings.TrimSpace(string(out)), err
}

// SessionPane is what the active pane of session target runs, and where.
func (c *Client) SessionPane(ctx context.Context, target string) (command, dir string, err error) {
	out, err := c.run(ctx, []string{"display-message", "-p", "-t", SessionTarget(target) + ":", "#{pane_current_command}" + fieldSep + "#{pane_current_path}"})
	command, dir, _ = strings.Cut(strings.TrimRight(string(out), "\n"), fieldSep)
	return command, dir, err
}
