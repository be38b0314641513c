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
)

// The answer-race drill (issue 30, item 1) runs a stand-in of each agent
// that shows a recorded real dialog screen and reads keys raw into a
// file. Its hooks report the recorded dialog (`git status`-like: the
// recorded command); the race stand-in shows, under it and its
// transcript line, a newer dialog of the same agent for another command
// that no hook reported yet. `lanes answer` (and the board's y, which
// runs the same check) must send nothing there, and say what the pane
// asks; the plain stand-in's dialog is answered with the agent's own key.
const standIn = `#!/bin/sh
S=%q
a=$(basename "$0")
clear; cat "$S/$a.$LANES_DRILL_SCREEN"
stty raw -echo && exec cat > "$S/$a.$LANES_DRILL_SCREEN.received"
`

// raceAgent is one agent's recorded dialog and the hook lines that report it.
type raceAgent struct {
	name, command string
	hooks         []raceHook
	key           string // what its yes sends, as the stand-in reads it
	// moved is what its yes sends when a person moved its highlight to
	// the second option ("" where keys follow no highlight).
	moved string
}

type raceHook struct{ event, payload string }

// raceAgents reads each agent's recorded permission-approve run.
func raceAgents() ([]raceAgent, error) {
	keys := map[string]string{"claude": "1", "codex": "y", "gemini": "1", "opencode": "\r"}
	var out []raceAgent
	for _, name := range []string{"claude", "codex", "gemini", "opencode"} {
		a := raceAgent{name: name, key: keys[name]}
		if name == "opencode" {
			a.moved = "\x1b[C\x1b[C" // Right Right (from Allow always round to Allow once), and no Enter unseen
		}
		f, err := os.Open(filepath.Join("testdata", "real", name, "permission-approve", "payloads.jsonl"))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var l struct {
				Event   string          `json:"event"`
				Payload json.RawMessage `json:"payload"`
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				f.Close()
				return nil, err
			}
			if h, ok := dialogHook(name, l.Event, l.Payload); ok {
				a.hooks = append(a.hooks, h)
			}
		}
		f.Close()
		screen, err := os.ReadFile(filepath.Join("testdata", "real", name, "permission-approve", "dialog.screen"))
		if err != nil {
			return nil, err
		}
		a.command = "touch approved.txt && sleep 12"
		if len(a.hooks) == 0 || !strings.Contains(string(screen), a.command) {
			return nil, fmt.Errorf("%s: the recording changed: no dialog hook, or no %q on its screen", name, a.command)
		}
		out = append(out, a)
	}
	return out, nil
}

// dialogHook is the hook line a recorded event makes, if it is one of
// the dialog's: for OpenCode, what lanes' plugin forwards of it.
func dialogHook(agent, event string, payload json.RawMessage) (raceHook, bool) {
	switch {
	case (agent == "claude" || agent == "codex") && (event == "PreToolUse" || event == "PermissionRequest"),
		agent == "gemini" && (event == "BeforeTool" || event == "Notification"):
		return raceHook{event, string(payload)}, true
	case agent == "opencode" && event == "permission.asked":
		var p struct {
			Properties struct {
				SessionID  string                  `json:"sessionID"`
				Permission string                  `json:"permission"`
				Patterns   []string                `json:"patterns"`
				Metadata   map[string]string       `json:"metadata"`
				Tool       struct{ CallID string } `json:"tool"`
			} `json:"properties"`
		}
		if json.Unmarshal(payload, &p) != nil {
			return raceHook{}, false
		}
		in := map[string]string{"pattern": strings.Join(p.Properties.Patterns, " ")}
		for k, v := range p.Properties.Metadata {
			in[k] = v
		}
		b, _ := json.Marshal(map[string]any{"hook_event_name": event, "session_id": p.Properties.SessionID,
			"tool_use_id": p.Properties.Tool.CallID, "tool_name": p.Properties.Permission, "tool_input": in})
		return raceHook{"", string(b)}, true
	}
	return raceHook{}, false
}

func drillAnswerRace(w *world.World) (string, error) {
	agents, err := raceAgents()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(w.Root, "stand-in")
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o700); err != nil {
		return "", err
	}
	for _, a := range agents {
		real, _ := os.ReadFile(filepath.Join("testdata", "real", a.name, "permission-approve", "dialog.screen"))
		newer := string(real) + "\n⏺ Bash(" + a.command + ")\n" + strings.ReplaceAll(string(real), a.command, "rm -rf ~/src")
		// The same characters, spaced otherwise: another command (the
		// hostile re-run's "rm -rf ~ /x" for "rm -rf ~/x").
		spaced := strings.ReplaceAll(string(real), a.command, "touch approved .txt && sleep 1 2")
		screens := map[string]string{a.name + ".race": newer, a.name + ".plain": string(real), a.name + ".spaced": spaced}
		if a.moved != "" {
			// The recordings are text; the highlight Enter takes is a
			// colour, drawn as the real OpenCode draws it
			// (testdata/real/opencode/highlight): on the first option as
			// it opens, and on the second where a person moved it.
			for f, s := range screens {
				screens[f] = highlightOn(s, "Allow once")
			}
			screens[a.name+".moved"] = highlightOn(string(real), "Allow always")
		}
		for file, b := range screens {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(b), 0o600); err != nil {
				return "", err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "bin", a.name), []byte(fmt.Sprintf(standIn, dir)), 0o700); err != nil {
			return "", err
		}
	}
	restore, err := fakeOnPath(w, filepath.Join(dir, "bin"))
	if err != nil {
		return "", err
	}
	defer restore()
	var ev []string
	for _, a := range agents {
		line, err := raceOne(w, dir, a)
		ev = append(ev, line)
		if err != nil {
			return strings.Join(ev, "\n"), err
		}
	}
	return strings.Join(ev, "\n"), nil
}

