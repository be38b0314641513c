package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"lanes/internal/config"
	"lanes/internal/shell"
	"lanes/state"
)

// configured are the commands that run with a config file lanes cannot
// use, their defaults in its place, and say so their own way: those that
// show what is wrong (config, doctor), print no setting (version, help,
// completion) or must draw a line whatever happens (status-line).
var configured = []string{"config", "doctor", "version", "help", "completion", "__complete", "status-line"}

// loadConfig reads the config file for command cmd ("" for the board):
// its settings go beneath the environment (a.getenv) and the flags. A
// file lanes cannot use stops every other command, saying where and
// what; unknown keys are warned of, on stderr.
func (a *app) loadConfig(cmd string) (code int, stop bool) {
	path := config.Path(a.getenv)
	f, warnings, err := config.Read(path, a.getenv("HOME"), os.Getuid())
	a.cfg, a.cfgWarnings, a.cfgErr = f, warnings, err
	if a.env == nil {
		a.env = a.getenv
	}
	if err == nil {
		a.getenv = f.Getenv(a.env)
	}
	quiet := cmd == "config" || cmd == "__complete" || cmd == "status-line" || cmd == "doctor"
	if !quiet {
		for _, w := range warnings {
			a.warn("%s", state.CleanText(config.Says(path, []config.Problem{w})))
		}
	}
	if err != nil && !slices.Contains(configured, cmd) {
		fmt.Fprintf(a.stderr, "lanes: %s\nlanes: fix the config file (`lanes config --check` says what is wrong), or move it aside\n", state.CleanLines(err.Error()))
		return exitError, true
	}
	return exitOK, false
}

// setting is key's value as a command without a flag for it sees:
// environment, file, default.
func (a *app) setting(key string) string {
	v, _ := a.cfg.Get(key, a.getenv)
	return v
}

// settingFrom is key's value and where it came from: "$VAR", FILE:LINE
// or "default".
func (a *app) settingFrom(key string) (value, from string) {
	if a.env == nil { // an app without main: no file beneath getenv
		return a.cfg.Get(key, a.getenv)
	}
	return a.cfg.Get(key, a.env)
}

func (a *app) cmdConfig(_ context.Context, args []string) int {
	fs := a.flags("config")
	check := fs.Bool("check", false, "only check the file: say what is wrong with it (exit 1 for an error or an unknown key)")
	initFile := fs.Bool("init", false, "write a config file listing every setting, each commented out at its default (never over an existing one)")
	pathOnly := fs.Bool("path", false, "print the config file's path")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "config takes no arguments")
	}
	path := config.Path(a.getenv)
	switch {
	case *pathOnly:
		fmt.Fprintln(a.stdout, state.CleanText(path))
		return exitOK
	case *initFile:
		return a.configInit(path)
	case *check:
		return a.configCheck(path)
	}
	a.configShow(path)
	if a.cfgErr != nil {
		return exitError
	}
	return exitOK
}

// configCheck says whether the file is usable and every key known.
func (a *app) configCheck(path string) int {
	clean := state.CleanText(path)
	switch {
	case a.cfgErr != nil:
		fmt.Fprintln(a.stderr, state.CleanLines(a.cfgErr.Error()))
	case !a.cfg.Found:
		fmt.Fprintf(a.stdout, "%s: none (every setting is its default; `lanes config --init` writes one)\n", clean)
	}
	for _, w := range a.cfgWarnings {
		fmt.Fprintln(a.stderr, state.CleanText(config.Says(path, []config.Problem{w})))
	}
	if a.cfgErr != nil || len(a.cfgWarnings) > 0 {
		return exitError
	}
	if a.cfg.Found {
		fmt.Fprintf(a.stdout, "%s: fine (%s, %s)\n", clean, plural(len(a.cfg.Values), "setting"), plural(len(a.cfg.Profiles), "profile"))
	}
	return exitOK
}

