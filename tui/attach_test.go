package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"lanes/tmux"
)

// fakeTmux answers display-message with socket and records every call.
func fakeTmux(socket string, calls *[]string) func(string) *tmux.Client {
	return func(string) *tmux.Client {
		return &tmux.Client{Run: func(_ context.Context, args ...string) ([]byte, error) {
			*calls = append(*calls, strings.Join(args, " "))
			if args[0] == "display-message" {
				return []byte(socket + "\n"), nil
			}
			return nil, nil
		}}
	}
}

func TestAttachInsideTmux(t *testing.T) {
	var calls []string
	m := loaded(fixture(), ThemeDark, 160, 48)
	m.o.Tmux = fakeTmux("/tmp/tmux-1/lanes", &calls)

	m.o.TmuxEnv = "/tmp/tmux-1/lanes,42,0"
	_, cmd := m.Update(keyMsg("enter"))
	if msg, ok := runCmd(cmd).(actionMsg); !ok || msg.err != nil || !slices.Contains(calls, "switch-client -t $01") {
		t.Errorf("same server: msg %+v, calls %q; want switch-client to $01", msg, calls)
	}

	calls = nil
	m.o.TmuxEnv = "/tmp/tmux-1/other,42,0"
	_, cmd = m.Update(keyMsg("enter"))
	msg, _ := runCmd(cmd).(actionMsg)
	if msg.err == nil || !strings.Contains(msg.err.Error(), "another tmux server") || slices.ContainsFunc(calls, func(c string) bool { return strings.HasPrefix(c, "switch-client") }) {
		t.Errorf("other server: msg %+v, calls %q; want an explanation and no switch", msg, calls)
	}
}

func TestAttachRefusesTerminated(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	m = press(m, "l", "l", "l", "l") // Done: shipped
	if m = press(m, "enter"); !strings.Contains(m.status.text, "session terminated") {
		t.Errorf("enter on a terminated card: status %q", m.status.text)
	}
}
