package agent

import (
	"path/filepath"
	"runtime"
	"strings"

	"lanes/state"
)

// qwen is Qwen Code as lanes drives it: its hooks (Claude Code's events,
// by the same names) in a system defaults file of its own (a Gemini CLI
// fork, it layers settings alike), its dialog's keys and screen, --resume.
var qwen = Driver{
	Agent: state.AgentQwen, Binary: "qwen",
	launch:     qwenLaunch,
	userConfig: filepath.Join(".qwen", "settings.json"), projectConfig: filepath.Join(".qwen", "settings.json"),
	hooks: claudeHooks, handler: qwenHandler,
	// Qwen Code 0.24.4: "› 1. Yes, allow once / 2. Always allow run 'touch
	// *' commands in this project / 3. … for this user / 4. No, suggest
	// changes (esc)"; a digit picks its option. Always is the project's,
	// the first of the two.
	keys: DialogKeys{Yes: []string{"1"}, Always: []string{"2"}, No: []string{"4"},
		Words: map[Answer]string{Yes: "1. Yes, allow once", Always: "2. Always allow … in this project", No: "4. No, suggest changes"},
		Options: map[Answer]option{Yes: {text: "Yes, allow once", numbered: true},
			Always: {text: "Always allow ", prefix: true, numbered: true, first: true},
			No:     {text: "No, suggest changes (esc)", numbered: true}}},
	readDialog: qwenDialog, callText: plainCall,
	resume:    func(id string) []string { return []string{"--resume", id} },
	injected:  qwenDefaults,
	continues: true,
}

// qwenDefaults is the file under HookDir a Qwen Code launch names in
// EnvQwenSystemDefaults.
const qwenDefaults = "qwen-system-defaults.json"

// EnvQwenSystemDefaults is Qwen Code's variable naming its system defaults
// settings file, the lowest-precedence settings layer.
const EnvQwenSystemDefaults = "QWEN_CODE_SYSTEM_DEFAULTS_PATH"

// envQwenSystemSettings names its system settings file, beside which it
// looks for the defaults when EnvQwenSystemDefaults is unset.
const envQwenSystemSettings = "QWEN_CODE_SYSTEM_SETTINGS_PATH"

// qwenTimeoutSec bounds a hook run (Qwen Code counts seconds).
const qwenTimeoutSec = 10

func qwenHandler(lanesBin string, installed bool) hookHandler {
	return hookHandler{Name: "lanes", Type: "command", Command: hookCommand(lanesBin, "qwen", installed), Timeout: qwenTimeoutSec}
}

// qwenLaunch points QWEN_CODE_SYSTEM_DEFAULTS_PATH at a copy of the
// machine's system defaults with lanes' hooks added (systemDefaults); Qwen
// Code reads the file whoever owns it.
func qwenLaunch(lanesBin, dir string, userArgs []string, env func(string) string) (Plan, error) {
	return systemDefaults{
		agent: state.AgentQwen, binary: "qwen", title: "Qwen Code", env: EnvQwenSystemDefaults, file: qwenDefaults,
		machine: func(env func(string) string) string { return qwenSystemDefaults(runtime.GOOS, env) },
		hooks:   claudeHooks, handler: qwenHandler,
	}.launch(lanesBin, dir, userArgs, env)
}

// unscrolled is lines without the scrollbar glyph Qwen Code draws at the
// end of each, after the line's padding: a line that ends otherwise keeps
// it (a call that ends " │" then reads as another, and is refused).
func unscrolled(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		for _, bar := range []string{"█", "│"} {
			if body, ok := strings.CutSuffix(l, bar); ok && strings.HasSuffix(body, " ") {
				l = strings.TrimRight(body, " ")
				break
			}
		}
		out[i] = l
	}
	return out
}

// qwenSystemDefaults is where Qwen Code 0.24.4 looks for its system
// defaults when EnvQwenSystemDefaults is unset: beside its system settings
// file, which envQwenSystemSettings may move.
func qwenSystemDefaults(goos string, env func(string) string) string {
	settings := env(envQwenSystemSettings)
	switch {
	case settings != "":
	case goos == "darwin":
		settings = "/Library/Application Support/QwenCode/settings.json"
	case goos == "windows":
		settings = `C:\ProgramData\qwen-code\settings.json`
	default:
		settings = "/etc/qwen-code/settings.json"
	}
	return filepath.Join(filepath.Dir(settings), "system-defaults.json")
}

// Qwen Code 0.24.4, the call between blank lines under its header, its
// question under it, the options, and its spinner the last line:
//
//	? Shell touch a.txt && sleep 3 (Wait a bit) ←
//
//	   touch a.txt && sleep 3
//
//	 Allow execution of: 'touch, sleep'?
//
//	 › 1. Yes, allow once
//	   2. Always allow run 'touch *' commands, run 'sleep *' commands in thi…
//	   3. Always allow run 'touch *' commands, run 'sleep *' commands for th…
//	   4. No, suggest changes (esc)
//
//
//	⠏ Waiting for user confirmation...
//
// Once its conversation scrolls, a scrollbar takes the area's last column
// ("█" its thumb, "│" its track; testdata/real/qwen/permission-scrollbar):
// that column is not the dialog's. Once a background agent ran, its tasks
// panel is drawn under the spinner (qwenTasks).
func qwenDialog(lines []string) (dialog, bool) {
	lines = unscrolled(lines)
	q := -1
	for i := len(lines) - 1; i >= 0 && q < 0; i-- {
		if strings.HasPrefix(lines[i], "   Allow execution of: '") && strings.HasSuffix(lines[i], "'?") {
			q = i
		}
	}
	if q < 4 || lines[q-1] != "" || q+2 >= len(lines) || lines[q+1] != "" {
		return dialog{}, false
	}
	top := q - 2
	for top >= 0 && lines[top] != "" {
		top--
	}
	if top < 1 || top == q-2 || !strings.HasPrefix(lines[top-1], "  ? Shell ") || !strings.HasSuffix(lines[top-1], " ←") {
		return dialog{}, false
	}
	call, ok := margin(lines[top+1:q-1], "     ")
	if !ok {
		return dialog{}, false
	}
	end := q + 2
	for end < len(lines) && lines[end] != "" {
		end++
	}
	spin := end
	for spin < len(lines) && lines[spin] == "" {
		spin++
	}
	if end == q+2 || spin == len(lines) || !strings.HasSuffix(lines[spin], " Waiting for user confirmation...") || !qwenTasks(lines[spin+1:]) {
		return dialog{}, false
	}
	return dialog{strings.Join(call, "\n"), optionLines(lines[q+2 : end])}, true
}

// qwenTasks reports whether lines, under a dialog's spinner, hold nothing
// but blank lines and Qwen Code's background tasks panel: "main", then a
// row per task ending with its time, "✔ Look around ▶ 8s · 5 tokens"
// (testdata/real/qwen/permission-bgpanel: a campaign's answer was refused
// for the dialog above it).
func qwenTasks(lines []string) bool {
	for _, l := range lines {
		if t := trim(l); t != "" && t != "main" && !strings.Contains(t, " ▶ ") {
			return false
		}
	}
	return true
}