// configShow prints every setting in effect and where it came from.
func (a *app) configShow(path string) {
	about := "none: every setting is its default (`lanes config --init` writes one)"
	switch {
	case a.cfgErr != nil:
		about = "NOT USED: " + state.CleanLines(a.cfgErr.Error())
	case a.cfg.Found:
		about = fmt.Sprintf("%s, %s", plural(len(a.cfg.Values), "setting"), plural(len(a.cfg.Profiles), "profile"))
	}
	fmt.Fprintf(a.stdout, "file  %s (%s)\n", state.CleanText(path), about)
	for _, w := range a.cfgWarnings {
		fmt.Fprintf(a.stdout, "      %s\n", state.CleanText(config.Says(path, []config.Problem{w})))
	}
	fmt.Fprintln(a.stdout, "\nsetting                 value                   from")
	for _, s := range config.Settings {
		v, from := a.settingFrom(s.Key)
		if name := strings.TrimPrefix(s.Flag, "--"); name != s.Flag && a.given[name] {
			v, from = map[string]string{"socket": a.socket, "theme": a.theme}[name], s.Flag // a global flag of this command line
		}
		if v == "" {
			v = `""`
		}
		wins := ""
		if s.Flag != "" && from != s.Flag {
			wins = "  (" + s.Flag + " wins)"
		}
		fmt.Fprintf(a.stdout, "%-23s %-23s %s%s\n", s.Key, state.Summary(v, 60), state.CleanText(from), wins)
	}
	fmt.Fprintln(a.stdout, "\nA flag wins over the environment, which wins over the file, which wins over the default.")
	if len(a.cfg.Profiles) == 0 {
		fmt.Fprintln(a.stdout, "No profiles: [profiles.NAME] tables of the file, for `lanes new NAME --profile P`.")
		return
	}
	fmt.Fprintln(a.stdout, "\nprofiles (lanes new NAME --profile P)")
	for _, p := range a.cfg.Profiles {
		fmt.Fprintf(a.stdout, "  %-12s %s  line %d\n", p.Name, state.CleanText(profileSays(p, a.setting("agent"))), p.Line)
	}
}

// profileSays is what a profile starts, in a line: its agent and
// arguments, the names (never the values) of its variables, its
// directory and worktree.
func profileSays(p config.Profile, agent string) string {
	if p.Agent != "" {
		agent = p.Agent
	}
	parts := []string{shell.Words(append([]string{agent}, p.Args...))}
	if agent == string(state.AgentCustom) {
		parts[0] = shell.Words(p.Args)
	}
	if len(p.Env) > 0 {
		var names []string
		for _, kv := range p.Env {
			k, _, _ := strings.Cut(kv, "=")
			names = append(names, k)
		}
		parts = append(parts, "env "+strings.Join(names, " "))
	}
	if p.Dir != "" {
		parts = append(parts, "in "+p.Dir)
	}
	if p.Worktree != nil {
		parts = append(parts, map[bool]string{true: "worktree", false: "no worktree"}[*p.Worktree])
	}
	if p.Budget != (state.Budget{}) {
		parts = append(parts, "budget "+p.Budget.Words())
	}
	return strings.Join(parts, " · ")
}

// configInit writes the commented file, when there is none.
func (a *app) configInit(path string) int {
	if _, err := os.Lstat(path); err == nil {
		return a.fail(fmt.Errorf("%s exists: lanes leaves it as it is (`lanes config` shows what it sets)", path))
	} else if !errors.Is(err, os.ErrNotExist) {
		return a.fail(err)
	}
	if err := config.WriteNew(path); err != nil {
		return a.fail(err)
	}
	fmt.Fprintf(a.stdout, "wrote %s: every setting at its default, commented out; uncomment what you change\n", state.CleanText(path))
	return exitOK
}

// plural is "1 setting", "2 settings".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// doctorConfig says whether the config file is read, and what is wrong
// with it.
func (a *app) doctorConfig(add addFunc) {
	path := config.Path(a.getenv)
	switch {
	case a.cfgErr != nil:
		add(false, "fix it (`lanes config --check`), or move it aside: every command but this one refuses to run with it", "config: %v", a.cfgErr)
	case len(a.cfgWarnings) > 0:
		add(false, "`lanes config --check` lists them with the nearest known key", "config: %s, with %s lanes does not know",
			path, plural(len(a.cfgWarnings), "key"))
	case a.cfg == nil || !a.cfg.Found:
		add(true, "", "config: none at %s (every setting is its default; `lanes config --init` writes one)", path)
	default:
		add(true, "", "config: %s (%s, %s)", path, plural(len(a.cfg.Values), "setting"), plural(len(a.cfg.Profiles), "profile"))
	}
}
