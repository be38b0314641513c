// Package config reads lanes' config file, $XDG_CONFIG_HOME/lanes/config.toml
// (else ~/.config/lanes/config.toml): defaults for every command and the
// board, and named profiles for `lanes new --profile` (docs/configuration.md).
//
// A setting is decided flag > environment > file > default. The file
// knows each setting's variable, so a command reads an environment-backed
// setting through Getenv alone and the file fills in what the
// environment leaves unset. Read says what is wrong with a file by
// FILE:LINE:COLUMN: an error for what lanes cannot use (bad TOML, a wrong
// type, a value out of its set), a warning for a key it does not know,
// with the nearest known key. A missing file is every default.
package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanes/state"
)

// Kind is the type of a setting's value in the file.
type Kind int

const (
	String   Kind = iota
	Bool          // true or false
	List          // an array of strings
	Duration      // a Go duration ("60s", "2m") or "off"
)

// Setting is one key of the file.
type Setting struct {
	Key     string // dotted: "theme", "worktree.root"
	Kind    Kind
	Env     string // the variable that overrides it ("": none)
	Flag    string // the flag that overrides it, where a command has one
	Default string // as Value.Text says it
	Doc     string
	check   func(v Value) error
}

// Settings are the file's keys outside [profiles.NAME], in the order
// `lanes config` lists them.
var Settings = []Setting{
	{Key: "agent", Kind: String, Flag: "new --agent", Default: string(state.DefaultAgent),
		Doc: "the agent `lanes new` and the board's n start", check: checkAgent},
	{Key: "theme", Kind: String, Flag: "--theme", Default: "auto",
		Doc: "the board's colours: auto (ask the terminal), dark or light; the board's t writes it here", check: oneOf("auto", "dark", "light")},
	{Key: "socket", Kind: String, Env: "LANES_TMUX_SOCKET", Flag: "--socket",
		Doc: "the tmux server (tmux -L NAME) lanes starts and reads sessions on; \"\" is tmux's default", check: checkSocket},
	{Key: "content", Kind: Bool, Env: state.EnvContent, Default: "true",
		Doc: "false: hooks keep, and surfaces show, no tool, question or message (screen-sharing)"},
	{Key: "notify.enabled", Kind: Bool, Env: "LANES_NOTIFY", Default: "true",
		Doc: "false: the board tells nobody when a session enters Needs you"},
	{Key: "notify.ways", Kind: List, Default: strings.Join(NotifyWays, ","),
		Doc: "how: terminal (bell and OSC 9/777), tmux (a message on tmux's clients), desktop (notify-send)", check: eachOf(NotifyWays...)},
	{Key: "pr.every", Kind: Duration, Env: "LANES_PR_EVERY", Default: "60s",
		Doc: "how often the board reads PRs with gh (at least 5s), or off", check: checkEvery},
	{Key: "usage.top_line", Kind: Bool, Default: "true",
		Doc: "the board's top line shows what the agents spent today (tokens, and cost where they report it)"},
	{Key: "usage.day_budget", Kind: String,
		Doc: "tokens (\"2M\") or dollars (\"$20\": of agents that report a cost) the agents of this host may spend a day; crossing it notifies once (\"\": none)", check: checkBudget},
	{Key: "worktree.enabled", Kind: Bool, Flag: "new --worktree", Default: "false",
		Doc: "true: `lanes new` starts every session in a new worktree (new --worktree=false: not this one)"},
	{Key: "worktree.root", Kind: String, Env: "LANES_WORKTREE_ROOT",
		Doc: "where worktrees go (ROOT/REPO/NAME; absolute or ~/…); \"\": REPO.lanes/NAME beside the repository", check: checkAbs},
	{Key: "worktree.branch_prefix", Kind: String, Default: "lanes/",
		Doc: "a new worktree's branch is PREFIX + NAME (new --branch: another)", check: checkPrefix},
	{Key: "worktree.from", Kind: String, Flag: "new --from",
		Doc: "the commit or branch a new worktree starts from; \"\": the repository's current branch"},
}

// NotifyWays are the values of notify.ways.
var NotifyWays = []string{"terminal", "tmux", "desktop"}

// Profile is one [profiles.NAME] table: what `lanes new NAME --profile P`
// starts. Its flags win over it; args after -- replace Args.
type Profile struct {
	Name     string
	Agent    string   // "": the file's agent
	Args     []string // the agent's arguments (custom: the command)
	Env      []string // KEY=VALUE, sorted by key
	Dir      string   // "": the current directory
	Worktree *bool    // nil: worktree.enabled
	// Budget is what each session started with it may spend; crossing
	// it notifies once (zero: none).
	Budget state.Budget
	Line   int // where its table starts
}

// profileKeys are a profile's keys.
var profileKeys = []string{"agent", "args", "env", "dir", "worktree", "budget"}

// Value is a setting as the file says it.
type Value struct {
	Text      string   // scalars as their variable says them: "true", "60s"
	List      []string // a list's items (Text joins them with ",")
	Line, Col int      // where its key is
}

