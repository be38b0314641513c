package tmux

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// call is one tmux invocation as a Runner saw it.
type call struct {
	args  []string
	stdin []byte
}

// recorder returns a Runner that records every call and answers the nth
// (from 0) with errs[n], if set.
func recorder(calls *[]call, errs map[int]error) Runner {
	return func(ctx context.Context, args ...string) ([]byte, error) {
		*calls = append(*calls, call{args: args, stdin: Input(ctx)})
		return nil, errs[len(*calls)-1]
	}
}

var bufferName = regexp.MustCompile(`^lanes-[0-9a-z]{1,13}$`)

func TestSendTextArgv(t *testing.T) {
	var calls []call
	c := &Client{Run: recorder(&calls, nil)}
	texts := []string{"-n ; echo $HOME x;", "line one\nline two\tEnter", "--"}
	for _, text := range texts {
		must(t, c.SendText(context.Background(), "%5", text))
	}
	if len(calls) != 2*len(texts) {
		t.Fatalf("%d tmux calls, want 2 per send: %q", len(calls), calls)
	}
	var names []string
	// Each runs only where tmux finds the window not synchronizing its
	// panes, in the same step.
	alone := func(cmd string) []string {
		return []string{"if-shell", "-F", "-t", "%5", "#{pane_synchronized}", "display-message -p lanes:synchronized", cmd}
	}
	for i, text := range texts {
		paste, enter := calls[2*i], calls[2*i+1]
		if len(paste.args) < 3 || !bufferName.MatchString(paste.args[2]) {
			t.Fatalf("paste call %q: no unpredictable lanes-… buffer name", paste.args)
		}
		buf := paste.args[2]
		names = append(names, buf)
		want := append(argv("load-buffer", "-b", buf, "-", ";", "copy-mode", "-q", "-t", "%5", ";"),
			alone("paste-buffer -p -r -d -b "+buf+" -t %5")...)
		if !slices.Equal(paste.args, want) || string(paste.stdin) != text {
			t.Errorf("paste call\n got %q stdin %q\nwant %q stdin %q", paste.args, paste.stdin, want, text)
		}
		want = append(argv("copy-mode", "-q", "-t", "%5", ";"), alone("send-keys -t %5 Enter")...)
		if !slices.Equal(enter.args, want) || enter.stdin != nil {
			t.Errorf("enter call\n got %q stdin %q\nwant %q", enter.args, enter.stdin, want)
		}
	}
	slices.Sort(names)
	if len(slices.Compact(names)) != len(texts) {
		t.Errorf("buffer names repeat: %q", names)
	}
}

func TestSendTextDropsTheBufferWhenThePasteFails(t *testing.T) {
	var calls []call
	failed := wrapErr("load-buffer ; copy-mode ; paste-buffer", ErrNoSession, "can't find pane: %5")
	c := &Client{Run: recorder(&calls, map[int]error{0: failed})}
	err := c.SendText(context.Background(), "%5", "secret words")
	if !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), "not confirmed") {
		t.Errorf("err = %v, want ErrNoSession, not confirmed", err)
	}
	if len(calls) != 2 || !slices.Equal(calls[1].args, argv("delete-buffer", "-b", calls[0].args[2])) {
		t.Fatalf("calls after a failed paste: %q, want the buffer deleted and nothing else", calls)
	}
}

func TestSendTextEnterNotConfirmedIsAnError(t *testing.T) {
	var calls []call
	c := &Client{Run: recorder(&calls, map[int]error{1: wrapErr("copy-mode ; send-keys", ErrTimeout, "")})}
	err := c.SendText(context.Background(), "%5", "hi")
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "Enter not confirmed") {
		t.Errorf("err = %v, want ErrTimeout, Enter not confirmed", err)
	}
}

func TestSendTextRefusesEmptyTextAndControlCharacters(t *testing.T) {
	// C1 too: U+009B is CSI and U+009C ST to a terminal that reads 8-bit
	// controls, the same rule state.CleanText applies.
	for _, text := range []string{"", "yes\r", "\x1b[A", "a\x00b", "\x03", "del\x7f", "x\x1b[201~y", "\u009b2J", "a\u009cb", "\u0085"} {
		c := fakeClient(t) // no tmux call may happen
		if err := c.SendText(context.Background(), "%1", text); !errors.Is(err, ErrInvalid) {
			t.Errorf("SendText(%q) err = %v, want ErrInvalid", text, err)
		}
	}
}
