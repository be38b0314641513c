package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"time"

	"lanes/internal/config"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// Exit codes (docs/design.md §10).
const (
	exitOK         = 0
	exitError      = 1
	exitUsage      = 2
	exitExited     = 3
	exitTerminated = 4
	exitNoSession  = 5
	exitDialog     = 6
)

// themeNames are the values of --theme: auto asks the terminal.
var themeNames = []string{"auto", "dark", "light"}

// version is set at build time with -ldflags "-X lanes/internal/cli.version=…";
// a plain build says dev and its version-control revision (versionLine).
var version = "dev"

// app is one invocation: its streams, environment and global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	now            func() time.Time

	socket string // --socket / LANES_TMUX_SOCKET
	theme  string // --theme
	// hostArgs are the --host flags (NAME=DEST or DEST): other hosts the
	// board shows beside the hosts file's (docs/design.md §16).
	hostArgs []string

	hung       hungServers                     // tmux servers that just timed out
	readyWait  time.Duration                   // how long send waits for a new agent's prompt (0: session.DefaultReadyWait)
	tmuxRunner func(socket string) tmux.Runner // tests: in place of exec'ing tmux

	args    []string // as given, for lanes-board
	signals bool     // Main: long commands end cleanly on SIGINT and SIGTERM
	board   Board    // nil: exec lanes-board
	build   string   // this binary's build (buildOf), set when the board needs it

	heartbeat time.Duration // ls --watch: quiet this long sends a heartbeat (0: listing.HeartbeatEvery)

	// The config file (loadConfig): its settings, the keys it does not
	// know, and why it cannot be used (its settings are then none).
	cfg         *config.File
	cfgWarnings []config.Problem
	cfgErr      error
	// env is the environment alone, without the file beneath it (getenv
	// has it): where a setting came from. given holds the global flags
	// the command line set.
	env   func(string) string
	given map[string]bool
}

func newApp(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *app {
	// The sessions' server is $LANES_TMUX_SOCKET until main reads --socket:
	// an app used without main (the board's actions, tests) must never
	// reach another server than the user chose.
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, now: time.Now,
		socket: getenv("LANES_TMUX_SOCKET")}
}

// command is one subcommand.
type command struct {
	name, args, summary string
	run                 func(a *app, ctx context.Context, args []string) int
}

func commands() []command {
	return []command{
		{"board", "[--theme auto|dark|light] [--host NAME=DEST]…", "open the board (the default command; lanes-board, found beside lanes or on PATH)", (*app).cmdBoard},
		{"new", "NAME [--profile P] [--agent A] [--dir DIR] [--worktree [--branch B] [--from REF]] [-- CMD ARGS…]", "start an agent in a new tmux session (with --worktree, in a new git worktree on its own branch)", (*app).cmdNew},
		{"ls", "[--json [--watch]] [--all] [--all-hosts]", "list sessions with their status (--watch: as a stream of JSON lines)", (*app).cmdLs},
		{"attach", "NAME", "attach to a session's pane", (*app).cmdAttach},
		{"next", "[--attach] [--all-hosts]", "print the session that needs you most, past the one this pane is in (--attach: go there)", (*app).cmdNext},
		{"send", "NAME [--force] [--] TEXT…", "type a prompt into a live agent", (*app).cmdSend},
		{"answer", "NAME yes|no|always [--dialog TIME]", "answer the permission dialog an agent shows, with its own keys", (*app).cmdAnswer},
		{"peek", "NAME [--color]", "print what a session's pane shows now", (*app).cmdPeek},
		{"diff", "NAME", "print what a session's checkout changed against its base (git diff --stat, then the diff)", (*app).cmdDiff},
		{"usage", "[--by session|agent|host|day] [--since today|7d|DATE] [--json] [--all-hosts]", "sum the tokens and cost the agents report, ended sessions' too", (*app).cmdUsage},
		{"history", "NAME [--json] [--last N]", "print a session's latest status changes, oldest first", (*app).cmdHistory},
		{"mute", "NAME [--off]", "stop (or, with --off, restart) notifying when a session enters Needs you", (*app).cmdMute},
		{"seen", "NAME", "mark what a session ended with as seen, as looking at it on the board does", (*app).cmdSeen},
		{"kill", "NAME [--yes]", "kill a session (its record is kept)", (*app).cmdKill},
		{"restart", "NAME", "respawn a live session's agent with a new launch", (*app).cmdRestart},
		{"restore", "NAME [--plan] | --all", "start a session whose tmux session went away (a reboot) again, resuming its agent's conversation", (*app).cmdRestore},
		{"rm", "NAME [--yes] [--worktree | --merged] | --done [--yes]", "remove a terminated session's record and spool, or an exited agent's in one step (with --worktree, its worktree too, only when clean; --merged: one whose PR merged, ended and cleaned up in one step; --done: every one of Done, asking once)", (*app).cmdRm},
		{"pr", "NAME --number N [--state …] [--review …] [--ci …] [--mergeable …] [--base B] [--head H] [--url U] | --sync [NAME…] | --create NAME", "record a PR's facts for a session, read them from GitHub now, or create one", (*app).cmdPR},
		{"hook", "AGENT [EVENT]", "record an agent hook event (run by agents; always exits 0)", (*app).cmdHook},
		{"hooks", "install|uninstall AGENT [--project DIR] [--dry-run]", "install lanes hooks into an agent's own config, or take them out", (*app).cmdHooks},
		{"status-line", "[--format tmux|plain|json] [--session NAME] [--theme dark|light] [--all-hosts]", "print a summary for tmux's status line", (*app).cmdStatusLine},
		{"doctor", "[--repair]", "check tmux, the state dir, the store, the spool and hooks", (*app).cmdDoctor},
		{"config", "[--check | --init | --path]", "print the settings in effect and where each came from (the config file, the environment, a default)", (*app).cmdConfig},
		{"version", "", "print the lanes version", (*app).cmdVersion},
		{"completion", "bash|zsh|fish", "print the shell's completion script: commands, flags, agents, session names, NAME@HOST", (*app).cmdCompletion},
		{"__complete", "CWORD WORD…", "the words that may go at word CWORD (the completion scripts ask)", (*app).cmdComplete},
	}
}

