package tmux

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// DefaultTimeout bounds one tmux invocation. A healthy server answers in a
// few milliseconds; two seconds leaves room for a loaded machine while
// keeping a wedged server from freezing the board.
const DefaultTimeout = 2 * time.Second

// SocketEnv is the environment variable naming the tmux socket (tmux -L)
// when no flag is given.
const SocketEnv = "LANES_TMUX_SOCKET"

// Runner executes one tmux invocation. args is tmux's argv without the
// leading "tmux" and without the global flags that select the server (the
// Runner adds those); it returns stdout. What ctx carries for tmux's
// standard input (Input) goes there. Tests substitute a fake that records
// args.
type Runner func(ctx context.Context, args ...string) ([]byte, error)

// ExecRunner returns a Runner that executes the tmux binary on PATH
// directly (never through a shell), talking to the server named socket
// ("" = tmux's default server, no -L flag). flags are extra global flags
// placed before the command, such as "-f", "/dev/null" for a private test
// server that must not read the user's configuration. Each call is bounded
// by timeout (none when timeout <= 0) on top of the caller's context.
//
// A failed call returns an error of the form "tmux CMD: SENTINEL: stderr",
// wrapping the sentinel chosen by classify (or the exec error).
func ExecRunner(socket string, timeout time.Duration, flags ...string) Runner {
	// -u: without a UTF-8 locale (cron, env -i, a bare service) the tmux
	// client prints control characters as '_', which would turn the \x1f
	// field separator of every read into an underscore.
	global := append(append([]string{"-u"}, socketArgs(socket)...), flags...)
	return func(ctx context.Context, args ...string) ([]byte, error) {
		if timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		cmd := exec.CommandContext(ctx, "tmux", append(slices.Clone(global), args...)...)
		if commandName(args) != "switch-client" {
			cmd.Env = Outside()
		}
		if in := Input(ctx); in != nil {
			cmd.Stdin = bytes.NewReader(in)
		}
		stdout, stderr, err := run(ctx, cmd)
		if err == nil {
			return stdout, nil
		}
		if ctx.Err() != nil {
			// The kill from CommandContext surfaces as "signal: killed";
			// the context says why it happened.
			err = ctx.Err()
		}
		msg := strings.TrimSpace(string(stderr))
		return stdout, wrapErr(commandName(args), classify(msg, err), msg)
	}
}

// Outside is this process's environment without $TMUX and $TMUX_PANE,
// for a tmux call: with them, tmux with no -L would reach the server this
// process runs in instead of tmux's default one, the server lanes means by
// socket "" (it put the sessions there, and reads them there from inside
// any other server). switch-client alone keeps them: they name the client
// it moves.
func Outside() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=")
	})
}

// pipeGrace is how long a tmux client that has exited may leave its output
// pipes open: a server it started daemonizes, and whatever that spawns may
// hold them, so its answer is taken without waiting for them.
const pipeGrace = 500 * time.Millisecond

// run runs cmd and returns its stdout and stderr. The pipes are lanes' own
// rather than exec's: a tmux client hands its stdout and stderr to the
// server, so when the server hangs and ctx kills the client, the pipes stay
// open in the server. exec would wait out its whole WaitDelay for them;
// here a killed call returns at once with what arrived.
func run(ctx context.Context, cmd *exec.Cmd) (stdout, stderr []byte, err error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, nil, err
	}
	var outBuf, errBuf bytes.Buffer
	done := make(chan struct{}, 2)
	drain := func(b *bytes.Buffer, r *os.File) { _, _ = b.ReadFrom(r); done <- struct{}{} }
	go drain(&outBuf, outR)
	go drain(&errBuf, errR)
	err = cmd.Wait()
	waiting := 2
	if killed := err != nil && ctx.Err() != nil; !killed {
		grace := time.NewTimer(pipeGrace)
		defer grace.Stop()
	wait:
		for waiting > 0 {
			select {
			case <-done:
				waiting--
			case <-grace.C:
				break wait
			}
		}
	}
	// Closing the read ends ends the drains still waiting; the buffers are
	// read only after every drain has returned.
	outR.Close()
	errR.Close()
	for ; waiting > 0; waiting-- {
		<-done
	}
	return outBuf.Bytes(), errBuf.Bytes(), err
}

