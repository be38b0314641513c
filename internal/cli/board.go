package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"lanes/internal/config"
	"lanes/internal/remote"
	"lanes/internal/session"
	"lanes/state"
	"lanes/state/git"
	"lanes/state/store"
	"lanes/tmux"
)

// Board runs the board until the user quits. The lanes binary has none: it
// links no terminal UI, so that the commands tmux and the agents run often
// (status-line, hook, ls) start fast, and it execs lanes-board instead,
// which is this same command line with the board wired in.
type Board func(ctx context.Context, o BoardOptions) error

// BoardOptions is what the board needs from the command line: the
// collector, the session commands, and the user's choices.
type BoardOptions struct {
	Collector *store.Collector
	// Ingest runs spool-only cycles, for hook lines: no tmux read
	// (Collector's own Ingest, sharing its cached records).
	Ingest interface {
		Cycle(context.Context) (store.CycleResult, error)
	}
	// Wake asks for an Ingest cycle: something taken beside the cycles
	// waits to be applied.
	Wake     <-chan struct{}
	Actions  *session.Service
	Tmux     func(socket string) *tmux.Client
	StateDir string
	Theme    string // auto, dark or light
	NoColor  bool
	// NoContent: LANES_CONTENT=off, the cards and notifications say
	// nothing of what the agents do.
	NoContent bool
	NoNotify  bool // LANES_NOTIFY=off
	// NotifyWays are the config file's notify.ways; SaveTheme writes the
	// theme t picks into it.
	NotifyWays   []string
	SaveTheme    func(theme string) error
	BranchPrefix string // worktree.branch_prefix
	// UsageTopLine (usage.top_line) and Budgets: what the agents spent
	// today on the top line, and the budgets whose crossing notifies.
	UsageTopLine bool
	Budgets      state.Budgets
	TmuxEnv      string // $TMUX
	Dir          string // the new-session dialog's default directory
	Agent        state.Agent
	Now          func() time.Time
	// Hosts are the other hosts the board shows (the hosts file, then
	// --host), reached with SSH (LANES_SSH); none: the board runs no ssh.
	Hosts []remote.Host
	SSH   remote.SSH
	// Warning is said once when the board starts (lines of the hosts
	// file it skipped).
	Warning string
}

// envNotify is the variable that turns the board's notifications off
// ("off"; docs/design.md §15).
const envNotify = "LANES_NOTIFY"

// boardName is the board's binary, found next to lanes or on PATH.
const boardName = "lanes-board"

func (a *app) cmdBoard(ctx context.Context, args []string) int {
	fs := a.flags("board")
	themeFlag := fs.String("theme", a.theme, "auto (ask the terminal), dark or light")
	fs.Func("host", "another host whose sessions the board shows, `NAME=DEST` (DEST as ssh takes it: me@build.box, an alias of ~/.ssh/config; DEST alone is named by its host part); repeatable, each NAME once, beside those of $XDG_CONFIG_HOME/lanes/hosts (one NAME DEST a line): a NAME of that file is replaced", a.addHost)
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "board takes no arguments")
	}
	if !slices.Contains(themeNames, *themeFlag) {
		return a.usageErr(fs, "unknown theme %q (want auto, dark or light)", *themeFlag)
	}
	hosts, warn, err := a.boardHosts()
	if err != nil {
		return a.usageErr(fs, "%v", err)
	}
	a.warnHosts(warn) // said again on the board, where it is seen
	a.buildName()
	if a.board == nil {
		return a.execBoard()
	}
	if err := a.sameBuild(); err != nil {
		return a.fail(err)
	}
	if err := a.boardTerminal(); err != nil {
		return a.fail(err)
	}
	c, done, err := a.boardCollector()
	if err != nil {
		return a.fail(err)
	}
	defer done()
	dir, err := a.stateDir()
	if err != nil {
		return a.fail(err)
	}
	cwd, _ := os.Getwd()
	err = a.board(ctx, BoardOptions{
		Collector:  c,
		Ingest:     ingest{c},
		Actions:    a.svc(),
		Tmux:       a.tmuxFor,
		StateDir:   dir,
		Wake:       c.Witness.Ready(),
		Theme:      *themeFlag,
		NoColor:    a.getenv("NO_COLOR") != "",
		NoNotify:   state.Off(a.getenv(envNotify)),
		NotifyWays: strings.Split(a.setting("notify.ways"), ","),
		SaveTheme: func(theme string) error {
			return config.SetTheme(config.Path(a.getenv), theme, a.getenv("HOME"), os.Getuid())
		},
		NoContent:    state.Off(a.getenv(state.EnvContent)),
		TmuxEnv:      a.getenv("TMUX"),
		Dir:          cwd,
		Agent:        a.boardAgent(),
		BranchPrefix: a.setting("worktree.branch_prefix"),
		UsageTopLine: a.cfg.On("usage.top_line", a.getenv),
		Budgets:      a.budgets(),
		Now:          a.now,
		Hosts:        hosts,
		SSH:          a.ssh(),
		Warning:      a.boardWarning(warn),
	})
	if err != nil {
		return a.fail(fmt.Errorf("board: %w", err))
	}
	return exitOK
}

