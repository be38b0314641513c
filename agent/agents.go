package agent

import (
	"fmt"
	"path/filepath"
	"time"

	"lanes/state"
)

// Each coding agent lanes drives is described once, as data, in a file of
// its own (claude.go, codex.go, gemini.go, opencode.go, qwen.go, pi.go): how it starts
// with lanes' hooks, where `lanes hooks install` writes them, the keys
// that answer its dialog and how that dialog reads on screen, how it
// resumes, how its input takes a prompt. The rest of the package asks the
// description, never the agent's name. What lanes reads from an agent
// (hook events, screen markers) is package state's, described the same way
// (state.Reading); a test checks the two lists name the same agents.

// Driver is what lanes does to one coding agent.
type Driver struct {
	Agent state.Agent
	// Binary is its program, found on PATH.
	Binary string
	// launch is how it starts with lanes' hooks, whose files go under
	// hookDir (the session's HookDir).
	launch func(lanesBin, hookDir string, userArgs []string, env func(string) string) (Plan, error)
	// userConfig and projectConfig are the files `lanes hooks install`
	// writes, under the user's home or a project's directory.
	userConfig, projectConfig string
	// hooks are the events lanes registers in that file, each running
	// handler's command; a plugin agent (hooks nil) takes plugin's file
	// instead, which is lanes' alone.
	hooks   []hookSpec
	handler func(lanesBin string, installed bool) hookHandler
	plugin  func(lanesBin string, installed bool) []byte
	// keys answer its permission dialog, which readDialog reads from a
	// screen's lines (trailing spaces gone); callText is a shell call as
	// the dialog prints it (cmd: the command, input: the whole tool
	// input), false when it is not one text only.
	keys       DialogKeys
	readDialog func(lines []string) (dialog, bool)
	// plan answers its plan approval (plan.go); nil: lanes answers none.
	plan     map[Answer]planAnswer
	callText func(tool, cmd string, input []byte) (string, bool)
	// resume is the arguments that make it resume conversation id.
	resume func(id string) []string
	// userCommand inverts launch: from a pane's start command, the command
	// as `lanes new` records it; false when the user's part cannot be told
	// from what launch added.
	userCommand func(hookDir string, argv []string) ([]string, bool)
	// injected is the file or directory under HookDir its launch writes;
	// "" when its hooks travel on its command line.
	injected string
	// continues: a backslash before Enter continues its input on a new
	// line rather than submitting it (Prompt).
	continues bool
	// chain is the user's own program that lanes' hook for event stands
	// in for, nil for none (Chained).
	chain func(event string, env func(string) string) []string
	// guard is how long its dialog ignores keys after it opens (KeyGuard).
	guard time.Duration
	// dialogWords show only while one of its dialogs does, for an agent
	// without screen markers (ShowsDialog).
	dialogWords []string
}

// drivers are the coding agents lanes drives, in the order lists show them.
var drivers = []*Driver{&claude, &codex, &gemini, &opencode, &qwen, &pi}

// DriverOf is agent a's description; false for one lanes drives no
// hooks of (a shell, a custom command).
func DriverOf(a state.Agent) (*Driver, bool) {
	for _, d := range drivers {
		if d.Agent == a {
			return d, true
		}
	}
	return nil, false
}

// ByBinary is the agent whose program is name, false for none.
func ByBinary(name string) (state.Agent, bool) {
	for _, d := range drivers {
		if d.Binary == name {
			return d.Agent, true
		}
	}
	return "", false
}

// driverOrNoHooks is DriverOf, or why a has nothing lanes installs.
func driverOrNoHooks(a state.Agent) (*Driver, error) {
	if d, ok := DriverOf(a); ok {
		return d, nil
	}
	if a == state.AgentShell || a == state.AgentCustom {
		return nil, fmt.Errorf("%s: %w: nothing to install (use `lanes hook generic ACTIVITY` from your own scripts)", a, ErrNoHooks)
	}
	return nil, fmt.Errorf("unknown agent %q", a)
}

// configPath is the file Install writes for d: the user's under home, or
// the project's under projectDir when it is not empty.
func (d *Driver) configPath(home, projectDir string) string {
	if projectDir != "" {
		return filepath.Join(projectDir, d.projectConfig)
	}
	return filepath.Join(home, d.userConfig)
}

// Chained is the program of the user's that lanes' hook for agent a's
// event stands in for, to run with the same payload (the last argument);
// nil when there is none.
func Chained(a state.Agent, event string, env func(string) string) []string {
	if d, ok := DriverOf(a); ok && d.chain != nil {
		return d.chain(event, env)
	}
	return nil
}

// KeyGuard is how long agent a's permission dialog ignores keys after it
// opens, so that keys meant for its prompt do not answer it: a key sent
// sooner is lost, and the answer said done is not.
func KeyGuard(a state.Agent) time.Duration {
	if d, ok := DriverOf(a); ok {
		return d.guard
	}
	return 0
}

// ShowsDialog reports whether screen shows one of agent a's dialogs: its
// dialog markers, or the questions it asks before it starts (trust, hook
// review: state.Markers), its other dialogs' words, or a permission
// dialog it draws. Text typed there would answer it.
func ShowsDialog(a state.Agent, screen string) bool {
	if m, ok := state.MarkersOf(a); ok && m.Asks(state.Screen(screen)) {
		return true
	}
	if d, ok := DriverOf(a); ok && state.Screen(screen).Shows(d.dialogWords) {
		return true
	}
	_, read := readDialog(a, screen)
	return read
}