func wrapErr(name string, err error, stderr string) error {
	if stderr == "" || strings.Contains(err.Error(), stderr) {
		return fmt.Errorf("tmux %s: %w", name, err)
	}
	return fmt.Errorf("tmux %s: %w: %s", name, err, stderr)
}

// commandName names an invocation in error messages: its command, or its
// commands joined by " ; " when several are chained.
func commandName(args []string) string {
	if len(args) == 0 {
		return "(no command)"
	}
	names := []string{args[0]}
	for i, a := range args[:len(args)-1] {
		if a == ";" {
			names = append(names, args[i+1])
		}
	}
	return strings.Join(names, " ; ")
}

func socketArgs(socket string) []string {
	if socket == "" {
		return nil
	}
	return []string{"-L", socket}
}

// Client talks to one tmux server. The zero value of Run means "exec tmux
// with DefaultTimeout", so a Client literal with only Socket set works.
type Client struct {
	// Socket is the server's socket name (tmux -L); "" is tmux's default
	// server, which inside tmux means the server named by $TMUX.
	Socket string
	// Config is a configuration file passed as tmux -f; "" lets tmux read
	// the user's own. It only matters for a call that starts the server.
	Config string
	// Run executes tmux; nil uses ExecRunner(Socket, DefaultTimeout, -f
	// Config).
	Run Runner
}

// New returns a Client for the server on socket ("" = tmux's default
// server) that execs tmux with DefaultTimeout per call.
func New(socket string) *Client {
	return &Client{Socket: socket, Run: ExecRunner(socket, DefaultTimeout)}
}

// SocketFromEnv returns the socket name to use: flag when set, else
// $LANES_TMUX_SOCKET, else "" (tmux's default server).
func SocketFromEnv(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv(SocketEnv)
}

func (c *Client) configArgs() []string {
	if c.Config == "" {
		return nil
	}
	return []string{"-f", c.Config}
}

// run executes cmds as ONE tmux invocation, joined by ";" separators, so
// they run back to back in the server with nothing in between. Every
// argument is escaped so that user text can never become a separator.
func (c *Client) run(ctx context.Context, cmds ...[]string) ([]byte, error) {
	argv := joinCmds(cmds, escapeArg)
	run := c.Run
	if run == nil {
		run = ExecRunner(c.Socket, DefaultTimeout, c.configArgs()...)
	}
	return run(ctx, argv...)
}

// escapeArg protects one argv word from tmux's argv splitting: tmux 3.x
// treats ANY argument ending in ';' as "this word, then end of command"
// (so "a;" sends "a" and ";" vanishes), and turns a trailing "\;" into a
// literal ";". Rewriting a trailing ';' as "\;" therefore delivers the word
// unchanged. Nothing else in an argv word is special to tmux.
func escapeArg(a string) string {
	if strings.HasSuffix(a, ";") {
		return a[:len(a)-1] + `\;`
	}
	return a
}

// escapeFormat doubles '#' in a value that tmux expands as a format (-c
// start directories, -s session names): "/src/c#app" would otherwise lose
// its "#a".
func escapeFormat(s string) string {
	return strings.ReplaceAll(s, "#", "##")
}

// SessionTarget returns the exact tmux target for a session given its id
// ("$3" stays "$3") or its name ("api" becomes "=api"). A bare name would
// be a prefix match in tmux, so "foo" could hit "foo-bar". A value already
// starting with '=' is returned unchanged.
func SessionTarget(idOrName string) string {
	if isID(idOrName, '$') || strings.HasPrefix(idOrName, "=") {
		return idOrName
	}
	return "=" + idOrName
}

