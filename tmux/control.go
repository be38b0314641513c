package tmux

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// Control is one tmux client in control mode (tmux -C) that stays attached
// for as long as a board runs, so a read costs the server one command
// instead of a client process started, set up and torn down each time.
//
// It attaches with flags that keep it out of the way: ignore-size (windows
// are never sized for it), no-output (the server sends it no pane output)
// and -E (the session's environment is not updated from the board's). It
// is still a client: tmux list-clients shows it, the session it is on
// reads as attached, gets its focus (a focus-in, with focus-events on) and
// its activity time, and untargeted commands run from outside tmux find
// it. PaneReader therefore attaches it to a session of its own, never to
// an agent's. Only commands whose output lanes formats itself go through
// it; a pane's own text (a capture) never does, since a line in it could
// mimic the end of a reply.
type Control struct {
	sessionID string // "$N" as tmux first named it: read's goroutine only
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	stderr    bytes.Buffer // written by exec's copier until Wait returns
	replies   chan reply
	done      chan struct{} // closed once the client has exited and been waited for
	closing   chan struct{} // closed by Close: no reply is waited for after it
	close     sync.Once
	mu        sync.Mutex // one command line in flight
}

// reply is one %begin … %end (or %error) block of a control client's
// output.
type reply struct {
	out    []byte
	failed bool
	ours   bool // a command this client sent, not a hook the server ran for it
}

// ErrControlGone says the control client is no longer attached (the server
// exited, the session it was on ended, or it was closed): read another way.
var ErrControlGone = errors.New("tmux control client gone")

// controlFlags are attach-session -f flags: never size a window for this
// client, and send it no pane output.
const controlFlags = "ignore-size,no-output"

// StartControl attaches a control-mode client to session (an id or a
// name, made exact). ctx bounds the start alone; the client lives until
// Close, or until the server or the session ends.
func (c *Client) StartControl(ctx context.Context, session string) (*Control, error) {
	session = SessionTarget(session)
	args := append(append([]string{"-u"}, socketArgs(c.Socket)...), c.configArgs()...)
	args = append(args, "-C", "attach-session", "-E", "-f", controlFlags, "-t", session)
	k := &Control{replies: make(chan reply, 4), done: make(chan struct{}), closing: make(chan struct{})}
	k.cmd = exec.Command("tmux", args...)
	// A board inside tmux must not look like a nested attach, and the
	// client has no terminal of its own.
	k.cmd.Env = Outside()
	k.cmd.Stderr = &k.stderr
	stdin, err := k.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := k.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := k.cmd.Start(); err != nil {
		return nil, fmt.Errorf("tmux attach-session: %w", err)
	}
	k.stdin = stdin
	go k.read(stdout)
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	// The first block answers the attach itself.
	select {
	case r := <-k.replies:
		if !r.failed {
			return k, nil
		}
		k.Close()
		msg := strings.TrimSpace(string(r.out))
		return nil, wrapErr("attach-session", classify(msg, errors.New("refused")), msg)
	case <-k.done:
		k.Close()
		msg := strings.TrimSpace(k.stderr.String())
		return nil, wrapErr("attach-session", classify(msg, ErrControlGone), msg)
	case <-ctx.Done():
		k.Close()
		return nil, wrapErr("attach-session", classify("", ctx.Err()), "")
	}
}

// Done is closed when the client has stopped answering for good.
func (k *Control) Done() <-chan struct{} { return k.done }

// Close detaches the client: it ends when its input does, and is killed if
// it has not a second later. It does not wait.
func (k *Control) Close() {
	k.close.Do(func() {
		close(k.closing)
		_ = k.stdin.Close()
		go func() {
			select {
			case <-k.done:
			case <-time.After(time.Second):
				_ = k.cmd.Process.Kill()
			}
		}()
	})
}

