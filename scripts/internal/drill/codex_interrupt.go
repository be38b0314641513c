package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// The Codex Interrupt drill runs a fake `codex` that replays a recorded real
// Codex 0.171 run (testdata/real/codex/interrupt-hook) through the hook
// commands lanes injected into ITS OWN argv (`-c hooks.EVENT=[…command=…]`),
// as the real Codex does: an event lanes does not inject is never heard.
// Esc on the dialog and Ctrl-C mid-turn fire Interrupt and nothing else.
// After each key the fake keeps redrawing, so the witness can never settle
// the card: only the hook can make it Idle + Interrupted.

// fakeCodex is the fake agent; S holds the screens and payloads.
const fakeCodex = `#!/bin/sh
S=%q
while [ $# -gt 0 ]; do
	case $1 in hooks.*=*command=*)
		ev=${1#hooks.}; ev=${ev%%%%=*}
		printf '%%s' "$1" | sed -n 's/.*command="\(.*\)"}]}]$/\1/p' > "$S/cmd-$ev" ;;
	esac
	shift
done
hook() { [ -s "$S/cmd-$1" ] && sh -c "$(cat "$S/cmd-$1")" < "$S/cx-$1.json"; }
show() { clear; cat "$S/$1.screen"; }
key() { dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n'; }
redraw() { i=0; while [ $i -lt 100 ]; do show $1; sleep 0.3; i=$((i+1)); done; }
stty -isig -icanon -echo min 1 time 0
printf '› Ask Codex to do anything\n\n  ? for shortcuts\n'
IFS= read -r p
hook UserPromptSubmit; hook PreToolUse; hook PermissionRequest
show dialog
[ "$(key)" = 1b ] && hook Interrupt
redraw rejected &
IFS= read -r p
kill $! 2>/dev/null
hook UserPromptSubmit
stty min 0 time 3
while :; do show busy; [ -n "$(key)" ] && break; done
hook Interrupt
redraw interrupted
exec sleep 86400
`

// setupFakeCodex writes the fake codex and its recorded material and puts
// it first on the world's PATH.
func setupFakeCodex(w *world.World) (func(), error) {
	dir := filepath.Join(w.Root, "fake-codex")
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o700); err != nil {
		return nil, err
	}
	real := filepath.Join("testdata", "real", "codex", "interrupt-hook")
	for _, step := range []string{"dialog", "rejected", "busy", "interrupted"} {
		b, err := os.ReadFile(filepath.Join(real, step+".screen"))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, step+".screen"), b, 0o600); err != nil {
			return nil, err
		}
	}
	if err := splitPayloads(filepath.Join(real, "payloads.jsonl"), dir, "cx"); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "codex"), []byte(fmt.Sprintf(fakeCodex, dir)), 0o700); err != nil {
		return nil, err
	}
	return fakeOnPath(w, filepath.Join(dir, "bin"))
}

func drillCodexInterruptHook(w *world.World) (string, error) {
	restore, err := setupFakeCodex(w)
	if err != nil {
		return "", err
	}
	defer restore()
	if r := w.Lanes("", "new", "cx", "--agent", "codex", "--dir", w.Root); r.Code != 0 {
		return "", fmt.Errorf("lanes new: exit %d: %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	if !world.WaitFor(10*time.Second, func() bool {
		out, _ := w.Tmux(w.Socket, "capture-pane", "-p", "-t", "lanes-cx")
		return strings.Contains(out, "Ask Codex")
	}) {
		return "", fmt.Errorf("the fake codex never showed its prompt")
	}
	if r := w.Lanes("", "send", "cx", "run the next command"); r.Code != 0 {
		return "", fmt.Errorf("lanes send: exit %d: %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	if _, s := awaitLs(w, "cx", 10*time.Second, func(s lsOne) bool { return s.Dialog }); !s.Dialog {
		return "", fmt.Errorf("no dialog after PermissionRequest: %+v", s)
	}
	interrupted := func(s lsOne) bool {
		return s.Status == "idle" && !s.Dialog && strings.Contains(strings.Join(s.Marks, ","), "interrupted")
	}
	_, _ = w.Tmux(w.Socket, "send-keys", "-t", "lanes-cx", "Escape")
	tookEsc, s := awaitLs(w, "cx", 10*time.Second, interrupted)
	ev := fmt.Sprintf("Esc on the dialog: ls says %s %v (dialog %v) after %v", s.Status, s.Marks, s.Dialog, tookEsc)
	if tookEsc < 0 {
		return ev, fmt.Errorf("want idle + interrupted, no dialog, from the Interrupt hook")
	}
	// The fake fires its hook, then draws the refused call over its dialog:
	// until it does, send rightly refuses the dialog still on screen (a
	// loaded CI machine sent in between).
	if !world.WaitFor(10*time.Second, func() bool {
		out, _ := w.Tmux(w.Socket, "capture-pane", "-p", "-t", "lanes-cx")
		return !strings.Contains(out, "Would you like to run the following command?")
	}) {
		return ev, fmt.Errorf("the fake codex still draws its dialog after the Esc")
	}
	if r := w.Lanes("", "send", "cx", "tell me a long story"); r.Code != 0 {
		return ev, fmt.Errorf("send after the Esc: exit %d: %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	if took, s := awaitLs(w, "cx", 10*time.Second, func(s lsOne) bool { return s.Status == "working" }); took < 0 {
		return ev, fmt.Errorf("never working after the prompt: %+v", s)
	}
	_, _ = w.Tmux(w.Socket, "send-keys", "-t", "lanes-cx", "C-c")
	tookC, s := awaitLs(w, "cx", 10*time.Second, interrupted)
	ev += fmt.Sprintf("; send then: ok; Ctrl-C mid-turn: ls says %s %v after %v (pane still drawing: only the hook can tell)", s.Status, s.Marks, tookC)
	if tookC < 0 {
		return ev, fmt.Errorf("want idle + interrupted from the Interrupt hook")
	}
	return ev, nil
}
