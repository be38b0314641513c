// Package world gives the bench and drill programs a lanes installation of
// their own: a freshly built binary, a private tmux server, and a state dir
// and HOME in a temp dir, all removed by Close (also on Ctrl-C).
package world

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lanes/tmux"
)

// World is one private lanes installation.
type World struct {
	Root   string // temp dir holding everything
	Bin    string // the lanes binary
	Mini   string // a Go binary that only exits, for side-by-side ratios
	Socket string // the private tmux server (-L)
	State  string
	Home   string
	// Extra is KEY=VALUE settings added to Env (and so to every lanes and
	// tmux call of this world); a later KEY wins over an earlier one.
	Extra []string

	extraSockets []string
	cleanups     []func()
}

// New builds lanes (from the module at repo) and a minimal binary, and
// prepares a private tmux socket name. Close undoes everything.
func New(repo string) (*World, error) {
	root, err := os.MkdirTemp("", "lanes-world-")
	if err != nil {
		return nil, err
	}
	w := &World{Root: root, Bin: filepath.Join(root, "lanes"), Mini: filepath.Join(root, "mini"),
		Socket: "lanes-w-" + randHex(), State: filepath.Join(root, "state"), Home: filepath.Join(root, "home")}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		w.Close()
		os.Exit(130)
	}()
	if err := os.MkdirAll(w.Home, 0o700); err != nil {
		return w, err
	}
	build := exec.Command("go", "build", "-o", filepath.Dir(w.Bin)+string(filepath.Separator),
		"./cmd/lanes", "./cmd/lanes-board", "./scripts/internal/tmuxread", "./scripts/internal/btfloor")
	build.Dir, build.Stderr = repo, os.Stderr
	if err := build.Run(); err != nil {
		return w, fmt.Errorf("building lanes: %w", err)
	}
	mini := filepath.Join(root, "mini-src")
	_ = os.MkdirAll(mini, 0o700)
	_ = os.WriteFile(filepath.Join(mini, "go.mod"), []byte("module mini\n\ngo 1.26\n"), 0o600)
	_ = os.WriteFile(filepath.Join(mini, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o600)
	mb := exec.Command("go", "build", "-o", w.Mini, ".")
	mb.Dir, mb.Stderr = mini, os.Stderr
	mb.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if err := mb.Run(); err != nil {
		return w, fmt.Errorf("building the minimal binary: %w", err)
	}
	return w, nil
}

func randHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// OnClose registers f to run at Close.
func (w *World) OnClose(f func()) { w.cleanups = append(w.cleanups, f) }

// Close kills every tmux server the world started and removes its files.
func (w *World) Close() {
	for i := len(w.cleanups) - 1; i >= 0; i-- {
		w.cleanups[i]()
	}
	w.cleanups = nil
	for _, s := range append([]string{w.Socket}, w.extraSockets...) {
		_ = exec.Command("tmux", "-L", s, "kill-server").Run()
		_ = os.Remove(tmux.SocketFile(s))
	}
	w.killStrays()
	_ = os.RemoveAll(w.Root)
}

// killStrays kills what the world's panes started and left running once
// their server is gone (a Gemini CLI child whose parent a campaign's kill
// -9 took went on for half an hour): every process whose environment names
// the world's socket, which only its tmux servers pass on.
func (w *World) killStrays() {
	want := []byte("\x00LANES_TMUX_SOCKET=" + w.Socket + "\x00")
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range envs {
		env, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(append([]byte{0}, env...), want) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil && pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// Env is the environment every lanes call of this world gets.
func (w *World) Env() []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + w.Home, "LANES_STATE_DIR=" + w.State,
		"LANES_TMUX_SOCKET=" + w.Socket, "TERM=xterm-256color", "SHELL=/bin/sh",
	}, w.Extra...)
}

