package cli

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"lanes/internal/near"
	"lanes/internal/remote"
	"lanes/state"
)

// Shell completion: `lanes completion bash|zsh|fish` prints a script
// that asks `lanes __complete CWORD WORD…` for the words that may go at
// word CWORD of the command line — commands, their flags (read from each
// command's synopsis, the one place they are listed), agents, session
// names from the last cycle's snapshot, NAME@HOST for the hosts file's
// hosts — so the shells share one rule (docs/design.md §10).

// completionShells are the shells `lanes completion` writes for.
var completionShells = []string{"bash", "zsh", "fish"}

func (a *app) cmdCompletion(_ context.Context, args []string) int {
	fs := a.flags("completion")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() != 1 || !slices.Contains(completionShells, fs.Arg(0)) {
		return a.usageErr(fs, "completion takes one shell: bash, zsh or fish")
	}
	fmt.Fprint(a.stdout, completionScripts[fs.Arg(0)])
	return exitOK
}

// completionScripts hand each shell's words to `lanes __complete`: one
// candidate a line, none when a file name goes there (the shell's own).
var completionScripts = map[string]string{
	"bash": `# lanes completion for bash: eval "$(lanes completion bash)" in ~/.bashrc
_lanes() {
  local IFS=$'\n'
  COMPREPLY=($(lanes __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null))
}
complete -o default -o nosort -F _lanes lanes
`,
	"zsh": `#compdef lanes
# lanes completion for zsh: eval "$(lanes completion zsh)" in ~/.zshrc, after compinit
_lanes() {
  local -a c
  c=("${(@f)$(lanes __complete $((CURRENT - 1)) "${words[@]}" 2>/dev/null)}")
  c=(${c:#})
  if (( ${#c} )); then compadd -Q -a c; else _files; fi
}
compdef _lanes lanes
`,
	"fish": `# lanes completion for fish: lanes completion fish > ~/.config/fish/completions/lanes.fish
function __lanes_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l c (lanes __complete (math (count $words) - 1) $words 2>/dev/null)
    if set -q c[1]
        printf '%s\n' $c
    else
        __fish_complete_path (commandline -ct)
    end
end
complete -c lanes -f -a '(__lanes_complete)'
`,
}

// cmdComplete is `lanes __complete CWORD WORD…`: the candidates for word
// CWORD of WORDs (the first is lanes), each a line. It never fails: a
// word it cannot help with gets none.
func (a *app) cmdComplete(_ context.Context, args []string) int {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-help" || args[0] == "-h") {
		fs := a.flags("__complete")
		fs.SetOutput(a.stdout)
		fs.Usage()
		return exitOK
	}
	if len(args) < 1 {
		return exitOK
	}
	at, err := strconv.Atoi(args[0])
	words := args[1:]
	if err != nil || at < 1 {
		return exitOK
	}
	for len(words) <= at {
		words = append(words, "")
	}
	cur := words[at]
	for _, c := range a.candidates(words[1:at], cur) {
		if strings.HasPrefix(c, cur) {
			fmt.Fprintln(a.stdout, c)
		}
	}
	return exitOK
}

// globalValue are lanes' own flags that take a value, before the command.
var globalValue = []string{"--socket", "-socket", "--theme", "-theme", "--host", "-host"}

// candidates are the words that may follow before (the words after
// lanes, up to the one being completed, cur).
func (a *app) candidates(before []string, cur string) []string {
	cmd := -1
	for i := 0; i < len(before); i++ {
		switch w := before[i]; {
		case slices.Contains(globalValue, w):
			i++
		case strings.HasPrefix(w, "-"):
		default:
			cmd = i
		}
		if cmd >= 0 {
			break
		}
	}
	prev := ""
	if len(before) > 0 {
		prev = before[len(before)-1]
	}
	if cmd < 0 { // the command itself, or a global flag
		switch {
		case prev == "--theme" || prev == "-theme":
			return themeNames
		case slices.Contains(globalValue, prev):
			return nil
		case strings.HasPrefix(cur, "-"):
			return []string{"--socket", "--theme", "--host", "--help"}
		}
		return append(commandNames(), "help")
	}
	return a.commandWords(before[cmd], before[cmd+1:], prev, cur)
}