// budgets are the config file's budgets (a bad one was refused when the
// file was read).
func (a *app) budgets() state.Budgets {
	b := state.Budgets{Profiles: map[string]state.Budget{}}
	b.Day, _ = state.ParseBudget(a.setting("usage.day_budget"))
	for _, p := range a.cfg.Profiles {
		if p.Budget != (state.Budget{}) {
			b.Profiles[p.Name] = p.Budget
		}
	}
	return b
}

// sameBuild refuses a board started by a lanes of another build (the
// board and the hooks it installs would disagree).
func (a *app) sameBuild() error {
	from := a.getenv(envFrom)
	if from == "" {
		return nil
	}
	// Not for the tmux server this board may start, nor its panes.
	_ = os.Unsetenv(envFrom)
	if from != a.build && from != unknownBuild && a.build != unknownBuild {
		return fmt.Errorf("this %s (build %s) is not from the same build as the lanes that started it (build %s): %s",
			boardName, a.build, from, buildBoth)
	}
	return nil
}

// boardCollector is the collector as the board runs it; done ends what
// it holds open (the control-mode client).
func (a *app) boardCollector() (c *store.Collector, done func(), err error) {
	if c, err = a.readerCollector(); err != nil {
		return nil, nil, err
	}
	done = func() {}
	// The board reads tmux every second for as long as it runs: over one
	// control-mode client rather than a new tmux client each time.
	if !state.Off(a.getenv(envControl)) {
		reader := &tmux.PaneReader{Client: a.tmuxClient()}
		done = func() { reader.Close() }
		c.Panes = session.Panes{Client: reader.Client, Reader: reader}
	}
	// The board has a next cycle: the witness's captures run beside its
	// cycles, not inside them.
	c.Witness = store.NewWitnessRunner()
	// Only the long-lived processes, the board and ls --watch, read
	// ahead, behind and changed (beside their cycles); ls shows what they
	// stored.
	c.Git = &git.Poller{}
	// And PR facts from GitHub, when gh is there and logged in.
	if c.PRs, err = a.prPoller(); err != nil {
		done()
		return nil, nil, err
	}
	return c, done, nil
}

// addHost takes a --host flag; hosts checks them all at once.
func (a *app) addHost(s string) error {
	a.hostArgs = append(a.hostArgs, s)
	return nil
}

// boardHosts are the other hosts the board shows: the hosts file's, then
// the --host flags' (a flag naming a host of the file replaces it there).
// warn: lines of the hosts file skipped; err: a --host it cannot take,
// or one name given twice on the command line.
func (a *app) boardHosts() (hosts []remote.Host, warn, err error) {
	hosts, warn = a.hosts()
	given := map[string]bool{}
	for _, s := range a.hostArgs {
		h, err := remote.ParseHost(s)
		if err != nil {
			return nil, warn, fmt.Errorf("--host %s: %w", s, err)
		}
		if given[h.Name] {
			return nil, warn, fmt.Errorf("--host %s: %w: host %s given twice: give each another NAME= (e.g. --host %s2=%s)", s, remote.ErrHosts, h.Name, h.Name, h.Dest)
		}
		given[h.Name] = true
		if i := slices.IndexFunc(hosts, func(o remote.Host) bool { return o.Name == h.Name }); i >= 0 {
			hosts[i] = h
			continue
		}
		hosts = append(hosts, h)
	}
	return hosts, warn, nil
}

