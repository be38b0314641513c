package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// fakeGeminiTrust shows Gemini CLI's recorded folder-trust question
// (testdata/real/gemini/trust-no-hooks), drawing it again every half
// second, as the real one's card saw output, until a key; then the screen
// the real one left after Enter (it restarted under its question). S holds
// the screens.
const fakeGeminiTrust = `#!/bin/sh
S=%q
stty -icanon -echo min 0 time 5
clear; cat "$S/trust.screen"
while [ -z "$(dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')" ]; do printf '\r'; done
clear; cat "$S/idle.screen"
exec sleep 86400
`

// drillStartQuestionHolds: Gemini CLI whose hooks lanes could not inject
// (the world's state dir is under /tmp) asks whether to trust its folder.
// The card stays in Needs you, with the question said once, over the
// pane's redraws, until the question is answered; then it is Idle,
// unmarked.
func drillStartQuestionHolds(w *world.World) (string, error) {
	hold := 20 * time.Second
	if *quick {
		hold = 6 * time.Second
	}
	dir := filepath.Join(w.Root, "fake-gemini")
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o700); err != nil {
		return "", err
	}
	for _, step := range []string{"trust", "idle"} {
		b, err := os.ReadFile(filepath.Join("testdata", "real", "gemini", "trust-no-hooks", step+".screen"))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, step+".screen"), b, 0o600); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "gemini"), fmt.Appendf(nil, fakeGeminiTrust, dir), 0o700); err != nil {
		return "", err
	}
	restore, err := fakeOnPath(w, filepath.Join(dir, "bin"))
	if err != nil {
		return "", err
	}
	defer restore()
	if r := w.Lanes("", "new", "gt", "--agent", "gemini", "--dir", w.Root); r.Code != 0 {
		return "", fmt.Errorf("lanes new: exit %d: %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	took, _ := awaitLs(w, "gt", 15*time.Second, func(s lsOne) bool { return s.Dialog })
	if took < 0 {
		return "", fmt.Errorf("the trust question never made the card Needs you")
	}
	reads, left := 0, 0
	var question string
	for end := time.Now().Add(hold); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		ss, err := w.Ls()
		if err != nil {
			return "", err
		}
		s := ss["gt"]
		reads++
		if s.Zone != "needs_you" || s.Activity != "waiting_input" {
			left++
		}
		if s.Question != nil {
			question = *s.Question
		}
	}
	evidence := fmt.Sprintf("question seen in %v; held %v over the pane's redraws: %d reads, %d left Needs you; question %q",
		took, hold, reads, left, question)
	if left > 0 || question != "Trust this folder?" {
		return evidence, fmt.Errorf("the card left the question it still showed, or said it wrong")
	}
	_, _ = w.Tmux(w.Socket, "send-keys", "-t", "=lanes-gt:", "Enter")
	took, s := awaitLs(w, "gt", 15*time.Second, func(s lsOne) bool { return !s.Dialog && s.Status == "idle" })
	evidence += fmt.Sprintf("\nEnter (trust): %s in %v, marks %v", s.Status, took, s.Marks)
	if took < 0 || len(s.Marks) > 0 {
		return evidence, fmt.Errorf("answered, but the card did not go Idle unmarked")
	}
	return evidence, nil
}
