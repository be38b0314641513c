package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillSendAndHookEdges: C1 controls are refused like C0 ones; a CRLF prompt
// on stdin arrives with LF line ends; `lanes send NAME -` on a terminal says
// how to end the prompt; a hook with no usable state dir returns without
// waiting for stdin.
func drillSendAndHookEdges(w *world.World) (string, error) {
	out, err := rawSink(w)
	if err != nil {
		return "", err
	}
	var lines []string
	c1 := w.Lanes("", "send", "sink", "clear\u009b2Jscreen")
	lines = append(lines, fmt.Sprintf("send with U+009B (C1 CSI): exit %d, %q", c1.Code, firstLine(c1.Stderr)))
	if c1.Code == 0 || !strings.Contains(c1.Stderr, "control characters") {
		return strings.Join(lines, "\n"), fmt.Errorf("a C1 control reached the pane")
	}
	crlf := w.Lanes("one\r\ntwo\r\n", "send", "sink", "-")
	lines = append(lines, fmt.Sprintf("send - with a CRLF prompt: exit %d %s", crlf.Code, firstLine(crlf.Stderr)))
	if crlf.Code != 0 {
		return strings.Join(lines, "\n"), fmt.Errorf("a CRLF prompt on stdin was refused")
	}
	hint, err := sendFromTerminal(w)
	lines = append(lines, fmt.Sprintf("send - on a terminal shows %q", hint))
	if err != nil {
		return strings.Join(lines, "\n"), err
	}
	want := "one\ntwo\rtyped at a terminal\r"
	got, ok := waitReceived(out, want)
	lines = append(lines, fmt.Sprintf("the agent received %q", got))
	if !ok {
		return strings.Join(lines, "\n"), fmt.Errorf("want %q", want)
	}

	took, err := hookWithoutStateDir(w)
	lines = append(lines, fmt.Sprintf("hook claude (payload on stdin), state dir refused, stdin open and silent: returned in %v", took.Round(10*time.Millisecond)))
	if err != nil {
		return strings.Join(lines, "\n"), err
	}
	if took > 5*time.Second { // it used to wait 10 s for a payload it could not record
		return strings.Join(lines, "\n"), fmt.Errorf("the hook waited on stdin with nowhere to write")
	}
	return strings.Join(lines, "\n"), nil
}

// sendFromTerminal runs `lanes send sink -` in a pane of a second private
// server, waits for its hint, types a prompt and Ctrl-D.
func sendFromTerminal(w *world.World) (string, error) {
	view := w.Socket + "-tty"
	args := append(append([]string{"new-session", "-d", "-x", "100", "-y", "10", "env"}, w.Env()...), w.Bin, "send", "sink", "-")
	if out, err := w.Tmux(view, args...); err != nil {
		return "", fmt.Errorf("starting lanes send in a pane: %v %s", err, out)
	}
	const want = "end it with Ctrl-D"
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(w.Screen(view), want) }) {
		return firstLine(w.Screen(view)), fmt.Errorf("lanes send - on a terminal said nothing")
	}
	hint := grepLine(w.Screen(view), want)
	if out, err := w.Tmux(view, "send-keys", "-l", "typed at a terminal"); err != nil {
		return hint, fmt.Errorf("typing: %v %s", err, out)
	}
	if out, err := w.Tmux(view, "send-keys", "Enter", "C-d"); err != nil {
		return hint, fmt.Errorf("typing: %v %s", err, out)
	}
	return hint, nil
}

// hookWithoutStateDir runs `lanes hook claude` (payload expected on stdin)
// with a state dir other users can write, which lanes refuses, and a stdin
// that stays open and silent; it says how long the hook took.
func hookWithoutStateDir(w *world.World) (time.Duration, error) {
	dir := filepath.Join(w.Root, "shared-state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		return 0, err
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		return 0, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer pw.Close()
	cmd := exec.Command(w.Bin, "hook", "claude", "--session", "sink")
	cmd.Env, cmd.Stdin = append(w.Env(), "LANES_STATE_DIR="+dir), pr
	start := time.Now()
	err = cmd.Run()
	pr.Close()
	took := time.Since(start)
	if err != nil {
		return took, fmt.Errorf("hook: %v (it must exit 0)", err)
	}
	return took, nil
}
