package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
)

// The witness drills (docs/design.md §11) run a fake `claude` that replays a
// recorded real Claude Code run (testdata/real/claude): its screens, and its
// hook payloads through `lanes hook claude`, and that reads keys as the real
// TUI does: Enter (or 1) approves the dialog, Esc (or 3) rejects it,
// Ctrl-C interrupts; the dialog's key is kept in S/answered.
// The human's key fires no hook; only the witness can move the card.

// fakeClaude is the fake agent; S holds the screens and payloads, L is lanes.
const fakeClaude = `#!/bin/sh
S=%q; L=%q
hook() { "$L" hook claude < "$S/$1.json"; }
show() { clear; cat "$S/$1.screen"; }
key() { dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n'; }
stty -isig -icanon -echo min 1 time 0
show idle
read -r p
case $p in
*story*)
	hook interrupt-UserPromptSubmit
	stty min 0 time 3
	while :; do show busy; [ -n "$(key)" ] && break; done
	show interrupted ;;
*)
	hook approve-UserPromptSubmit; hook approve-PreToolUse; hook approve-PermissionRequest
	show dialog
	k=$(key); echo "$k" > "$S/answered"
	if [ "$k" = 1b ] || [ "$k" = 33 ]; then show rejected
	else
		i=0; while [ $i -lt %d ]; do show running; sleep 0.3; i=$((i+1)); done
		hook approve-PostToolUse; hook approve-Stop; show idle
	fi ;;
esac
exec sleep 86400
`

// setupFakeClaude writes the fake agent and its recorded material, and
// restarts the world's tmux server with it first on PATH (fakeOnPath).
func setupFakeClaude(w *world.World, runFor time.Duration) (func(), error) {
	dir := filepath.Join(w.Root, "fake-claude")
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o700); err != nil {
		return nil, err
	}
	real := filepath.Join("testdata", "real", "claude")
	copies := map[string]string{"idle": "permission-approve/idle", "dialog": "permission-approve/dialog",
		"running": "permission-approve/running", "rejected": "permission-reject/rejected",
		"busy": "interrupt/busy", "interrupted": "interrupt/interrupted"}
	for to, from := range copies {
		b, err := os.ReadFile(filepath.Join(real, from+".screen"))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, to+".screen"), b, 0o600); err != nil {
			return nil, err
		}
	}
	for prefix, scenario := range map[string]string{"approve": "permission-approve", "interrupt": "interrupt"} {
		if err := splitPayloads(filepath.Join(real, scenario, "payloads.jsonl"), dir, prefix); err != nil {
			return nil, err
		}
	}
	script := fmt.Sprintf(fakeClaude, dir, w.Bin, int(runFor/(300*time.Millisecond)))
	if err := os.WriteFile(filepath.Join(dir, "bin", "claude"), []byte(script), 0o700); err != nil {
		return nil, err
	}
	return fakeOnPath(w, filepath.Join(dir, "bin"))
}

// fakeOnPath restarts the world's tmux server with bin first on PATH, so a
// fake agent there is the one `lanes new` starts. The returned function
// puts PATH back.
func fakeOnPath(w *world.World, bin string) (func(), error) {
	path := os.Getenv("PATH")
	restore := func() { os.Setenv("PATH", path) }
	os.Setenv("PATH", bin+":"+path)
	_, _ = w.Tmux(w.Socket, "kill-server")
	// The old server may take a moment to let go of its socket.
	var err error
	if !world.WaitFor(5*time.Second, func() bool { err = w.StartServer(); return err == nil }) {
		restore()
		return nil, fmt.Errorf("restarting tmux with the fake claude on PATH: %w", err)
	}
	return restore, nil
}