// Run sends cmds as one command line, run back to back in the server as
// with Client.run, and returns their output joined. Any failure closes the
// client (a reply half read would answer the next command): the caller
// reads another way, and starts a new client when it wants one.
func (k *Control) Run(ctx context.Context, cmds ...[]string) ([]byte, error) {
	name := commandName(joinCmds(cmds, func(w string) string { return w }))
	line, err := controlLine(cmds)
	if err != nil {
		return nil, fmt.Errorf("tmux %s: %w", name, err)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	select {
	case <-k.closing:
		return nil, fmt.Errorf("tmux %s: %w", name, ErrControlGone)
	default:
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	if _, err := io.WriteString(k.stdin, line); err != nil {
		k.Close()
		return nil, fmt.Errorf("tmux %s: %w: %v", name, ErrControlGone, err)
	}
	var out []byte
	for got := 0; got < len(cmds); {
		select {
		case r := <-k.replies:
			if !r.ours {
				continue // a hook of the user's, run on this client's behalf
			}
			got++
			if r.failed {
				k.Close()
				msg := strings.TrimSpace(string(r.out))
				return nil, wrapErr(name, classify(msg, errors.New("failed")), msg)
			}
			out = append(out, r.out...)
		case <-k.closing:
			return nil, fmt.Errorf("tmux %s: %w", name, ErrControlGone)
		case <-k.done:
			k.Close()
			return nil, fmt.Errorf("tmux %s: %w", name, ErrControlGone)
		case <-ctx.Done():
			k.Close()
			return nil, wrapErr(name, classify("", ctx.Err()), "")
		}
	}
	return out, nil
}

// read turns the client's output into replies until it ends, then waits
// for the client. Lines outside a block are notifications: the one that
// matters says the client was moved to another session (the one it was on
// ended and the user's detach-on-destroy is off), which closes this client
// rather than let it sit on a session that is not lanes'. Output after
// Close is read and dropped, so the client is never stuck writing it.
func (k *Control) read(r io.Reader) {
	defer close(k.done)
	defer func() { _ = k.cmd.Wait() }()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	var (
		in   bool
		num  string
		ours bool
		buf  []byte
	)
	for sc.Scan() {
		line := sc.Bytes()
		if !in {
			f := strings.Fields(string(line))
			switch {
			case len(f) == 4 && f[0] == "%begin":
				in, num, ours, buf = true, f[2], f[3] == "1", nil
			case len(f) >= 2 && f[0] == "%session-changed":
				// The first names the session it attached to; any later
				// one, a move.
				if k.sessionID == "" {
					k.sessionID = f[1]
				} else if f[1] != k.sessionID {
					k.Close()
				}
			}
			continue
		}
		if end, failed := blockEnd(line, num); end {
			select {
			case k.replies <- reply{out: buf, failed: failed, ours: ours}:
			case <-k.closing:
			}
			in = false
			continue
		}
		buf = append(append(buf, line...), '\n')
	}
	// A line longer than the scanner takes ends the client: drain the
	// rest so it can exit.
	if sc.Err() != nil {
		k.Close()
		_, _ = io.Copy(io.Discard, r)
	}
}

// blockEnd reports whether line closes the block numbered num, and whether
// as a failure.
func blockEnd(line []byte, num string) (end, failed bool) {
	if !bytes.HasPrefix(line, []byte("%end ")) && !bytes.HasPrefix(line, []byte("%error ")) {
		return false, false
	}
	f := strings.Fields(string(line))
	if len(f) != 4 || f[2] != num {
		return false, false
	}
	return true, f[0] == "%error"
}

// controlLine writes cmds as one line of tmux's command language: every
// word single-quoted, so nothing in it is a separator, a variable or a
// comment. A word tmux could not take quoted this way is refused.
func controlLine(cmds [][]string) (string, error) {
	var b strings.Builder
	for i, cmd := range cmds {
		if i > 0 {
			b.WriteString(" ; ")
		}
		for j, a := range cmd {
			if strings.ContainsAny(a, "'\n\r") {
				return "", fmt.Errorf("%w: %q cannot be sent to a control client", ErrInvalid, a)
			}
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("'" + a + "'")
		}
	}
	b.WriteByte('\n')
	return b.String(), nil
}

// joinCmds is cmds as one argv, ";" between commands, each word through
// word.
func joinCmds(cmds [][]string, word func(string) string) []string {
	var argv []string
	for i, cmd := range cmds {
		if i > 0 {
			argv = append(argv, ";")
		}
		for _, a := range cmd {
			argv = append(argv, word(a))
		}
	}
	return argv
}

// PaneReader makes ListPanes reads over a Control client while one is
// attached, and by starting a tmux client otherwise. After a read that
// found a live session lanes made, it makes ReaderSession (if it is not
// there yet) and attaches a control client to it for the reads that
// follow; Close detaches it and ends ReaderSession when no other board's
// client is on it. Whatever carries it, a read is one command line, run by
// the server at once: one consistent view of every pane.
//
// It attaches only to a server whose version ControlCrash clears, asked
// once: on an older one a control client that connects while a session
// opens or closes crashes the server, and every session with it. There
// every read starts a tmux client, as without a reader.
type PaneReader struct {
	Client *Client
	// AnyVersion attaches whatever the server's version: for tests and
	// benchmarks on a private server where no session opens or closes
	// while the client connects.
	AnyVersion bool
	mu         sync.Mutex
	ctl        *Control
	next       time.Time // no control client is started before
	never      bool      // the server's version crashes with control clients
}

// ReaderSession is the session a board's control client attaches to: one
// pane that only sleeps, marked with readerMark as its @lanes_id, which no
// record has and every read leaves out. What attaching does (focus, the
// newest client, an attached and active session) falls on it, never on an
// agent's pane. Its name cannot be a lanes session's (lanes-NAME).
const ReaderSession = "_lanes_reader"

// readerMark is ReaderSession's @lanes_id.
const readerMark = "~reader"

// controlRetry spaces attempts to attach a control client, so a session
// that keeps ending under it costs a start every few seconds at most.
const controlRetry = 5 * time.Second

// ListPanes reads every pane (see Client.ListPanes).
func (r *PaneReader) ListPanes(ctx context.Context, reap bool) ([]Pane, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctl != nil {
		read := func() ([]Pane, error) {
			out, err := r.ctl.Run(ctx, listPanesCmds()...)
			if err != nil {
				return nil, err
			}
			return parseListPanes(out)
		}
		var panes []Pane
		var err error
		if reap {
			panes, err = withReap(ctx, read)
		} else {
			panes, err = read()
		}
		if err == nil {
			return panes, nil
		}
		r.ctl.Close()
		r.ctl = nil
		if !errors.Is(err, ErrControlGone) {
			return nil, err // a timeout says the server is slow: another client would wait too
		}
	}
	panes, err := r.Client.ListPanes(ctx, reap)
	if err != nil || r.never || time.Now().Before(r.next) || !slices.ContainsFunc(panes, func(p Pane) bool { return p.LanesID != "" }) {
		return panes, err
	}
	// Failing to attach costs nothing but the next reads' clients.
	r.next = time.Now().Add(controlRetry)
	if !r.AnyVersion {
		v, err := r.Client.ServerVersion(ctx)
		if err != nil {
			return panes, nil
		}
		if r.never = ControlCrash(v) != ""; r.never {
			return panes, nil
		}
	}
	_, err = r.Client.NewSession(ctx, NewSessionOpts{Name: ReaderSession, Command: []string{"sleep", "2147483647"},
		LanesID: readerMark, Width: 20, Height: 2})
	if err == nil || errors.Is(err, ErrDuplicate) {
		r.ctl, _ = r.Client.StartControl(ctx, ReaderSession)
	}
	return panes, nil
}

// Close detaches the control client, if one is attached, and ends
// ReaderSession once no client is left on it (another board's may be).
func (r *PaneReader) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctl == nil {
		return
	}
	// Asked of the server through the client itself, while it is still
	// attached: the session goes if this client is the only one on it.
	// (Asked after the client left, the server may not have counted it out
	// yet.)
	target := SessionTarget(ReaderSession)
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	_, _ = r.ctl.Run(ctx, []string{"if-shell", "-F", "-t", target, "#{==:#{session_attached},1}", "kill-session -t " + target})
	r.ctl.Close()
	r.ctl = nil
}