// Tmux runs tmux against a socket of this world (never the default server).
func (w *World) Tmux(socket string, args ...string) (string, error) {
	if socket != w.Socket && !slices.Contains(w.extraSockets, socket) {
		w.extraSockets = append(w.extraSockets, socket)
	}
	cmd := exec.Command("tmux", append([]string{"-L", socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = w.Env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// StartBoard runs `lanes` (the board) in a width×height pane of a second
// private server named view, with the world's environment and then extra
// KEY=VALUE settings (which win), each passed as its own argv word.
func (w *World) StartBoard(view string, width, height int, extra ...string) error {
	args := []string{"new-session", "-d", "-x", strconv.Itoa(width), "-y", strconv.Itoa(height), "env"}
	args = append(append(append(args, w.Env()...), extra...), w.Bin)
	out, err := w.Tmux(view, args...)
	if err != nil {
		return fmt.Errorf("starting the board: %v %s", err, out)
	}
	return nil
}

// Screen is what the pane of server view shows now.
func (w *World) Screen(view string) string {
	out, _ := w.Tmux(view, "capture-pane", "-p")
	return out
}

// StartServer starts the world's tmux server with a keep-alive session.
func (w *World) StartServer() error {
	_, err := w.Tmux(w.Socket, "new-session", "-d", "-s", "keep", "sleep", "86400")
	return err
}

// CutServer makes the world's tmux server unreachable while it lives: its
// socket file is taken away (as a cleaner of /tmp would), so lanes can
// neither reach it nor know it ended. Close ends the server by its pid.
func (w *World) CutServer() error {
	out, err := w.Tmux(w.Socket, "display-message", "-p", "#{pid}")
	if err != nil {
		return fmt.Errorf("the server's pid: %v %s", err, out)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return err
	}
	w.OnClose(func() { _ = syscall.Kill(pid, syscall.SIGTERM) })
	return os.Remove(tmux.SocketFile(w.Socket))
}

// Result is one finished lanes call.
type Result struct {
	Stdout, Stderr string
	Code           int
	Took           time.Duration
}

// Lanes runs the lanes binary with args (stdin from input, if any).
func (w *World) Lanes(input string, args ...string) Result {
	return w.run(w.Env(), input, args...)
}

// run runs the lanes binary with env and args (stdin from input).
func (w *World) run(env []string, input string, args ...string) Result {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.Bin, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String(), Took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.Code = ee.ExitCode()
	} else if err != nil {
		r.Code, r.Stderr = -1, err.Error()
	}
	return r
}

// Session is the part of `lanes ls --json` the programs read.
type Session struct {
	ID               string                        `json:"id"`
	Name             string                        `json:"name"`
	Activity         string                        `json:"activity"`
	Status           string                        `json:"status"`
	Zone             string                        `json:"zone"`
	Marks            []string                      `json:"marks"`
	IsTerminated     bool                          `json:"is_terminated"`
	TerminatedReason *string                       `json:"terminated_reason"`
	Since            string                        `json:"since"`
	Launch           string                        `json:"launch"`
	EventsApplied    int                           `json:"events_applied"`
	EventsDropped    map[string]int                `json:"events_dropped"`
	Exit             *json.RawMessage              `json:"exit"`
	Branch           string                        `json:"branch"`
	Worktree         *string                       `json:"worktree"`
	Ahead            *int                          `json:"ahead"`
	Changed          *int                          `json:"changed"`
	Adopted          bool                          `json:"adopted"`
	Question         *string                       `json:"question"`
	Tool             *struct{ Name, Input string } `json:"tool"`
	PaneID           string                        `json:"pane_id"`
	Background       struct{ Jobs, Agents int }    `json:"background"`
	Automatic        bool                          `json:"automatic"`
	Failure          *string                       `json:"failure"`
	Retry            *string                       `json:"retry"`
	Usage            *Usage                        `json:"usage"`
	Extra            map[string]string             `json:"-"`
}

// Usage is the part of a session's usage the programs read.
type Usage struct {
	Input         int64  `json:"input"`
	Output        int64  `json:"output"`
	CacheRead     int64  `json:"cache_read"`
	CacheWrite    int64  `json:"cache_write"`
	CostMicros    int64  `json:"cost_micros"`
	Context       int64  `json:"context"`
	ContextWindow *int64 `json:"context_window"`
	Limits        []struct {
		Name    string  `json:"name"`
		UsedPct float64 `json:"used_pct"`
	} `json:"limits"`
}

// Ls is `lanes ls --json --all`, keyed by name.
func (w *World) Ls() (map[string]Session, error) {
	r := w.Lanes("", "ls", "--json", "--all")
	if r.Code != 0 {
		return nil, fmt.Errorf("lanes ls: exit %d: %s", r.Code, r.Stderr)
	}
	var list []Session
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		return nil, err
	}
	out := map[string]Session{}
	for _, s := range list {
		out[s.Name] = s
	}
	return out, nil
}

// WaitFor polls cond every 50 ms until it holds or the deadline passes.
func WaitFor(deadline time.Duration, cond func() bool) bool {
	return Poll(deadline, 50*time.Millisecond, cond)
}

// Poll is WaitFor with its own polling interval.
func Poll(deadline, every time.Duration, cond func() bool) bool {
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		if cond() {
			return true
		}
		time.Sleep(every)
	}
	return cond()
}

// NewSleeper starts session name running `sleep 86400`: a live agent that
// stays quiet, the subject most drills need.
func (w *World) NewSleeper(name string) error {
	if r := w.Lanes("", "new", name, "--", "sleep", "86400"); r.Code != 0 {
		return fmt.Errorf("lanes new %s: exit %d: %s", name, r.Code, strings.TrimSpace(r.Stderr))
	}
	return nil
}