// hostsWarning is what the board says once of skipped hosts file lines,
// short enough for its bottom line ("" for none).
func hostsWarning(warn error) string {
	var he *remote.HostsError
	switch {
	case errors.As(warn, &he):
		return "skipped bad " + he.Short() + ": see lanes doctor"
	case warn != nil:
		return warn.Error()
	}
	return ""
}

// envControl=off makes the board start a tmux client for each read, as
// every other command does, instead of keeping one attached.
const envControl = "LANES_TMUX_CONTROL"

// envFrom is set by lanes when it execs lanes-board, to the build it is:
// the board refuses to run for another build, and a lanes that finds it
// set was started in the board's place (a link or a wrapper), which would
// otherwise exec itself forever.
const envFrom = "LANES_BOARD_FROM"

// unknownBuild stands for a build without version control stamps (go run,
// go test): it matches any other.
const unknownBuild = "unknown"

// execBoard replaces this process with lanes-board, given the same
// arguments, so the board is the process the terminal and signals see.
func (a *app) execBoard() int {
	path, err := findBoard()
	if err != nil {
		return a.fail(err)
	}
	if a.getenv(envFrom) != "" {
		return a.fail(fmt.Errorf("%s does not run the board: it started lanes again; %s", path, buildBoth))
	}
	self, err := executable()
	if err != nil {
		return a.fail(err)
	}
	if sameFile(path, self) {
		return a.fail(fmt.Errorf("%s is lanes itself, not the board; %s", path, buildBoth))
	}
	env := append(os.Environ(), envFrom+"="+a.build)
	err = syscall.Exec(path, append([]string{path}, a.args...), env)
	return a.fail(fmt.Errorf("starting the board (%s): %w", path, err))
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// buildName is this binary's build (buildOf), read once.
func (a *app) buildName() string {
	if a.build == "" {
		a.build = buildOf(debug.ReadBuildInfo())
	}
	return a.build
}

// buildOf names a build by its module version and version-control stamps,
// unknownBuild when it has none.
func buildOf(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return unknownBuild
	}
	var rev, modified string
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				modified = "+modified"
			}
		}
	}
	switch {
	case rev != "":
		return rev + modified
	case info.Main.Version != "" && info.Main.Version != "(devel)":
		return info.Main.Version
	}
	return unknownBuild
}

// buildBoth is how to get lanes-board beside lanes.
const buildBoth = "build both with `go build -o bin/ ./cmd/...` (then run bin/lanes), or install both with `go install ./cmd/...`"

// findBoard is lanes-board next to this binary, else on PATH.
func findBoard() (string, error) {
	self, err := executable()
	if err != nil {
		return "", err
	}
	path := filepath.Join(filepath.Dir(self), boardName)
	if session.IsExecutable(path) {
		return path, nil
	}
	if path, err := exec.LookPath(boardName); err == nil {
		return path, nil
	}
	return "", fmt.Errorf("the board is a program of its own, %s, and there is no executable one next to %s or on PATH: %s",
		boardName, self, buildBoth)
}

// executable is this binary's path with symlinks resolved.
func executable() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the lanes binary: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	return self, nil
}

// firstInstalled is the first agent on PATH, for the board's new-session
// dialog; a shell is always there.
func firstInstalled() state.Agent {
	for _, ag := range state.Agents {
		if ag == state.AgentShell {
			break
		}
		if _, err := exec.LookPath(string(ag)); err == nil {
			return ag
		}
	}
	return state.AgentShell
}

// boardAgent is the new-session dialog's first agent: the config file's,
// else the first installed.
func (a *app) boardAgent() state.Agent {
	if a.cfg != nil {
		if _, set := a.cfg.Values["agent"]; set {
			return state.Agent(a.setting("agent"))
		}
	}
	return firstInstalled()
}

// boardWarning is what the board says once when it starts: the hosts
// file's skipped lines and the config file's unknown keys.
func (a *app) boardWarning(hostsErr error) string {
	said := hostsWarning(hostsErr)
	if len(a.cfgWarnings) > 0 {
		w := state.CleanText(config.Says(filepath.Base(a.cfg.Path), a.cfgWarnings[:1]))
		if n := len(a.cfgWarnings); n > 1 {
			w += fmt.Sprintf(" (and %d more: lanes config --check)", n-1)
		}
		said = strings.TrimPrefix(said+"; "+w, "; ")
	}
	return said
}
