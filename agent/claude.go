package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"lanes/state"
)

// claude is Claude Code as lanes drives it: its hooks in a --settings file,
// its dialog's keys and screen, --resume.
var claude = Driver{
	Agent: state.AgentClaude, Binary: "claude",
	launch: func(lanesBin, dir string, userArgs []string, _ func(string) string) (Plan, error) {
		return claudeLaunch(lanesBin, dir, userArgs)
	},
	userConfig: filepath.Join(".claude", "settings.json"), projectConfig: filepath.Join(".claude", "settings.json"),
	hooks: claudeHooks, handler: claudeHandler,
	// Claude Code 2.1: "❯ 1. Yes / 2. Yes, and always allow … / 3. No";
	// 2.1.332 puts "3. Yes, and switch to auto mode" before "4. No". A
	// digit picks its option: the one drawn before it on the screen read.
	keys: DialogKeys{Yes: []string{"1"}, Always: []string{"2"}, No: []string{"3"},
		Words: map[Answer]string{Yes: "Yes", Always: "Yes, and always allow", No: "No"},
		Options: map[Answer]option{Yes: {text: "Yes", numbered: true}, No: {text: "No", numbered: true},
			Always: {text: "Yes, and always allow", or: []string{"Yes, and don't ask again", "Yes, and don’t ask again"}, prefix: true, numbered: true}}},
	readDialog: claudeDialog, callText: claudeCallText,
	// Its plan approval (2.1.332, "Ready to code?"): "❯ 1. Yes, and use
	// auto mode · 2. Yes, manually approve edits · 3. Tell Claude what to
	// change"; Esc keeps planning.
	plan: map[Answer]planAnswer{Yes: {opt: option{text: "Yes, manually approve edits", numbered: true}},
		Always: {opt: option{text: "Yes, and use auto mode", numbered: true}}, No: {keys: []string{"Escape"}}},
	resume:      func(id string) []string { return []string{"--resume", id} },
	userCommand: claudeUserCommand,
	injected:    claudeSettings,
	continues:   true,
	// 2.1.332 drops a key sent within about a second of its dialog
	// opening (scripts/agents answer_yes: `1` at 0.6 s was lost, the
	// same key later approved).
	guard: 1500 * time.Millisecond,
}

// claudeSettings is the file under HookDir a Claude Code launch passes to
// --settings.
const claudeSettings = "claude-settings.json"

// Claude Code events lanes registers (state.Translate maps each of them).
var claudeHooks = []hookSpec{
	{"SessionStart", ""},
	{"SessionEnd", ""},
	{"UserPromptSubmit", ""},
	{"PreToolUse", "*"},
	{"PostToolUse", "*"},
	{"PostToolUseFailure", "*"},
	{"PermissionRequest", "*"},
	{"Notification", ""},
	{"Stop", ""},
	{"StopFailure", ""},
	{"SubagentStart", ""},
	{"SubagentStop", ""},
	{"PreCompact", ""},
}

// claudeTimeoutSec bounds a hook run (Claude Code counts seconds): `lanes
// hook` appends one line and exits; the timeout only bounds a wedged disk.
const claudeTimeoutSec = 10

// claudeLaunch: `claude --settings FILE ARGS…`. Claude Code merges a
// --settings file with the user, project and local settings, hook arrays
// included, so the user's own hooks keep running.
func claudeLaunch(lanesBin, dir string, userArgs []string) (Plan, error) {
	settings, err := patchHooks(nil, "claude", claudeHooks, claudeHandler(lanesBin, false))
	if err != nil {
		return Plan{}, err
	}
	file := filepath.Join(dir, claudeSettings)
	return Plan{
		Args:     append([]string{"claude", "--settings", file}, userArgs...),
		Env:      injectedEnv(),
		Files:    map[string][]byte{file: settings},
		Injected: true,
	}, nil
}

func claudeHandler(lanesBin string, installed bool) hookHandler {
	return hookHandler{Type: "command", Command: hookCommand(lanesBin, "claude", installed), Timeout: claudeTimeoutSec}
}

// claudeUserCommand: Claude Code's launch adds --settings FILE after the
// binary; the rest is the user's. Without it, lanes injected nothing: the
// command is the user's own.
func claudeUserCommand(dir string, argv []string) ([]string, bool) {
	if len(argv) >= 3 && argv[0] == "claude" && argv[1] == "--settings" {
		if argv[2] != filepath.Join(dir, claudeSettings) {
			return nil, false // another session's, or the user's own settings
		}
		return append([]string{"claude"}, argv[3:]...), true
	}
	return argv, argv[0] == "claude"
}

// claudeCallText: Claude Code prints a Bash call's command, then its
// description on a line of its own; a description that is empty or has
// lines of its own would not say where the command ends.
func claudeCallText(tool, cmd string, input []byte) (string, bool) {
	var in struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal(input, &in)
	desc := strings.TrimSpace(in.Description)
	if tool != "Bash" || desc == "" || strings.ContainsAny(desc, "\n\t\r") {
		return "", false
	}
	return cmd + "\n" + desc, true
}

