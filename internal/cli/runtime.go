package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"lanes/internal/session"
	"lanes/state/store"
	"lanes/tmux"
)

// tmuxClient is the client for this invocation's server.
func (a *app) tmuxClient() *tmux.Client { return a.tmuxFor(a.socket) }

// tmuxFor is the client for a session's own server. A server that just
// let a call run out its whole timeout is taken as hung for hungFor: the
// calls that follow fail at once with tmux.ErrTimeout, so a command that
// makes several calls (a kill reads, kills and reads again) waits one
// timeout, not one per call.
func (a *app) tmuxFor(socket string) *tmux.Client {
	run := tmux.ExecRunner(socket, tmux.DefaultTimeout)
	if a.tmuxRunner != nil {
		run = a.tmuxRunner(socket)
	}
	c := tmux.New(socket)
	c.Run = func(ctx context.Context, args ...string) ([]byte, error) {
		if a.hung.still(socket, a.now()) {
			return nil, fmt.Errorf("tmux: %w (it did not answer a moment ago)", tmux.ErrTimeout)
		}
		out, err := run(ctx, args...)
		// Only tmux's own timeout says the server is hung: a caller's
		// shorter deadline (the status line's budget) says nothing of it.
		if errors.Is(err, tmux.ErrTimeout) && ctx.Err() == nil {
			a.hung.mark(socket, a.now())
		}
		return out, err
	}
	return c
}

// hungFor is how long a timed-out server is taken as hung. Short: the
// board lives on, and a server may only have been slow.
const hungFor = 5 * time.Second

// hungServers remembers the tmux servers that timed out, by socket.
type hungServers struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (h *hungServers) mark(socket string, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.until == nil {
		h.until = map[string]time.Time{}
	}
	h.until[socket] = now.Add(hungFor)
}

func (h *hungServers) still(socket string, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return now.Before(h.until[socket])
}

// collector wires a collector for this invocation's server and store.
func (a *app) collector() (*store.Collector, error) { return a.svc().Collector() }

// readerCollector is a collector for what shows the store (ls, ls
// --watch, the board): its cycles give up on a busy lock after about 1 s,
// as each has the last snapshot or its next cycle to fall back on.
func (a *app) readerCollector() (*store.Collector, error) {
	c, err := a.collector()
	if err == nil {
		c.Store.Attempts = store.ReaderAttempts
	}
	return c, err
}

// ingest is c's cycles without the tmux read (store.Collector.Ingest), as
// the board's Cycler for hook lines.
type ingest struct{ c *store.Collector }

func (i ingest) Cycle(ctx context.Context) (store.CycleResult, error) { return i.c.Ingest(ctx) }

// cycle runs one collector cycle, warning on stderr when tmux did not answer
// (the records are still printed: docs/design.md §10).
func (a *app) cycle(ctx context.Context) (store.CycleResult, error) {
	c, err := a.readerCollector()
	if err != nil {
		return store.CycleResult{}, err
	}
	res, err := c.Cycle(ctx)
	if err == nil && res.TmuxErr != nil && res.Watching {
		a.warn("tmux is not answering (%v); showing what the store holds", res.TmuxErr)
	}
	return res, err
}

// quietCycle is a cycle for a command that acts rather than prints what
// the store holds: what tmux's silence means for it, it says itself.
func (a *app) quietCycle(ctx context.Context) (store.CycleResult, error) { return a.svc().Cycle(ctx) }

// svc is the session service of this invocation, as its fields are now
// (main sets the socket, tests the clock and tmux's runner, after newApp).
func (a *app) svc() *session.Service {
	return &session.Service{
		Store: a.store, Tmux: a.tmuxFor, Socket: a.socket, Now: a.now, Getenv: a.getenv,
		Warn: a.warn, HookBinary: hookBinary, ReadyWait: a.readyWait,
		BranchPrefix: a.setting("worktree.branch_prefix"), WorktreeFrom: a.setting("worktree.from"),
	}
}

// warn says on stderr what went wrong without stopping the command.
func (a *app) warn(format string, args ...any) {
	a.stderr.Write([]byte("lanes: warning: " + fmt.Sprintf(format, args...) + "\n"))
}