// commandNames are the commands, as `lanes help` lists them.
func commandNames() []string {
	var out []string
	for _, c := range commands() {
		if !strings.HasPrefix(c.name, "__") { // __complete is the shells'

			out = append(out, c.name)
		}
	}
	return out
}

// aFlag is a flag in a synopsis, and the word after it when that is its
// value (an upper-case placeholder or a|b|c choices).
var aFlag = regexp.MustCompile(`--([a-z][a-z-]*)(?: ([A-Z][A-Z_…]*|[a-z]+(?:\|[a-z]+)+))?`)

// commandWords are the words that may follow a command's args (before
// cur): its flags, a flag's value, or its next positional word.
func (a *app) commandWords(name string, args []string, prev, cur string) []string {
	i := slices.IndexFunc(commands(), func(c command) bool { return c.name == name })
	if i < 0 {
		if name == "help" && len(args) == 0 {
			return commandNames()
		}
		return nil
	}
	syn := commands()[i].args
	var flags []string
	valued := map[string]string{} // a flag that takes a value: its placeholder
	for _, m := range aFlag.FindAllStringSubmatch(syn, -1) {
		flags = append(flags, "--"+m[1])
		if m[2] != "" {
			valued["--"+m[1]], valued["-"+m[1]] = m[2], m[2]
		}
	}
	if v, ok := valued[prev]; ok {
		return a.flagValues(name, strings.TrimLeft(prev, "-"), v, cur)
	}
	if strings.HasPrefix(cur, "-") {
		var once []string // in the synopsis's order, each once (it may name one twice)
		for _, f := range flags {
			if !slices.Contains(once, f) {
				once = append(once, f)
			}
		}
		return append(once, "--help")
	}
	var pos []string // the positional words so far
	for j := 0; j < len(args); j++ {
		switch w := args[j]; {
		case w == "--":
			return nil // an agent's argv, or send's text: the shell's own
		case valued[w] != "":
			j++ // its value
		case strings.HasPrefix(w, "-"):
		default:
			pos = append(pos, w)
		}
	}
	return a.positional(name, syn, args, pos, cur)
}

// flagValues are the values of a command's flag: agents, its choices, a
// session's name; nothing for a file or a free word (the shell's own).
func (a *app) flagValues(name, flag, value, cur string) []string {
	switch {
	case flag == "agent":
		return append(newAgents(), string(state.AgentCustom))
	case flag == "profile":
		return a.cfg.ProfileNames()
	case strings.Contains(value, "|"):
		return strings.Split(value, "|")
	case value == "NAME":
		return a.sessionWords(name, cur)
	}
	return nil
}

// positional is what may go as word len(pos) of command name's.
func (a *app) positional(name, syn string, args, pos []string, cur string) []string {
	n := len(pos)
	switch {
	case name == "completion" && n == 0:
		return completionShells
	case name == "hook" && n == 0:
		return hookAgents()
	case name == "hooks" && n == 0:
		return []string{"install", "uninstall"}
	case name == "hooks" && n == 1:
		return codingAgents()
	case name == "answer" && n == 1:
		return []string{"yes", "no", "always"}
	case strings.HasPrefix(syn, "NAME") && n == 0, name == "pr" && slices.Contains(args, "--sync"):
		return a.sessionWords(name, cur)
	}
	return nil
}

// sessionWords are the sessions' names of the last cycle's snapshot
// (no tmux read, no store lock: a key press must not wait), and, for a
// command that acts on another host's, NAME@HOST's host part once cur
// has its @.
func (a *app) sessionWords(name, cur string) []string {
	if at := strings.IndexByte(cur, '@'); at >= 0 && slices.Contains(remote.AtHostCommands, name) {
		hosts, _ := a.hosts()
		var out []string
		for _, h := range hosts {
			out = append(out, cur[:at+1]+h.Name)
		}
		return out
	}
	st, err := a.store()
	if err != nil {
		return nil
	}
	recs, _, err := st.Snapshot()
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range recs {
		if state.NameProblem(r.Name) == "" {
			out = append(out, r.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// didYouMean is " (did you mean X?)" for the command word is nearest to
// (near.Word); "" when none or several are.
func didYouMean(word string) string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if n := near.Word(word, names); n != "" {
		return " (did you mean " + n + "?)"
	}
	return ""
}