// splitPayloads writes each recorded payload to DIR/PREFIX-EVENT.json.
func splitPayloads(file, dir, prefix string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Event   string          `json:"event"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, prefix+"-"+l.Event+".json"), l.Payload, 0o600); err != nil {
			return err
		}
	}
	return sc.Err()
}

// lsOne is one session of `lanes ls --json`, with the dialog fact.
type lsOne struct {
	Activity string   `json:"activity"`
	Status   string   `json:"status"`
	Dialog   bool     `json:"dialog"`
	Marks    []string `json:"marks"`
}

func lsSession(w *world.World, name string) (lsOne, error) {
	r := w.Lanes("", "ls", "--json")
	var list []struct {
		Name string `json:"name"`
		lsOne
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		return lsOne{}, fmt.Errorf("lanes ls: exit %d: %v %s", r.Code, err, r.Stderr)
	}
	for _, s := range list {
		if s.Name == name {
			return s.lsOne, nil
		}
	}
	return lsOne{}, fmt.Errorf("no session %s in ls", name)
}

// awaitLs polls ls (each call a collector cycle) until cond holds; it
// returns how long that took and the last state seen.
func awaitLs(w *world.World, name string, limit time.Duration, cond func(lsOne) bool) (time.Duration, lsOne) {
	start := time.Now()
	var s lsOne
	ok := world.Poll(limit, 200*time.Millisecond, func() bool {
		var err error
		s, err = lsSession(w, name)
		return err == nil && cond(s)
	})
	if !ok {
		return -1, s
	}
	return time.Since(start).Round(100 * time.Millisecond), s
}

// witnessStart starts the fake claude as session name, sends prompt and
// waits for the dialog (or for Working, when the prompt is a story).
func witnessStart(w *world.World, name, prompt string, runFor time.Duration) (func(), error) {
	restore, err := setupFakeClaude(w, runFor)
	if err != nil {
		return nil, err
	}
	if r := w.Lanes("", "new", name, "--agent", "claude", "--dir", w.Root); r.Code != 0 {
		restore()
		return nil, fmt.Errorf("lanes new: exit %d: %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	if !world.WaitFor(10*time.Second, func() bool {
		out, _ := w.Tmux(w.Socket, "capture-pane", "-p", "-t", "lanes-"+name)
		return strings.Contains(out, "? for shortcuts")
	}) {
		restore()
		return nil, fmt.Errorf("the fake claude never showed its prompt")
	}
	if r := w.Lanes("", "send", name, prompt); r.Code != 0 {
		restore()
		return nil, fmt.Errorf("lanes send: exit %d: %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	return restore, nil
}

func drillWitnessApprove(w *world.World) (string, error) {
	restore, err := witnessStart(w, "wa", "run the command", 12*time.Second)
	if err != nil {
		return "", err
	}
	defer restore()
	if _, s := awaitLs(w, "wa", 10*time.Second, func(s lsOne) bool { return s.Dialog }); !s.Dialog {
		return "", fmt.Errorf("no dialog after PermissionRequest: %+v", s)
	}
	_, _ = w.Tmux(w.Socket, "send-keys", "-t", "lanes-wa", "Enter")
	took, s := awaitLs(w, "wa", 10*time.Second, func(s lsOne) bool { return s.Status == "working" })
	ev := fmt.Sprintf("Enter on the recorded Claude dialog: ls says %s (dialog %v) after %v, no hook fired", s.Status, s.Dialog, took)
	if took < 0 || took > 5*time.Second || s.Dialog {
		return ev, fmt.Errorf("want working, no dialog, within 5 s")
	}
	took2, s := awaitLs(w, "wa", 20*time.Second, func(s lsOne) bool { return s.Status == "idle" })
	ev += fmt.Sprintf("; PostToolUse+Stop → %s after %v more", s.Status, took2)
	if took2 < 0 {
		return ev, fmt.Errorf("never idle after the tool ended")
	}
	return ev, nil
}

func drillWitnessReject(w *world.World) (string, error) {
	restore, err := witnessStart(w, "wr", "run the command", time.Second)
	if err != nil {
		return "", err
	}
	defer restore()
	if _, s := awaitLs(w, "wr", 10*time.Second, func(s lsOne) bool { return s.Dialog }); !s.Dialog {
		return "", fmt.Errorf("no dialog after PermissionRequest: %+v", s)
	}
	refused := w.Lanes("", "send", "wr", "yes")
	_, _ = w.Tmux(w.Socket, "send-keys", "-t", "lanes-wr", "Escape")
	took, s := awaitLs(w, "wr", 10*time.Second, func(s lsOne) bool { return s.Status == "idle" })
	sent := w.Lanes("", "send", "wr", "next prompt")
	ev := fmt.Sprintf("send into the dialog: exit %d; Esc: ls says %s (dialog %v) after %v; send then: exit %d",
		refused.Code, s.Status, s.Dialog, took, sent.Code)
	if refused.Code != 6 || took < 0 || took > 5*time.Second || s.Dialog || sent.Code != 0 {
		return ev, fmt.Errorf("want send refused (6) in the dialog, idle within 5 s after Esc, then send allowed")
	}
	return ev, nil
}

func drillWitnessInterrupt(w *world.World) (string, error) {
	restore, err := witnessStart(w, "wi", "tell me a long story", 0)
	if err != nil {
		return "", err
	}
	defer restore()
	busy := 8 * time.Second
	if *quick {
		busy = 3 * time.Second
	}
	took, s := awaitLs(w, "wi", 10*time.Second, func(s lsOne) bool { return s.Status == "working" })
	if took < 0 {
		return "", fmt.Errorf("never working after the prompt: %+v", s)
	}
	time.Sleep(busy) // the stream goes on; the witness must leave it alone
	if s, _ = lsSession(w, "wi"); s.Status != "working" {
		return "", fmt.Errorf("busy for %v: ls says %s", busy, s.Status)
	}
	_, _ = w.Tmux(w.Socket, "send-keys", "-t", "lanes-wi", "C-c")
	took, s = awaitLs(w, "wi", 15*time.Second, func(s lsOne) bool { return s.Status == "idle" })
	ev := fmt.Sprintf("still working after %v of streaming; Ctrl-C: ls says %s marks %v after %v (%v silence + a capture)", busy, s.Status, s.Marks, took, state.WitnessSilence)
	if took < 0 || took > 8*time.Second || !strings.Contains(strings.Join(s.Marks, ","), "interrupted") {
		return ev, fmt.Errorf("want idle + interrupted within ~5 s of silence")
	}
	return ev, nil
}
