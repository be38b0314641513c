package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"lanes/state"
)

// gemini is Gemini CLI as lanes drives it: its hooks in a system defaults
// file of its own, its dialog's keys and screen, --resume.
var gemini = Driver{
	Agent: state.AgentGemini, Binary: "gemini",
	launch:     geminiLaunch,
	userConfig: filepath.Join(".gemini", "settings.json"), projectConfig: filepath.Join(".gemini", "settings.json"),
	hooks: geminiHooks, handler: geminiHandler,
	// Gemini CLI 0.61: "1. Allow once / 2. Allow for this session / 3. No,
	// suggest changes (esc)"; a digit picks its option.
	keys: DialogKeys{Yes: []string{"1"}, Always: []string{"2"}, No: []string{"3"},
		Words: map[Answer]string{Yes: "1. Allow once", Always: "2. Allow for this session", No: "3. No, suggest changes"},
		Options: map[Answer]option{Yes: {text: "1. Allow once"}, Always: {text: "2. Allow for this session"},
			No: {text: "3. No, suggest changes (esc)"}}},
	readDialog: geminiDialog, callText: plainCall,
	// Its plan approval (0.61.0, "Ready to start implementation?"): "● 1.
	// Yes, automatically accept edits · 2.  Yes, manually accept edits ·
	// 3.  Type your feedback..."; Esc cancels it.
	plan: map[Answer]planAnswer{Yes: {opt: option{text: "2.  Yes, manually accept edits"}, keys: []string{"2"}},
		Always: {opt: option{text: "1.  Yes, automatically accept edits"}, keys: []string{"1"}}, No: {keys: []string{"Escape"}}},
	resume:    func(id string) []string { return []string{"--resume", id} },
	injected:  geminiDefaults,
	continues: true,
}

// geminiDefaults is the file under HookDir a Gemini CLI launch names in
// EnvGeminiSystemDefaults.
const geminiDefaults = "gemini-system-defaults.json"

// Gemini CLI events lanes registers. AfterModel is left out: it fires for
// every streamed chunk, and BeforeModel already shows the model working.
var geminiHooks = []hookSpec{
	{"SessionStart", ""},
	{"SessionEnd", ""},
	{"BeforeAgent", ""},
	{"AfterAgent", ""},
	{"BeforeTool", "*"},
	{"AfterTool", "*"},
	{"BeforeModel", ""},
	{"Notification", ""},
	{"PreCompress", ""},
}

// geminiTimeoutMs bounds a hook run (Gemini CLI counts milliseconds).
const geminiTimeoutMs = 10000

func geminiHandler(lanesBin string, installed bool) hookHandler {
	return hookHandler{Name: "lanes", Type: "command", Command: hookCommand(lanesBin, "gemini", installed), Timeout: geminiTimeoutMs}
}

// EnvGeminiSystemDefaults is Gemini CLI's variable naming its system
// defaults settings file, the lowest-precedence settings layer.
const EnvGeminiSystemDefaults = "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"

// geminiSystemDefaults is where Gemini CLI looks for system defaults when
// the variable is unset.
func geminiSystemDefaults(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/GeminiCli/system-defaults.json"
	case "windows":
		return `C:\ProgramData\gemini-cli\system-defaults.json`
	}
	return "/etc/gemini-cli/system-defaults.json"
}

// geminiLaunch points GEMINI_CLI_SYSTEM_DEFAULTS_PATH at a copy of the
// machine's system defaults with lanes' hooks added (systemDefaults).
func geminiLaunch(lanesBin, dir string, userArgs []string, env func(string) string) (Plan, error) {
	return systemDefaults{
		agent: state.AgentGemini, binary: "gemini", title: "Gemini", env: EnvGeminiSystemDefaults, file: geminiDefaults,
		machine: func(func(string) string) string { return geminiSystemDefaults(runtime.GOOS) },
		hooks:   geminiHooks, handler: geminiHandler,
		reads: func(dir string) error {
			if err := geminiReads(dir); err != nil {
				return fmt.Errorf("Gemini CLI skips a system defaults file unless it and every directory above it belong to root and only root may write them (%v); `lanes hooks install gemini` adds lanes' hooks to ~/.gemini/settings.json instead", err)
			}
			return nil
		},
	}.launch(lanesBin, dir, userArgs, env)
}

// geminiReads says why Gemini CLI would skip a system defaults file lanes
// writes into dir, nil when it would read it. Gemini CLI 0.61 skips one
// that is not owned by root, or under a directory not owned by root or
// writable by group or others ("Security Warning: Skipping system defaults
// file"), silently as far as the board goes. A variable for tests, whose
// temp dirs sit under a world-writable /tmp.
var geminiReads = func(dir string) error {
	if uid := os.Geteuid(); uid != 0 {
		return fmt.Errorf("lanes runs as uid %d, so the file it writes is not root's", uid)
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Not made yet: lanes makes it root's, 0700.
		case err != nil:
			return err
		default:
			st, ok := fi.Sys().(*syscall.Stat_t)
			if ok && st.Uid != 0 {
				return fmt.Errorf("%s belongs to uid %d", d, st.Uid)
			}
			if fi.Mode().Perm()&0o022 != 0 {
				return fmt.Errorf("%s is writable by group or others", d)
			}
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// Gemini CLI 0.61: the command in a box inside the dialog's box, and the
// same command after "? Shell" in its header; nothing under the outer box.
//
//	╭──────────────────────────────╮
//	│ ? Shell  touch approved.txt && sleep 12   │
//	│ ╭──────────────────────────╮ │
//	│ │ touch approved.txt && sleep 12       │ │
//	│ ╰──────────────────────────╯ │
//	│ Allow execution of [Shell]?    │
//	│                                │
//	│ ● 1. Allow once                │
//	│   …                            │
//	╰────────────────────────────────╯
func geminiDialog(lines []string) (dialog, bool) {
	q := -1
	for i := len(lines) - 1; i >= 0 && q < 0; i-- {
		if strings.TrimRight(strings.TrimSuffix(lines[i], "│"), " ") == "│ Allow execution of [Shell]?" {
			q = i
		}
	}
	if q < 4 || !strings.HasPrefix(lines[q-1], "│ ╰") {
		return dialog{}, false
	}
	top := -1
	for i := q - 2; i >= 1 && top < 0; i-- {
		if strings.HasPrefix(lines[i], "│ ╭") {
			top = i
		}
	}
	end := -1
	for i := q + 1; i < len(lines) && end < 0; i++ {
		if strings.HasPrefix(lines[i], "╰") {
			end = i
		}
	}
	if top < 2 || end < 0 || !blank(lines[end+1:], keep) || !strings.HasPrefix(lines[top-2], "╭") {
		return dialog{}, false
	}
	inner := func(l string) (string, bool) {
		body, ok := strings.CutPrefix(l, "│ │ ")
		body, end := strings.CutSuffix(body, "│ │")
		return strings.TrimRight(body, " "), ok && end
	}
	var call []string
	for _, l := range lines[top+1 : q-1] {
		t, ok := inner(l)
		if !ok {
			return dialog{}, false
		}
		call = append(call, t)
	}
	header := strings.TrimRight(strings.TrimSuffix(lines[top-1], "│"), " ")
	if len(call) == 0 || header != "│ ? Shell  "+call[0] {
		return dialog{}, false
	}
	opts := make([]string, 0, end-q-1)
	for _, l := range lines[q+1 : end] {
		opts = append(opts, strings.TrimSuffix(strings.TrimPrefix(l, "│"), "│"))
	}
	return dialog{strings.Join(call, "\n"), optionLines(opts)}, true
}