// Main runs lanes with the process's arguments, streams and environment,
// and returns the exit code. board runs the board; nil execs lanes-board.
func Main(board Board) int {
	a := newApp(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	a.board, a.signals = board, true
	return a.main(context.Background(), os.Args[1:])
}

func (a *app) main(ctx context.Context, args []string) int {
	if a.args == nil {
		a.args = args
	}
	// The hook path comes first and touches nothing else: agents wait on it.
	if len(args) > 0 && args[0] == "hook" {
		return a.cmdHook(ctx, args[1:])
	}
	fs := flag.NewFlagSet("lanes", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.socket, "socket", "", "tmux server socket name (tmux -L)")
	fs.StringVar(&a.theme, "theme", "", "board theme: auto, dark or light (default: the config file's, else auto)")
	fs.Func("host", "another host the board shows: NAME=DEST (repeatable)", a.addHost)
	// The global flags end at the command: its words are its own.
	switch _, err := parseArgs(fs, args, 0); {
	case errors.Is(err, flag.ErrHelp):
		a.usage(a.stdout)
		return exitOK
	case err != nil:
		fmt.Fprintf(a.stderr, "lanes: %s\n\n", flagErr(err))
		a.usage(a.stderr)
		return exitUsage
	}
	rest := fs.Args()
	if code, stop := a.settle(fs, rest); stop {
		return code
	}
	if len(a.hostArgs) > 0 && len(rest) > 0 && rest[0] != "board" {
		fmt.Fprintf(a.stderr, "lanes: --host is the board's (lanes --host NAME=DEST); %s reads the hosts file's hosts (NAME@HOST, --all-hosts)\n", rest[0])
		return exitUsage
	}
	// A signal context costs about a millisecond of start-up (its watcher
	// takes a thread of its own). status-line, which tmux runs every few
	// seconds, and ls, which scripts poll, are short and leave nothing
	// half-done when a signal ends them (a store commit is atomic), so they
	// keep the default: SIGINT and SIGTERM end them at once. So does the
	// hook, above.
	// SIGHUP too: a terminal closing under the board (its tmux pane killed)
	// ends it as a quit does, so it ends its reader session.
	if a.signals && (len(rest) == 0 || rest[0] != "status-line" && rest[0] != "ls" && rest[0] != "hook") {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer stop()
	}
	if len(rest) == 0 {
		return a.cmdBoard(ctx, nil)
	}
	if rest[0] == "help" {
		if len(rest) > 1 {
			return a.main(ctx, []string{rest[1], "--help"})
		}
		a.usage(a.stdout)
		return exitOK
	}
	i := slices.IndexFunc(commands(), func(c command) bool { return c.name == rest[0] })
	if i < 0 {
		// Two lines, not the whole usage: a typo deserves its fix.
		fmt.Fprintf(a.stderr, "lanes: unknown command %q%s\n", rest[0], didYouMean(rest[0]))
		fmt.Fprintln(a.stderr, "Run `lanes help` for the commands.")
		return exitUsage
	}
	if code, done := a.atHost(ctx, rest[0], rest[1:]); done {
		return code
	}
	return commands()[i].run(a, ctx, rest[1:])
}

// settle reads the config file for the command rest names and fills in
// the global flags the command line left unset: flag, then environment,
// then file, then default.
func (a *app) settle(fs *flag.FlagSet, rest []string) (code int, stop bool) {
	a.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { a.given[f.Name] = true })
	cmd := ""
	if len(rest) > 0 {
		cmd = rest[0]
	}
	if code, stop := a.loadConfig(cmd); stop {
		return code, true
	}
	if a.socket == "" {
		a.socket = a.getenv("LANES_TMUX_SOCKET") // the file's socket beneath it
	}
	if a.theme == "" {
		a.theme = a.setting("theme")
	}
	if !slices.Contains(themeNames, a.theme) {
		fmt.Fprintf(a.stderr, "lanes: unknown --theme %q (want auto, dark or light)\n", a.theme)
		return exitUsage, true
	}
	return exitOK, false
}