// raceOne runs agent a's race and plain stand-ins and answers each.
func raceOne(w *world.World, dir string, a raceAgent) (string, error) {
	var said []string
	screens := []string{"race", "spaced", "plain"}
	if a.moved != "" {
		screens = append(screens, "moved")
	}
	for _, screen := range screens {
		name := a.name[:2] + "-" + screen
		// The world's private server hands new panes its environment.
		_, _ = w.Tmux(w.Socket, "set-environment", "-g", "LANES_DRILL_SCREEN", screen)
		r := w.Lanes("", "new", name, "--agent", a.name)
		if r.Code != 0 {
			return "", fmt.Errorf("lanes new %s --agent %s: exit %d: %s", name, a.name, r.Code, r.Stderr)
		}
		shows := map[string]string{"race": "rm -rf ~/src", "spaced": "approved .txt", "plain": a.command, "moved": a.command}[screen]
		if !world.WaitFor(10*time.Second, func() bool {
			out, _ := w.Tmux(w.Socket, "capture-pane", "-p", "-t", "=lanes-"+name+":")
			return strings.Contains(out, shows)
		}) {
			return "", fmt.Errorf("%s: the stand-in never showed its dialog", name)
		}
		for _, h := range a.hooks {
			args := []string{"hook", a.name}
			if h.event != "" {
				args = append(args, h.event)
			}
			if r := w.Lanes(h.payload, append(args, "--session", name)...); r.Code != 0 {
				return "", fmt.Errorf("%s: lanes hook: exit %d", name, r.Code)
			}
		}
		if a.name == "claude" && screen == "race" {
			board, err := boardY(w, name)
			said = append(said, "the board's y: "+board)
			if err != nil {
				return a.name + ": " + strings.Join(said, "; "), err
			}
		}
		ans := w.Lanes("", "answer", name, "yes")
		received := filepath.Join(dir, a.name+"."+screen+".received")
		if _, err := w.Tmux(w.Socket, "send-keys", "-t", "=lanes-"+name+":", "9"); err != nil {
			return "", err
		}
		answered := screen == "plain"
		// moved: the stand-in draws no move, so after lanes' moves its
		// highlight is not where they should have put it, and no Enter
		// may follow.
		want := map[string]string{"plain": a.key + "9", "moved": a.moved + "9"}[screen]
		if want == "" {
			want = "9"
		}
		var got []byte
		world.WaitFor(10*time.Second, func() bool { got, _ = os.ReadFile(received); return len(got) >= len(want) })
		said = append(said, fmt.Sprintf("%s: exit %d %q, the pane got %q", screen, ans.Code,
			strings.TrimSpace(ans.Stdout+ans.Stderr), got))
		switch {
		case screen == "moved" && (ans.Code == 0 || !strings.Contains(ans.Stderr, "highlight is not where lanes moved it")):
			return a.name + ": " + strings.Join(said, "; "), fmt.Errorf("%s: an answer whose moves did not show was confirmed", a.name)
		case screen != "moved" && !answered && (ans.Code == 0 || !strings.Contains(ans.Stderr, "asks about another call (") || !strings.Contains(ans.Stderr, shows)):
			return a.name + ": " + strings.Join(said, "; "), fmt.Errorf("%s: the answer to a newer dialog was not refused so", a.name)
		// (OpenCode's stand-in draws its dialog on: lanes says the key
		// did not take, after it went.)
		case answered && ans.Code != 0 && !(a.moved != "" && strings.Contains(ans.Stderr, "did not take")):
			return a.name + ": " + strings.Join(said, "; "), fmt.Errorf("%s: the answer to the dialog shown was refused", a.name)
		case string(got) != want:
			return a.name + ": " + strings.Join(said, "; "), fmt.Errorf("%s %s: the pane got %q, want %q", a.name, screen, got, want)
		}
	}
	return a.name + ": " + strings.Join(said, "; "), nil
}

// highlightOn draws label, on the line of a text screen that holds it, as
// OpenCode 1.18.33 draws its highlighted option (recorded in
// testdata/real/opencode/highlight: the accent background one cell each
// side, dark letters), the other options on the dialog's background.
func highlightOn(screen, label string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if strings.Contains(l, "Allow once   Allow always   Reject") {
			lines[i] = "\x1b[48;5;234m" + strings.Replace(l, " "+label+" ",
				"\x1b[48;5;215m \x1b[38;5;232m"+label+"\x1b[38;5;15m \x1b[48;5;234m", 1) + "\x1b[49m"
		}
	}
	return strings.Join(lines, "\n")
}

// boardY presses y on the board with name's card selected (the only one
// in Needs you) and reads what the board says.
func boardY(w *world.World, name string) (string, error) {
	view := w.Socket + "-race"
	if err := w.StartBoard(view, 160, 40); err != nil {
		return "", err
	}
	defer func() { _, _ = w.Tmux(view, "kill-server") }()
	screen := func() string { return w.Screen(view) }
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(screen(), "y allow") }) {
		return screen(), fmt.Errorf("the board never offered y on %s's dialog", name)
	}
	if _, err := w.Tmux(view, "send-keys", "y"); err != nil {
		return "", err
	}
	var said string
	if !world.WaitFor(10*time.Second, func() bool {
		for l := range strings.Lines(screen()) {
			if strings.Contains(l, "another call") {
				said = strings.TrimSpace(l)
				return true
			}
		}
		return false
	}) {
		return screen(), fmt.Errorf("the board's y did not say the pane asks about another call")
	}
	return said, nil
}
