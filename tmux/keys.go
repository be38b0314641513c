package tmux

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// answerKeys are the key names SendKeys presses: the keys that answer an
// agent's dialog. A short list rather than any tmux key name, so a caller
// can never send a word that tmux reads as text or a control key that
// interrupts the program.
var answerKeys = map[string]bool{
	"Enter": true, "Escape": true, "Tab": true, "BTab": true,
	"Up": true, "Down": true, "Left": true, "Right": true,
}

func isAnswerKey(k string) bool {
	if len(k) == 1 {
		c := k[0]
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return answerKeys[k]
}

// KeyGap is the pause between two keys of one SendKeys: a program reads
// an escape sequence followed at once by another key as one burst.
const KeyGap = 150 * time.Millisecond

// SendKeys presses keys in paneID, one send-keys each, KeyGap apart: each
// is a single letter or digit, or a key name (Enter, Escape, Tab, BTab,
// Up, Down, Left, Right), sent as the key it names, never as text. Like
// SendText it leaves any pane mode first. Anything else is refused with
// ErrInvalid before tmux runs.
func (c *Client) SendKeys(ctx context.Context, paneID string, keys ...string) error {
	if err := checkPane(paneID); err != nil {
		return err
	}
	if len(keys) == 0 {
		return fmt.Errorf("%w: no keys to send", ErrInvalid)
	}
	for _, k := range keys {
		if !isAnswerKey(k) {
			return fmt.Errorf("%w: %q is not a key lanes sends", ErrInvalid, k)
		}
	}
	for i, k := range keys {
		if i > 0 {
			select {
			case <-time.After(KeyGap):
			case <-ctx.Done():
				return fmt.Errorf("%s not sent after %s: %w", k, keys[i-1], ctx.Err())
			}
		}
		if err := c.runAlone(ctx, leaveModes(paneID), unlessSynchronized(paneID, "send-keys -t "+paneID+" "+k)); err != nil {
			if i > 0 {
				return fmt.Errorf("key %s not confirmed by tmux after %s was sent: %w", k, keys[i-1], err)
			}
			return err
		}
	}
	return nil
}

// ErrSynchronized: the pane's window has synchronize-panes on, so tmux
// would type what lanes sends into every pane of it, where lanes checked
// none.
var ErrSynchronized = errors.New("its window has synchronize-panes on: what lanes sends would go into every pane of it")

// unlessSynchronized is a command that runs cmd, a command line of lanes'
// own words (a %id, a key name, a buffer name: nothing tmux would parse
// otherwise), in the same step as tmux checks that paneID's window does
// not synchronize its panes, else says synchronizedMark. Checked before,
// the window could start synchronizing before the key (the fourth hostile
// run switched it on between two keys of one answer).
func unlessSynchronized(paneID, cmd string) []string {
	return []string{"if-shell", "-F", "-t", paneID, "#{pane_synchronized}", "display-message -p " + synchronizedMark, cmd}
}

const synchronizedMark = "lanes:synchronized"

// runAlone runs cmds, the last of them from unlessSynchronized:
// ErrSynchronized when tmux did not run it.
func (c *Client) runAlone(ctx context.Context, cmds ...[]string) error {
	out, err := c.run(ctx, cmds...)
	if err == nil && strings.Contains(string(out), synchronizedMark) {
		return ErrSynchronized
	}
	return err
}
