package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"lanes/state"
)

// codex is Codex as lanes drives it: its hooks and notify program as -c
// overrides on its command line, its dialog's keys and screen, resume.
var codex = Driver{
	Agent: state.AgentCodex, Binary: "codex",
	launch: func(lanesBin, _ string, userArgs []string, env func(string) string) (Plan, error) {
		return codexLaunch(lanesBin, userArgs, env)
	},
	// Codex reads hooks.json next to each config layer; the JSON form
	// lets lanes merge without rewriting the user's config.toml.
	userConfig: filepath.Join(".codex", "hooks.json"), projectConfig: filepath.Join(".codex", "hooks.json"),
	hooks: codexHooks, handler: codexHandler,
	// Codex 0.171: "1. Yes, proceed (y) / 2. Yes, and don't ask again … (p)
	// / 3. No, and tell Codex what to do differently (esc)": the letters it
	// advertises; no has only Esc.
	keys: DialogKeys{Yes: []string{"y"}, Always: []string{"p"}, No: []string{"Escape"},
		Words: map[Answer]string{Yes: "Yes, proceed (y)", Always: "don't ask again", No: "No, and tell Codex what to do differently (esc)"},
		Options: map[Answer]option{Yes: {text: "1. Yes, proceed (y)"}, Always: {text: "2. Yes, and don't ask again", prefix: true},
			No: {text: "3. No, and tell Codex what to do differently (esc)"}}},
	readDialog: codexDialog, callText: plainCall,
	// A subcommand: its global flags (lanes' -c, the user's) come before it.
	resume: func(id string) []string { return []string{"resume", id} },
	// Its -c overrides cannot be told from the user's own.
	userCommand: func(string, []string) ([]string, bool) { return nil, false },
	chain:       codexNotifyChain,
}

// codexNotifyChain is the user's own notify program, which lanes' notify
// setting replaced (EnvCodexNotifyChain), for `lanes hook codex notify`
// to run with the same payload.
func codexNotifyChain(event string, env func(string) string) []string {
	var argv []string
	if event != "notify" || json.Unmarshal([]byte(env(EnvCodexNotifyChain)), &argv) != nil || len(argv) == 0 {
		return nil
	}
	return argv
}

// Codex lifecycle events lanes registers: the set every Codex release with
// hooks documents, and Interrupt, the only sign of an Esc or Ctrl-C (Codex
// 0.171; a Codex that does not know an event name ignores it: 0.171 runs
// with `-c hooks.Bogus=…`). Newer releases add SubagentStart/Stop,
// PreCompact, PostCompact and StopFailure (Translate maps them); they are
// left out so an older Codex never meets more names than it must.
var codexHooks = []hookSpec{
	{"SessionStart", ""},
	{"UserPromptSubmit", ""},
	{"PreToolUse", ""},
	{"PermissionRequest", ""},
	{"PostToolUse", ""},
	{"Stop", ""},
	{"Interrupt", ""},
}

func codexHandler(lanesBin string, installed bool) hookHandler {
	return hookHandler{Type: "command", Command: hookCommand(lanesBin, "codex", installed)}
}

// codexLaunch: `codex -c hooks.EVENT=[…]… -c notify=[…] ARGS…`. The -c
// overrides form Codex's session-flags config layer; hooks from every layer
// run, so the user's own hooks keep running. notify is a single setting, so
// lanes' notify replaces the user's, and `lanes hook codex notify` runs the
// user's program (EnvCodexNotifyChain) with the same payload.
func codexLaunch(lanesBin string, userArgs []string, env func(string) string) (Plan, error) {
	var args []string
	for _, h := range codexHooks {
		args = append(args, "-c", codexHookOverride(h, hookCommand(lanesBin, "codex", false)))
	}
	notify := []string{lanesBin, "hook", "codex", "notify"}
	args = append(args, "-c", "notify="+tomlStringArray(notify))
	p := Plan{Env: injectedEnv(), Injected: true,
		Note: "Codex runs lanes' hooks only once trusted: the first time, it asks at start (the card shows Needs you); choose \"Trust all and continue\" (until then only each turn's end reports)"}

	chain, err := userCodexNotify(env)
	switch {
	case err != nil:
		// Never drop a notify program we could not read: keep the user's
		// setting and rely on the lifecycle hooks alone.
		args = args[:len(args)-2]
		p.Note = "Codex notify left as configured (" + err.Error() + "); " + p.Note
	case len(chain) > 0 && !isLanesNotify(chain):
		p.Env = append(p.Env, EnvCodexNotifyChain+"="+string(mustJSON(chain)))
	}
	p.Args = append(append([]string{"codex"}, args...), userArgs...)
	return p, nil
}

