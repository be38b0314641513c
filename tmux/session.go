package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"
)

// Default size of a detached session's window. Agents lay out their UI
// for the size they start with; 200x50 is roomy enough not to wrap and
// small enough for tmux to shrink to a real client without garbling.
const (
	DefaultWidth  = 200
	DefaultHeight = 50
)

// NewSessionOpts describes a session to create.
type NewSessionOpts struct {
	// Name is the exact tmux session name. Names tmux would rewrite ('.'
	// and ':' become '_', '#' starts a format) or that a target would
	// misread (a leading '$' or '=') are refused with ErrInvalid.
	Name string
	// Dir is the pane's working directory; it must exist, because tmux
	// silently starts elsewhere when it does not. "" is tmux's default.
	Dir string
	// Env is "KEY=VALUE" entries added to the pane's environment (-e).
	Env []string
	// Command is the pane's program and its arguments, handed to tmux as
	// separate words so no shell parses them (see commandArgs). Empty runs
	// the user's default shell.
	Command []string
	// LanesID is stored as the session's @lanes_id user option, which
	// marks the session for ListPanes. Empty sets no option.
	LanesID string
	// Width and Height size the detached window; 0 means the default.
	Width, Height int
}

// SessionInfo identifies a session just created.
type SessionInfo struct {
	SessionID string // "$3"
	PaneID    string // "%7"
	PanePID   int
}

// NewSession creates a detached session in ONE tmux invocation that also
// sets remain-on-exit on its pane (only that pane, so an exit leaves the
// pane for inspection) and @lanes_id on the session (only that session).
// Because the three commands run back to back in the server, the pane can
// never exit before remain-on-exit is on.
//
// The option commands name the new session explicitly (=NAME:) although
// tmux 3.3 would also default to it: when the caller runs inside tmux,
// $TMUX_PANE makes tmux resolve an untargeted set-option to the CALLER's
// pane and session instead (verified on 3.3a).
func (c *Client) NewSession(ctx context.Context, o NewSessionOpts) (SessionInfo, error) {
	if err := checkName(o.Name); err != nil {
		return SessionInfo{}, err
	}
	w, h := o.Width, o.Height
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	args := []string{"new-session", "-d", "-s", o.Name}
	spawn, err := spawnArgs(o.Dir, o.Env, o.Command)
	if err != nil {
		return SessionInfo{}, err
	}
	args = append(args, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h),
		"-P", "-F", "#{session_id}"+fieldSep+"#{pane_id}"+fieldSep+"#{pane_pid}")
	args = append(args, spawn...)

	target := "=" + o.Name + ":" // option commands take a pane-shaped target
	cmds := [][]string{args, {"set-option", "-p", "-t", target, "remain-on-exit", "on"}}
	if o.LanesID != "" {
		// "--" so an id starting with '-' is a value, not flags.
		cmds = append(cmds, []string{"set-option", "-t", target, "--", "@lanes_id", o.LanesID})
	}
	out, err := c.run(ctx, cmds...)
	info, perr := parseSessionInfo(out)
	if err != nil {
		if perr == nil {
			// The session exists but its options failed: without them it
			// is not ours and would vanish on exit. Remove it, best effort,
			// even if ctx is what failed.
			_ = c.KillSession(context.WithoutCancel(ctx), info.SessionID)
		}
		return SessionInfo{}, err
	}
	if perr != nil {
		return SessionInfo{}, fmt.Errorf("tmux new-session: %w", perr)
	}
	return info, nil
}

func parseSessionInfo(out []byte) (SessionInfo, error) {
	f := strings.Split(strings.TrimSpace(string(out)), fieldSep)
	if len(f) != 3 || !isID(f[0], '$') || !isID(f[1], '%') {
		return SessionInfo{}, fmt.Errorf("unexpected output %q", out)
	}
	pid, err := strconv.Atoi(f[2])
	if err != nil {
		return SessionInfo{}, fmt.Errorf("unexpected pane pid %q", f[2])
	}
	return SessionInfo{SessionID: f[0], PaneID: f[1], PanePID: pid}, nil
}

// spawnArgs builds the -c, -e and command words shared by new-session and
// respawn-pane.
func spawnArgs(dir string, env, command []string) ([]string, error) {
	var args []string
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%w: directory %q does not exist", ErrInvalid, dir)
		}
		// tmux expands -c as a format, so a literal '#' must be doubled.
		args = append(args, "-c", escapeFormat(dir))
	}
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("%w: environment entry %q is not KEY=VALUE", ErrInvalid, kv)
		}
		args = append(args, "-e", kv)
	}
	return append(args, commandArgs(command)...), nil
}