func (a *app) usage(w io.Writer) {
	fmt.Fprintln(w, "lanes — a board for AI coding agents running in tmux")
	fmt.Fprintln(w, "\nUsage:\n  lanes [--socket NAME] [--theme auto|dark|light] [--host NAME=DEST]… [COMMAND] [ARGS]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		if !strings.HasPrefix(c.name, "__") { // __complete is the shells'
			fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(w, "\nA command on one session takes NAME@HOST for a session of HOST, a host of the hosts file: it runs there over ssh.")
	fmt.Fprintln(w, "\nGlobal flags:\n  --socket NAME   tmux server socket name (tmux -L); default $LANES_TMUX_SOCKET, else tmux's default server")
	fmt.Fprintln(w, "  --theme auto|dark|light\n                  the board's colours: auto asks the terminal for its background")
	fmt.Fprintln(w, "  --host NAME=DEST  another host whose sessions the board shows (repeatable, each NAME once; DEST is what")
	fmt.Fprintln(w, "                  ssh takes, e.g. --host build=me@build.box; --host DEST alone is named by DEST's host part),")
	fmt.Fprintln(w, "                  beside those of $XDG_CONFIG_HOME/lanes/hosts: a NAME of that file is replaced")
	fmt.Fprintln(w, "\nEnvironment:\n  LANES_STATE_DIR   state directory (default $XDG_STATE_HOME/lanes, else ~/.local/state/lanes)")
	fmt.Fprintln(w, "  LANES_TMUX_SOCKET the tmux server (tmux -L) lanes starts and reads sessions on, as --socket")
	fmt.Fprintln(w, "  LANES_CONTENT     off (or 0, false, no): hooks keep, and the board and `ls --json` show, no tool, question or message (screen-sharing)")
	fmt.Fprintln(w, "  LANES_NOTIFY      off (or 0, false, no): the board tells nobody when a session enters Needs you")
	fmt.Fprintln(w, "  LANES_PR_EVERY    how often the board reads PRs from GitHub with gh (default 60s, at least 5s), or off")
	fmt.Fprintln(w, "  LANES_WORKTREE_ROOT  where `lanes new --worktree` puts worktrees (absolute; default beside the repository)")
	fmt.Fprintln(w, "  LANES_TMUX_CONTROL   off: the board starts a tmux client per read instead of keeping one control-mode client")
	fmt.Fprintln(w, "  NO_COLOR          the board draws without colour; glyphs and labels carry everything")
	fmt.Fprintln(w, "  LANES_SSH         the ssh program lanes reaches other hosts with (default ssh)")
	fmt.Fprintln(w, "\nRun `lanes COMMAND --help` for a command's flags.")
}

// flags makes a subcommand's flag set with a usage that prints its synopsis.
func (a *app) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("lanes "+name, flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	var c command
	for _, cc := range commands() {
		if cc.name == name {
			c = cc
		}
	}
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: %s\n\n%s.\n", strings.TrimSpace("lanes "+name+" "+c.args), upperFirst(c.summary))
		var hasFlags bool
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "\nFlags:")
			printFlags(fs)
		}
	}
	return fs
}