// Claude Code 2.1 up to 2.1.197, the call and its description three
// columns in; 2.1.332, its description (after a tip) and then its
// command alone between two dashed rules, one column in. Nothing under
// the footer:
//
//	Bash command                        Bash command
//	  touch approved.txt && sleep 12    Tip: auto mode handles these …
//	  Run touch approved.txt && …       Run touch approved.txt && …
//	Do you want to proceed?            ╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
//	❯ 1. Yes                            touch approved.txt && sleep 12
//	  …                                ╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
//	Esc to cancel · Tab to amend · …    Do you want to proceed?
//	                                    ❯ 1. Yes …
func claudeDialog(lines []string) (dialog, bool) {
	q := last(lines, "Do you want to proceed?")
	head := -1
	for i := q - 1; i >= 0 && head < 0 && q > 0; i-- {
		if lines[i] == " Bash command" {
			head = i
		}
	}
	foot := -1
	for i := q + 1; i < len(lines) && foot < 0 && q >= 0; i++ {
		if strings.HasPrefix(lines[i], " Esc to cancel") {
			foot = i
		}
	}
	if head < 1 || foot < 0 || !blank(lines[foot+1:], keep) {
		return dialog{}, false
	}
	call, ok := claudeRuled(lines[head+1 : q])
	if !ok {
		if call, ok = claudeMargined(lines[head+1 : q]); !ok || mayWrap(call, ruleWidth(lines[head-1])) {
			return dialog{}, false
		}
	}
	return dialog{strings.Join(call, "\n"), optionLines(lines[q+1 : foot])}, true
}

// claudeTip is the line Claude Code 2.1.332 draws over a call's
// description.
const claudeTip = ` Tip: auto mode handles these prompts for you — choose "switch to auto mode" below`

// claudeRuled reads the call from the lines between the header and the
// question as Claude Code 2.1.332 draws them: the tip, the description,
// a dashed rule, the command, a dashed rule, then its notices ("This
// command requires approval"); each line but the rules one column in
// (not after " │ ": testdata/real/harness/claude/worktree, and
// testdata/real/hostile/claude-332-bar-in-call). The call is the
// command's line, then the description's (the order the hook's digest
// has). ok is false for any other shape: a command or a description of
// more than one line, one of them wrapped, is one, as a rule line of a
// command is drawn in from the edge.
func claudeRuled(region []string) ([]string, bool) {
	var lines []string
	for _, l := range region {
		if trim(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 && lines[0] == claudeTip {
		lines = lines[1:]
	}
	rule := func(l string) bool { return l != "" && strings.Trim(l, "╌") == "" }
	if len(lines) < 4 || !rule(lines[1]) || !rule(lines[3]) {
		return nil, false
	}
	// " │ " in front is the margin 2.1.332 gives long or many lines, and
	// also how it draws a call that starts with "│ " at its plain margin:
	// the two cannot be told apart, so neither is read.
	desc, ok1 := strings.CutPrefix(lines[0], " ")
	cmd, ok2 := strings.CutPrefix(lines[2], " ")
	if !ok1 || !ok2 || strings.HasPrefix(desc, " ") || strings.HasPrefix(desc, "│") || strings.HasPrefix(cmd, "│") {
		return nil, false
	}
	for _, notice := range lines[4:] {
		if !strings.HasPrefix(notice, " ") || strings.HasPrefix(notice, "  ") || strings.HasPrefix(notice, " │") {
			return nil, false
		}
	}
	return []string{cmd, desc}, true
}

// claudeWrapSlack: Claude Code word-wraps a dialog's line some columns
// short of the pane's edge (at 50 columns, before a word that would have
// ended in column 49: testdata/real/hostile/claude-one-line-wrapped).
const claudeWrapSlack = 6

// ruleWidth is the pane's width as the rule Claude Code draws over its
// dialog gives it (one ─ per column), 0 when line is no such rule.
func ruleWidth(line string) int {
	if line == "" || strings.Trim(line, "─") != "" {
		return 0
	}
	return utf8.RuneCountInString(line)
}

// mayWrap reports whether a line of call could be the line before it
// word-wrapped (the line and the next one's first word come near the
// edge), as it would read just like a line of its own: a command and its
// description, say, like one longer command. Lengths count bytes, never
// fewer than the columns a line takes; no width known, every line may.
func mayWrap(call []string, width int) bool {
	for i := 0; i+1 < len(call); i++ {
		next := strings.Fields(call[i+1])
		if len(next) > 0 && len("   "+call[i])+1+len(next[0]) > width-claudeWrapSlack {
			return true
		}
	}
	return false
}

// claudeMargined reads the call from the lines between the header and the
// question as Claude Code up to 2.1.197 draws them: an empty line, the
// command, the description, an empty line, the two three columns in; then
// maybe its notices ("This command requires approval"), one column in,
// and an empty line. Nothing else: a blank description is drawn as an
// empty line, and the command's second line would then read as its
// description.
func claudeMargined(region []string) ([]string, bool) {
	if len(region) < 4 || region[0] != "" || region[3] != "" {
		return nil, false
	}
	call, ok := margin(region[1:3], "   ")
	if !ok || call[0] == "" || call[1] == "" {
		return nil, false
	}
	notices := region[4:]
	if len(notices) == 0 {
		return call, true
	}
	if len(notices) < 2 || notices[len(notices)-1] != "" {
		return nil, false
	}
	for _, l := range notices[:len(notices)-1] {
		if !strings.HasPrefix(l, " ") || strings.HasPrefix(l, "  ") {
			return nil, false
		}
	}
	return call, true
}