// commandArgs returns the words that end a new-session or respawn-pane
// argv. tmux execs a command of two or more words directly, but hands a
// single word to "default-shell -c", where spaces, quotes or '$' in it
// would be interpreted. A single word is therefore run through
// /usr/bin/env, which execs it without a shell and keeps the pane's
// process the command itself (so its exit status and signal are tmux's
// pane_dead_*). "--" stops tmux reading a command word that starts with
// '-' as a flag; tmux 3.3 accepts it.
func commandArgs(command []string) []string {
	switch len(command) {
	case 0:
		return nil
	case 1:
		return []string{"--", "/usr/bin/env", "--", command[0]}
	}
	return append([]string{"--"}, command...)
}

// checkName refuses session names tmux would not keep verbatim or that
// SessionTarget would read as something else.
func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty session name", ErrInvalid)
	case strings.ContainsAny(name, ".:#"),
		strings.HasPrefix(name, "$"), strings.HasPrefix(name, "="),
		strings.ContainsFunc(name, unicode.IsControl):
		return fmt.Errorf("%w: session name %q would be changed or misread by tmux", ErrInvalid, name)
	}
	return nil
}

// checkPane refuses pane targets other than a pane id: a name or "=name"
// would resolve to whatever pane is active, or fail.
func checkPane(paneID string) error {
	if !isID(paneID, '%') {
		return fmt.Errorf("%w: pane target %q is not a pane id (%%N)", ErrInvalid, paneID)
	}
	return nil
}

// KillSession kills the session target (an id or a name, made exact). A
// session that does not exist is ErrNoSession.
func (c *Client) KillSession(ctx context.Context, target string) error {
	_, err := c.run(ctx, []string{"kill-session", "-t", SessionTarget(target)})
	return err
}

// KillSessionOfDeadPane kills the session of pane paneID (%N) only if
// tmux, as it runs the command, finds that pane dead: one respawned since
// the caller read it (a restart) is left running. Read the pane again to
// learn which happened.
func (c *Client) KillSessionOfDeadPane(ctx context.Context, paneID string) error {
	if err := checkPane(paneID); err != nil {
		return err
	}
	_, err := c.run(ctx, []string{"if-shell", "-F", "-t", paneID, "#{pane_dead}", "kill-session -t " + paneID})
	return err
}

// HasSession reports whether a session with exactly this name (or id)
// exists. A server that is not running is reported as ErrNoServer rather
// than false, since unreachable is not absent; callers that know better
// (nothing can clash with a server that is not running) check errors.Is.
func (c *Client) HasSession(ctx context.Context, name string) (bool, error) {
	_, err := c.run(ctx, []string{"has-session", "-t", SessionTarget(name)})
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNoSession):
		return false, nil
	}
	return false, err
}

// RespawnPane restarts the pane paneID with command in dir and env,
// killing whatever runs there now (-k). The pane keeps its id and its
// options, remain-on-exit included. Arguments follow NewSessionOpts.
func (c *Client) RespawnPane(ctx context.Context, paneID, dir string, env, command []string) error {
	if err := checkPane(paneID); err != nil {
		return err
	}
	spawn, err := spawnArgs(dir, env, command)
	if err != nil {
		return err
	}
	args := append([]string{"respawn-pane", "-k", "-t", paneID}, spawn...)
	_, err = c.run(ctx, args)
	return err
}

// CapturePane returns the text of paneID with its colours (-e): the visible
// screen plus up to lines lines of history above it (none when lines <= 0).
func (c *Client) CapturePane(ctx context.Context, paneID string, lines int) ([]byte, error) {
	return c.capture(ctx, paneID, "-e", lines)
}

// CaptureText returns the text pane paneID shows now: its visible screen,
// wrapped lines joined (-J), no escape sequences, so words can be matched.
func (c *Client) CaptureText(ctx context.Context, paneID string) ([]byte, error) {
	return c.capture(ctx, paneID, "-J", 0)
}

// CaptureStyled is CaptureText with each cell's style as SGR sequences
// (-e): where only a colour says which option a dialog's Enter takes.
func (c *Client) CaptureStyled(ctx context.Context, paneID string) ([]byte, error) {
	return c.capture(ctx, paneID, "-eJ", 0)
}

func (c *Client) capture(ctx context.Context, paneID, mode string, lines int) ([]byte, error) {
	if err := checkPane(paneID); err != nil {
		return nil, err
	}
	args := []string{"capture-pane", "-p", mode, "-t", paneID}
	if lines > 0 {
		args = append(args, "-S", "-"+strconv.Itoa(lines))
	}
	return c.run(ctx, args)
}

// NewWindowArgv is the argv of the tmux command a process inside a tmux
// client runs (its TMUX names the server) to open a window named name
// running argv. tmux expands a window name as a format, where "#(…)" runs
// a shell command: a session name another host listed, "x#(id)", ran id
// here (a hostile re-run of `lanes next --attach`), so its '#' is doubled.
// The command's own words are not expanded.
func NewWindowArgv(name string, argv []string) []string {
	return append([]string{"tmux", "new-window", "-n", escapeFormat(name), "--"}, argv...)
}
