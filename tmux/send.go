package tmux

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// SendText types text into paneID exactly as given, then presses Enter.
//
// The text travels on the tmux client's standard input (load-buffer into a
// buffer with an unpredictable name, then paste-buffer), never in argv:
// every local user can read a process's argv in /proc/PID/cmdline, and a
// prompt is the user's own words. The paste is bracketed (-p) when the
// program asked for bracketed paste, so it reads the text as one paste
// rather than as typed keys; newlines stay newlines (-r) instead of
// becoming carriage returns, which would submit a half-written prompt.
// The buffer is deleted by the paste, or explicitly when any step fails.
//
// A pane in copy or view mode would take the keys as mode commands, so
// every mode is left first (copy-mode -q, which is quiet when there is
// none). Enter goes in a separate invocation, EnterGap later, so the program
// reads it as a keypress after the text, not as part of the pasted burst.
//
// Refused with ErrInvalid before reaching tmux: empty text (there is
// nothing to send, and Enter alone would submit whatever the user left in
// the program's input), and control characters other than tab and newline
// (a carriage return or escape would act as a key in the middle of the
// text, or end a bracketed paste early). Whether the target may receive
// text at all (is the program live, is it showing a dialog) is the
// caller's decision.
func (c *Client) SendText(ctx context.Context, paneID, text string) error {
	if err := c.Paste(ctx, paneID, text); err != nil {
		return err
	}
	// Let the program read the paste before Enter arrives, or the two come
	// in one read and Enter counts as part of the paste.
	select {
	case <-time.After(EnterGap):
	case <-ctx.Done():
		return fmt.Errorf("text pasted but Enter not sent, it is waiting unsent: %w", ctx.Err())
	}
	if err := c.runAlone(ctx, leaveModes(paneID), unlessSynchronized(paneID, "send-keys -t "+paneID+" Enter")); err != nil {
		return fmt.Errorf("text pasted but Enter not confirmed by tmux, it may be waiting unsent: %w", err)
	}
	return nil
}

// Paste types text into paneID exactly as given, as SendText does, with
// no Enter after it.
func (c *Client) Paste(ctx context.Context, paneID, text string) error {
	if err := checkPane(paneID); err != nil {
		return err
	}
	switch {
	case text == "":
		return fmt.Errorf("%w: nothing to send", ErrInvalid)
	case strings.ContainsFunc(text, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' }):
		return fmt.Errorf("%w: text contains control characters", ErrInvalid)
	}
	// Unique, not secret: the buffer lives only inside this one command
	// list, which the server runs with nothing in between.
	buf := "lanes-" + strconv.FormatUint(rand.Uint64(), 36)
	err := c.runAlone(WithInput(ctx, []byte(text)),
		[]string{"load-buffer", "-b", buf, "-"},
		leaveModes(paneID),
		unlessSynchronized(paneID, "paste-buffer -p -r -d -b "+buf+" -t "+paneID))
	if errors.Is(err, ErrSynchronized) {
		return errors.Join(err, c.dropBuffer(ctx, buf))
	}
	if err != nil {
		err = fmt.Errorf("paste not confirmed by tmux, the text may not have arrived: %w", err)
		return errors.Join(err, c.dropBuffer(ctx, buf))
	}
	return nil
}

// EnterGap is how long SendText waits between the paste and Enter. Gemini
// CLI 0.61 turns an Enter that comes within 40 ms of a paste into a newline
// (it cannot tell a pasted line end from a keypress): the real agent kept a
// prompt unsubmitted at a gap of 20 ms and took it at 60 ms. The margin is
// for an agent busy drawing when the paste arrives.
const EnterGap = 200 * time.Millisecond

// leaveModes is the command that returns paneID to normal mode: copy-mode
// -q cancels copy, view and every other mode, and does nothing (without
// error) when the pane is in none.
func leaveModes(paneID string) []string {
	return []string{"copy-mode", "-q", "-t", paneID}
}

// dropBuffer deletes the paste buffer name after a failed send, so the
// text does not stay in the server. It runs even when ctx is done (a
// timeout is a failure like any other), under a timeout of its own. A
// buffer that is already gone, or a server that is, is fine.
func (c *Client) dropBuffer(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultTimeout)
	defer cancel()
	_, err := c.run(ctx, []string{"delete-buffer", "-b", name})
	if err == nil || errors.Is(err, ErrNoServer) || strings.Contains(err.Error(), "unknown buffer") {
		return nil
	}
	return fmt.Errorf("paste buffer %s may still hold the text: %w", name, err)
}

type inputKey struct{}

// WithInput returns ctx carrying data for the standard input of the tmux
// invocation run under it. Runners give it to the tmux client; it is how
// load-buffer receives text that must not appear in argv.
func WithInput(ctx context.Context, data []byte) context.Context {
	return context.WithValue(ctx, inputKey{}, data)
}

// Input is the standard input ctx carries for tmux (WithInput); nil when
// there is none.
func Input(ctx context.Context) []byte {
	data, _ := ctx.Value(inputKey{}).([]byte)
	return data
}