// isID reports whether s is prefix followed by one or more digits, the
// shape of tmux's session ($), window (@) and pane (%) ids. (state has its
// own ValidPaneID for ids from hooks: it may not import tmux.)
func isID(s string, prefix byte) bool {
	if len(s) < 2 || s[0] != prefix {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Version returns the tmux version as the binary reports it, without the
// leading "tmux " (for example "3.3a"). It needs no server.
func (c *Client) Version(ctx context.Context) (string, error) {
	// -V is a global flag, not a command: it goes where a command would.
	out, err := c.run(ctx, []string{"-V"})
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "tmux "), nil
}

// ServerName names a tmux server in lanes' messages, and the command
// that lists its sessions.
func ServerName(socket string) (name, ls string) {
	if socket == "" {
		return "tmux's default server", "tmux ls"
	}
	return "tmux server -L " + socket, "tmux -L " + socket + " ls"
}

// SocketFile is where tmux puts the socket of the server named name (tmux
// -L name): $TMUX_TMPDIR, else /tmp, then tmux-UID. It reads no server.
func SocketFile(name string) string {
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), name)
}

// SocketPath returns the server's socket path, the first field of $TMUX in
// its panes. It needs a running server (ErrNoServer otherwise).
func (c *Client) SocketPath(ctx context.Context) (string, error) {
	out, err := c.run(ctx, []string{"display-message", "-p", "#{socket_path}"})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// AttachCmd returns the command that hands the terminal to tmux attached to
// the session target (an id or a name, made exact). It carries the
// client's socket flags: a bare "tmux attach" would reach the wrong server.
// It has no context because it is interactive and ends when the user
// detaches. Inside another tmux server, tmux refuses to nest unless $TMUX
// is cleared; that choice is the caller's.
func (c *Client) AttachCmd(target string) *exec.Cmd {
	args := append(socketArgs(c.Socket), c.configArgs()...)
	args = append(args, "attach-session", "-t", escapeArg(SessionTarget(target)))
	return exec.Command("tmux", args...)
}

// SwitchArgs returns the argv (without "tmux" and socket flags) that moves
// the current tmux client to the session target, for use from inside the
// same server.
func SwitchArgs(target string) []string {
	return []string{"switch-client", "-t", SessionTarget(target)}
}

// SwitchClient moves the tmux client this process runs under (found by tmux
// from $TMUX) to the session target. Use it only when InsideSameServer.
func (c *Client) SwitchClient(ctx context.Context, target string) error {
	_, err := c.run(ctx, SwitchArgs(target))
	return err
}

// SwitchFrom moves the tmux client named by tmuxEnv ($TMUX of a caller
// running inside tmux) to target, when that client is on this Client's
// server; inside another server it returns ErrOtherServer, since reaching
// the session would mean nesting tmux with $TMUX cleared. Callers outside
// tmux use AttachCmd instead.
func (c *Client) SwitchFrom(ctx context.Context, tmuxEnv, target string) error {
	path, err := c.SocketPath(ctx)
	if err != nil {
		return err
	}
	if !InsideSameServer(tmuxEnv, path) {
		return ErrOtherServer
	}
	return c.SwitchClient(ctx, target)
}

// InsideSameServer reports whether tmuxEnv (the value of $TMUX,
// "socketpath,pid,index") names the server whose socket is socketPath, that
// is, whether switch-client can reach the session instead of a nested
// attach.
func InsideSameServer(tmuxEnv, socketPath string) bool {
	if tmuxEnv == "" || socketPath == "" {
		return false
	}
	// The path itself may contain commas; the last two fields never do.
	i := strings.LastIndexByte(tmuxEnv, ',')
	if i < 0 {
		return false
	}
	j := strings.LastIndexByte(tmuxEnv[:i], ',')
	if j <= 0 {
		return false
	}
	return filepath.Clean(tmuxEnv[:j]) == filepath.Clean(socketPath)
}