// printFlags is flag.PrintDefaults as lanes spells its flags: --name, as
// the usage lines and the README do (either dash works).
func printFlags(fs *flag.FlagSet) {
	w := fs.Output()
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if value != "" {
			head += " " + value
		}
		def := ""
		switch g, _ := f.Value.(flag.Getter); {
		case f.DefValue == "" || f.DefValue == "false" || f.DefValue == "0" || f.DefValue == "0s":
		case g != nil && reflect.TypeOf(g.Get()).Kind() == reflect.String:
			def = fmt.Sprintf(" (default %q)", f.DefValue)
		default:
			def = " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s%s\n", head, strings.ReplaceAll(usage, "\n", "\n    \t"), def)
	})
}

// parse parses a command's args by parseArgs' rules; done is true when the
// command should return code now (help was asked for, or the args were
// wrong).
func (a *app) parse(fs *flag.FlagSet, args []string) (code int, done bool) {
	_, code, done = a.parseWith(fs, args, -1)
	return code, done
}

// parseWith is parse with parseArgs' special case, textAfter (send's
// prompt), and its tail (new's agent argv).
func (a *app) parseWith(fs *flag.FlagSet, args []string, textAfter int) (tail []string, code int, done bool) {
	usage, out := fs.Usage, fs.Output()
	// The flag package would print its error, and the usage on -h too:
	// lanes says them itself, in its own words.
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	tail, err := parseArgs(fs, args, textAfter)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(a.stdout)
		fs.Usage()
		return nil, exitOK, true
	case err != nil:
		fmt.Fprintf(a.stderr, "lanes: %s\n\n", flagErr(err))
		fs.Usage()
		return nil, exitUsage, true
	}
	return tail, 0, false
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// fail prints an error and returns its exit code.
func (a *app) fail(err error) int {
	// Its words may be other programs' (gh's, git's): printable only.
	fmt.Fprintf(a.stderr, "lanes: %s\n", state.CleanLines(err.Error()))
	switch {
	case errors.Is(err, state.ErrNoSession):
		if hosts, _ := a.hosts(); len(hosts) > 0 {
			// Its session may run on another host: commands act on this
			// host's only (docs/design.md §16).
			fmt.Fprintf(a.stderr, "lanes: note: a plain NAME is this host's; `lanes ls --all-hosts` lists the other hosts', and NAME@HOST acts on one of them\n")
		}
		return exitNoSession
	case errors.Is(err, state.ErrTerminated):
		return exitTerminated
	case errors.Is(err, state.ErrAgentExited):
		return exitExited
	case errors.Is(err, state.ErrInDialog):
		return exitDialog
	}
	return exitError
}

// usageErr prints a usage error for a command and returns exit 2.
func (a *app) usageErr(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(a.stderr, "lanes: "+format+"\n\n", args...)
	fs.SetOutput(a.stderr)
	fs.Usage()
	return exitUsage
}

func (a *app) cmdVersion(_ context.Context, args []string) int {
	fs := a.flags("version")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "version takes no arguments")
	}
	fmt.Fprintln(a.stdout, versionLine(version, a.buildName()))
	return exitOK
}

// versionLine is what `lanes version` prints: the version, and the build
// it names (the revision lanes was built from) when the binary knows it.
func versionLine(version, build string) string {
	if build == unknownBuild {
		return "lanes " + version
	}
	return fmt.Sprintf("lanes %s (build %s)", version, build)
}

// stateDir resolves the state directory from this invocation's environment.
func (a *app) stateDir() (string, error) {
	return store.Dir(a.getenv)
}

// store opens the store handle (it holds no file until used).
func (a *app) store() (*store.Store, error) {
	dir, err := a.stateDir()
	if err != nil {
		return nil, err
	}
	return store.New(dir), nil
}