// codexHookOverride is one `-c` value: hooks.EVENT=[{hooks=[{…}]}] in TOML.
func codexHookOverride(h hookSpec, command string) string {
	var b strings.Builder
	b.WriteString("hooks." + h.Event + "=[{")
	if h.Matcher != "" {
		b.WriteString("matcher=" + tomlString(h.Matcher) + ",")
	}
	b.WriteString(`hooks=[{type="command",command=` + tomlString(command) + "}]}]")
	return b.String()
}

// isLanesNotify: the configured notify program is already lanes' (chaining
// it would record every turn end twice).
func isLanesNotify(argv []string) bool {
	for i := 0; i+2 < len(argv); i++ {
		if argv[i] == "hook" && argv[i+1] == "codex" && argv[i+2] == "notify" {
			return true
		}
	}
	return false
}

// codexHome is $CODEX_HOME, else ~/.codex ("" when neither is known).
func codexHome(env func(string) string) string {
	if h := env("CODEX_HOME"); h != "" {
		return h
	}
	if home := env("HOME"); home != "" {
		return filepath.Join(home, ".codex")
	}
	return ""
}

// Codex 0.171, the command after "$ " two columns in, and nothing under
// the footer:
//
//	  Would you like to run the following command?
//	  Reason: …
//	  $ touch approved.txt && sleep 12
//	› 1. Yes, proceed (y)
//	  …
//	  Press enter to confirm or esc to cancel
func codexDialog(lines []string) (dialog, bool) {
	q := last(lines, "Would you like to run the following command?")
	foot := last(lines, "Press enter to confirm or esc to cancel")
	if q < 0 || foot < q || !blank(lines[foot+1:], keep) {
		return dialog{}, false
	}
	for _, l := range lines[q+1 : foot] {
		if strings.Contains(l, "Would you like to") || strings.Contains(l, "Press enter to confirm") {
			return dialog{}, false // another dialog under it
		}
	}
	// The options are the block over the footer, found from the footer
	// up: a command's line that reads like an option is above them.
	end := foot
	for end > q+1 && trim(lines[end-1]) == "" {
		end--
	}
	opt := end
	for opt > q+1 && trim(lines[opt-1]) != "" {
		opt--
	}
	if first := trim(lines[opt]); !strings.HasPrefix(first, "› 1. ") && !strings.HasPrefix(first, "1. ") {
		return dialog{}, false
	}
	// The command's line: "  $ " and its text, or "  $" for an empty
	// first line (whose next lines then are the command's).
	cmd := -1
	for i := q + 1; i < opt && cmd < 0; i++ {
		if lines[i] == "  $" || strings.HasPrefix(lines[i], "  $ ") {
			cmd = i
		}
	}
	// Nothing but blank lines between the command and the options: Codex
	// draws a command's further lines, and its wraps, at its dialog's
	// margin, where they cannot be told from its other lines.
	if cmd < 0 || !blank(lines[cmd+1:opt], keep) {
		return dialog{}, false
	}
	return dialog{strings.TrimPrefix(lines[cmd], "  $ "), optionLines(lines[opt:end])}, true
}