// File is a config file as read.
type File struct {
	Path     string
	Found    bool             // the file exists (else: every default)
	Values   map[string]Value // by Setting.Key
	Profiles []Profile        // by name
}

// Path is the config file: $XDG_CONFIG_HOME/lanes/config.toml, else
// ~/.config/lanes/config.toml; "" with neither variable set (no file).
func Path(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" && getenv("HOME") == "" {
		return ""
	}
	if dir == "" {
		dir = filepath.Join(getenv("HOME"), ".config")
	}
	return filepath.Join(dir, "lanes", "config.toml")
}

// Setting is the setting of key; ok false when there is none.
func SettingOf(key string) (Setting, bool) {
	i := slices.IndexFunc(Settings, func(s Setting) bool { return s.Key == key })
	if i < 0 {
		return Setting{}, false
	}
	return Settings[i], true
}

// Get is key's value: the environment's (its variable set and not
// empty), else the file's, else its default; and where it came from:
// "$VAR", "FILE:LINE" or "default".
func (f *File) Get(key string, getenv func(string) string) (value, from string) {
	s, ok := SettingOf(key)
	if !ok {
		panic("config: no setting " + key)
	}
	if s.Env != "" && getenv != nil {
		if v := getenv(s.Env); v != "" {
			return v, "$" + s.Env
		}
	}
	if f != nil {
		if v, ok := f.Values[key]; ok {
			return v.Text, fmt.Sprintf("%s:%d", f.Path, v.Line)
		}
	}
	return s.Default, "default"
}

// On is a Bool setting's value (as Get decides it) read as on or off.
func (f *File) On(key string, getenv func(string) string) bool {
	v, _ := f.Get(key, getenv)
	return !state.Off(v)
}

// Profile is the profile named name; ok false when there is none.
func (f *File) Profile(name string) (Profile, bool) {
	if f == nil {
		return Profile{}, false
	}
	i := slices.IndexFunc(f.Profiles, func(p Profile) bool { return p.Name == name })
	if i < 0 {
		return Profile{}, false
	}
	return f.Profiles[i], true
}

// ProfileNames are the profiles' names, in order.
func (f *File) ProfileNames() []string {
	if f == nil {
		return nil
	}
	out := make([]string, len(f.Profiles))
	for i, p := range f.Profiles {
		out[i] = p.Name
	}
	return out
}

// Getenv is getenv with the file beneath it: an environment-backed
// setting's variable, unset or empty, says the file's value.
func (f *File) Getenv(getenv func(string) string) func(string) string {
	if f == nil || len(f.Values) == 0 {
		return getenv
	}
	byEnv := map[string]string{}
	for _, s := range Settings {
		if v, ok := f.Values[s.Key]; ok && s.Env != "" {
			byEnv[s.Env] = v.Text
		}
	}
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return byEnv[k]
	}
}

// The value checks, each saying what it wants.

func oneOf(want ...string) func(Value) error {
	return func(v Value) error {
		if !slices.Contains(want, v.Text) {
			return fmt.Errorf("want %s, not %q", orList(want), v.Text)
		}
		return nil
	}
}

func eachOf(want ...string) func(Value) error {
	return func(v Value) error {
		for _, w := range v.List {
			if !slices.Contains(want, w) {
				return fmt.Errorf("want each of %s, not %q", orList(want), w)
			}
		}
		return nil
	}
}

func checkAgent(v Value) error {
	if !slices.Contains(agentNames(), v.Text) {
		return fmt.Errorf("want %s, not %q", orList(agentNames()), v.Text)
	}
	return nil
}

// agentNames are the agents a file may name (custom: a profile's args
// are its command).
func agentNames() []string {
	var out []string
	for _, a := range state.Agents {
		out = append(out, string(a))
	}
	return append(out, string(state.AgentCustom))
}

func checkSocket(v Value) error {
	if strings.ContainsAny(v.Text, "/\x00") || strings.HasPrefix(v.Text, "-") {
		return fmt.Errorf("want a tmux socket name (tmux -L NAME: no / and no leading -), not %q", v.Text)
	}
	return nil
}

func checkEvery(v Value) error {
	if state.Off(v.Text) {
		return nil
	}
	if d, err := time.ParseDuration(v.Text); err != nil || d < 5*time.Second {
		return fmt.Errorf("want a duration of at least 5s (such as \"60s\" or \"2m\") or \"off\", not %q", v.Text)
	}
	return nil
}

func checkBudget(v Value) error {
	_, err := state.ParseBudget(v.Text)
	return err
}

func checkAbs(v Value) error {
	if v.Text != "" && !filepath.IsAbs(v.Text) {
		return fmt.Errorf("want an absolute path (or ~/…), not %q", v.Text)
	}
	return nil
}

func checkPrefix(v Value) error {
	if strings.ContainsAny(v.Text, " ~^:?*[\\\x00") || strings.HasPrefix(v.Text, "-") {
		return fmt.Errorf("want the start of a git branch name (such as \"lanes/\"), not %q", v.Text)
	}
	return nil
}

// orList is "a, b or c".
func orList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
