package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// realPayloads reads testdata/real/AGENT/SCENARIO/payloads.jsonl, the hook
// payloads a real agent gave its hooks, as event name and raw JSON.
func realPayloads(agentName, scenario string) ([][2]string, error) {
	f, err := os.Open(filepath.Join("testdata", "real", agentName, scenario, "payloads.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("the recorded %s %s payloads: %w", agentName, scenario, err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p struct {
			Event   string          `json:"event"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("the recorded %s %s payloads: %w", agentName, scenario, err)
		}
		out = append(out, [2]string{p.Event, string(p.Payload)})
	}
	return out, sc.Err()
}

// drillStopFailure: the real Claude Code StopFailure payloads (an API error)
// go through `lanes hook claude`; the card must read idle + failed in Needs
// you, and `lanes send` must deliver, since the agent's prompt is free.
func drillStopFailure(w *world.World) (string, error) {
	out, err := rawSink(w)
	if err != nil {
		return "", err
	}
	payloads, err := realPayloads("claude", "api-error")
	if err != nil {
		return "", err
	}
	var events []string
	for _, p := range payloads {
		if r := w.Lanes(p[1], "hook", "claude", "--session", "sink"); r.Code != 0 {
			return "", fmt.Errorf("lanes hook claude (%s): exit %d %s", p[0], r.Code, r.Stderr)
		}
		events = append(events, p[0])
	}
	var s world.Session
	if !world.WaitFor(10*time.Second, func() bool {
		ls, err := w.Ls()
		s = ls["sink"]
		return err == nil && s.EventsApplied == len(payloads)
	}) {
		return "", fmt.Errorf("the recorded events were not applied: %+v", s)
	}
	card := fmt.Sprintf("%s/%s %v activity %s", s.Status, s.Zone, s.Marks, s.Activity)
	if s.Status != "idle" || s.Zone != "needs_you" || !slices.Equal(s.Marks, []string{"failed"}) {
		return card, fmt.Errorf("after StopFailure the card reads %s, want idle/needs_you [failed]", card)
	}
	r := w.Lanes("", "send", "sink", "try again")
	if r.Code != 0 {
		return card, fmt.Errorf("send after a failed turn: exit %d %s", r.Code, strings.TrimSpace(r.Stderr))
	}
	if got, ok := waitReceived(out, "try again\r"); !ok {
		return card, fmt.Errorf("the agent received %q, want %q", got, "try again\r")
	}
	return fmt.Sprintf("real payloads %v → card %s; lanes send exit 0, text delivered", events, card), nil
}

// drillExitAfterSessionEnd: a fake agent sends the real Claude Code
// SessionEnd of /exit through `lanes hook claude`, then exits 0; lanes must
// close the session as a clean exit, not leave "exited (0)" in Needs you.
// The wait is the clean-exit lifetime itself (10 s), so this drill waits
// for real: 11.5 s, since tmux dates a death to the whole second.
func drillExitAfterSessionEnd(w *world.World) (string, error) {
	payloads, err := realPayloads("claude", "exit")
	if err != nil {
		return "", err
	}
	end := ""
	for _, p := range payloads {
		if p[0] == "SessionEnd" {
			end = p[1]
		}
	}
	if end == "" {
		return "", fmt.Errorf("the recorded exit has no SessionEnd")
	}
	// The agent: the SessionEnd, then the rest of a 10 s lifetime, then exit 0.
	script := `printf '%s' "$1" | "$0" hook claude && sleep 11.5 && exit 0`
	start := time.Now()
	if r := w.Lanes("", "new", "quitter", "--", "sh", "-c", script, w.Bin, end); r.Code != 0 {
		return "", fmt.Errorf("lanes new: exit %d %s", r.Code, r.Stderr)
	}
	var s world.Session
	sawExited := false
	if !world.Poll(30*time.Second, 250*time.Millisecond, func() bool {
		ls, err := w.Ls()
		s = ls["quitter"]
		sawExited = sawExited || (s.Activity == "exited" && !s.IsTerminated)
		return err == nil && s.IsTerminated
	}) {
		pane, _ := w.Tmux(w.Socket, "list-panes", "-t", "=lanes-quitter:", "-F",
			"dead=#{pane_dead} status=#{pane_dead_status} died=#{pane_dead_time} created=#{session_created}")
		exit := ""
		if s.Exit != nil {
			exit = string(*s.Exit)
		}
		return "", fmt.Errorf("after SessionEnd and exit 0 the session is still %s/%s (activity %s, exit %s; tmux: %s) after %s",
			s.Status, s.Zone, s.Activity, exit, strings.TrimSpace(pane), time.Since(start).Round(time.Second))
	}
	reason := ""
	if s.TerminatedReason != nil {
		reason = *s.TerminatedReason
	}
	if reason != "agent exited cleanly (status 0)" || !sawExited {
		return "", fmt.Errorf("terminated with reason %q (SessionEnd seen as exited first: %v)", reason, sawExited)
	}
	return fmt.Sprintf("SessionEnd (reason prompt_input_exit) → exited; exit 0 at 11.5 s (tmux dates a death to the second) → closed after %s, reason %q",
		time.Since(start).Round(100*time.Millisecond), reason), nil
}

// drillClaudeBackslash: a prompt ending in a backslash, sent to a Claude
// Code session, must arrive so that Enter submits it (Claude reads `\` +
// Enter as a line continuation): a fake `claude` on PATH records the raw
// keys it gets. Sent while the pane is in view mode, it must still arrive.
func drillClaudeBackslash(w *world.World) (string, error) {
	bin := filepath.Join(w.Root, "fakebin")
	out := filepath.Join(w.Root, "received")
	fake := "#!/bin/sh\nstty raw -echo && echo '? for shortcuts' && exec cat > " + out + "\n" // Claude's idle footer: send waits for it
	if err := os.MkdirAll(bin, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fake), 0o700); err != nil {
		return "", err
	}
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
	if msg, err := w.Tmux(w.Socket, "set-environment", "-g", "PATH", path); err != nil {
		return "", fmt.Errorf("tmux set-environment: %v %s", err, msg)
	}
	lanes := func(args ...string) world.Result {
		cmd := exec.Command(w.Bin, args...)
		cmd.Env = append(w.Env(), "PATH="+path)
		var so, se strings.Builder
		cmd.Stdout, cmd.Stderr = &so, &se
		r := world.Result{}
		if err := cmd.Run(); err != nil {
			r.Code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				r.Code = ee.ExitCode()
			}
		}
		r.Stdout, r.Stderr = so.String(), se.String()
		return r
	}
	if r := lanes("new", "cc", "--agent", "claude"); r.Code != 0 {
		return "", fmt.Errorf("lanes new --agent claude: exit %d %s", r.Code, r.Stderr)
	}
	if !world.WaitFor(10*time.Second, func() bool {
		s, _ := w.Tmux(w.Socket, "capture-pane", "-p", "-t", "=lanes-cc:")
		return strings.Contains(s, "? for shortcuts")
	}) {
		return "", fmt.Errorf("the fake claude never started")
	}
	if r := lanes("send", "cc", `list C:\temp\`); r.Code != 0 {
		return "", fmt.Errorf("send: exit %d %s", r.Code, r.Stderr)
	}
	if msg, err := w.Tmux(w.Socket, "run-shell", "-t", "=lanes-cc:", "echo view mode"); err != nil {
		return "", fmt.Errorf("tmux run-shell: %v %s", err, msg)
	}
	mode, _ := w.Tmux(w.Socket, "display-message", "-p", "-t", "=lanes-cc:", "#{pane_mode}")
	if r := lanes("send", "cc", "next"); r.Code != 0 {
		return "", fmt.Errorf("send: exit %d %s", r.Code, r.Stderr)
	}
	want := `list C:\temp\ ` + "\rnext\r"
	got, ok := waitReceived(out, want)
	if !ok {
		return "", fmt.Errorf("claude received %q, want %q (Enter right after a backslash is a line continuation)", got, want)
	}
	return fmt.Sprintf("claude received %q: the backslash is followed by a space Claude trims, so Enter submits; "+
		"the second send, made with the pane in %s, arrived too", got, strings.TrimSpace(mode)), nil
}
