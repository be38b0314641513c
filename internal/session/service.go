package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// Service runs the session operations for one invocation of lanes (a
// command, or the board for as long as it runs). Its fields are its
// whole configuration; the zero value of each optional one is a
// sensible default. It holds no state of its own, so the board runs its
// methods at once from several goroutines.
type Service struct {
	// Store opens the store handle (store.New: it holds no file
	// until used); its Dir is the state dir.
	Store func() (*store.Store, error)
	// Tmux is the client for a session's own server, by socket. The
	// caller's factory carries what outlives one call: the memory of a
	// server that just hung, a test's tmux.Runner.
	Tmux func(socket string) *tmux.Client
	// Socket is the server new sessions start on ("" is tmux's default).
	Socket string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Getenv reads the invocation's environment: HOME, PATH, git's and
	// gh's configuration, LANES_CONTENT, LANES_WORKTREE_ROOT.
	Getenv func(string) string
	// Warn says what went wrong without stopping the operation (a hook
	// note, a worktree left behind); nil says nothing.
	Warn func(format string, args ...any)
	// HookBinary is the absolute path of the lanes binary the agents'
	// hooks run, given the state dir. Nil: there is none, so only agents
	// without hooks (a shell, a custom command) start.
	HookBinary func(stateDir string) (string, error)
	// ReadyWait is how long Send waits for a just-started agent's
	// prompt (DefaultReadyWait when zero).
	ReadyWait time.Duration
	// BranchPrefix starts a new worktree's branch ("": DefaultBranchPrefix);
	// WorktreeFrom is the ref it starts from when the caller names none
	// ("": the repository's current branch). The config file's worktree
	// settings.
	BranchPrefix, WorktreeFrom string
}

// DefaultBranchPrefix starts a new worktree's branch: lanes/NAME.
const DefaultBranchPrefix = "lanes/"

// DefaultReadyWait is how long Send waits for a new agent's prompt.
const DefaultReadyWait = 20 * time.Second

// ErrTmuxDown: the tmux server holding live sessions did not answer, so
// whether their agents still run is not known (killing or removing one
// then needs a confirm).
var ErrTmuxDown = errors.New("tmux is not answering")

// errAdopted: lanes does not kill or restart a session it did not start.
var errAdopted = errors.New("an adopted session")

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *Service) getenv(k string) string {
	if s.Getenv == nil {
		return ""
	}
	return s.Getenv(k)
}

func (s *Service) warn(format string, args ...any) {
	if s.Warn != nil {
		s.Warn(format, args...)
	}
}

func (s *Service) readyWait() time.Duration {
	if s.ReadyWait == 0 {
		return DefaultReadyWait
	}
	return s.ReadyWait
}

// stateDir is the store's directory.
func (s *Service) stateDir() (string, error) {
	st, err := s.Store()
	if err != nil {
		return "", err
	}
	return st.Dir, nil
}

// Collector is a collector for the service's server and store.
func (s *Service) Collector() (*store.Collector, error) {
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	return &store.Collector{Store: st, Panes: Panes{Client: s.Tmux(s.Socket)}, Socket: s.Socket, Now: s.now}, nil
}

// Cycle runs one collector cycle, so what an operation acts on is
// current. It says nothing of tmux's silence (res.TmuxErr): what that
// means, each caller says itself.
func (s *Service) Cycle(ctx context.Context) (store.CycleResult, error) {
	c, err := s.Collector()
	if err != nil {
		return store.CycleResult{}, err
	}
	return c.Cycle(ctx)
}

// Update loads, changes and stores one record in one transaction.
func (s *Service) Update(id string, fn func(*state.Record, *store.Tx) error) error {
	st, err := s.Store()
	if err != nil {
		return err
	}
	return st.Update(func(tx *store.Tx) error {
		cur, err := tx.Get(id)
		if err != nil {
			return err
		}
		if err := fn(cur, tx); err != nil {
			return err
		}
		return tx.Put(cur)
	})
}

func appendHistory(tx *store.Tx, id string, tr *state.Transition) error {
	if tr == nil {
		return nil
	}
	return tx.AppendHistory(id, *tr)
}

// records is every stored record, as they are now.
func (s *Service) records() (all []*state.Record, err error) {
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	err = st.View(func(tx *store.Tx) error {
		all, err = tx.All()
		return err
	})
	return all, err
}

// Mute stores whether the user wants to be told when the session enters
// Needs you (on: not). r becomes the record as stored.
func (s *Service) Mute(_ context.Context, r *state.Record, on bool) error {
	err := s.Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
		cur.Muted = on
		*r = *cur
		return nil
	})
	if err != nil {
		return fmt.Errorf("storing the mute of %s: %w", r.Name, err)
	}
	return nil
}

// Seen records that the human looked at r now (state.Seen); it writes
// only when r holds an outcome they may not have seen.
func (s *Service) Seen(_ context.Context, r *state.Record) error {
	if !state.NeedsSeen(r) {
		return nil
	}
	err := s.Update(r.ID, func(cur *state.Record, _ *store.Tx) error {
		state.Seen(cur, s.now())
		return nil
	})
	if err != nil {
		return fmt.Errorf("storing that %s was seen: %w", r.Name, err)
	}
	return nil
}

// History is up to n of the session's latest transitions, oldest first.
func (s *Service) History(_ context.Context, id string, n int) ([]state.Transition, error) {
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	var h []state.Transition
	err = st.View(func(tx *store.Tx) error {
		h, err = tx.History(id, n)
		return err
	})
	return h, err
}

// Panes feeds tmux reads to the collector: state defines what it needs
// and knows nothing of tmux, so the two meet here.
type Panes struct {
	Client *tmux.Client
	// Reader, when set (the board), makes the reads over a control-mode
	// client instead of starting tmux each time.
	Reader *tmux.PaneReader
}

// ListPanes is store.PaneSource's read of every pane.
func (p Panes) ListPanes(ctx context.Context, reap bool) ([]state.Observation, error) {
	read := p.Client.ListPanes
	if p.Reader != nil {
		read = p.Reader.ListPanes
	}
	panes, err := read(ctx, reap)
	if err != nil {
		return nil, err
	}
	obs := make([]state.Observation, len(panes))
	for i, pn := range panes {
		obs[i] = state.Observation{
			LanesID: pn.LanesID, SessionID: pn.SessionID, PaneID: pn.PaneID, PID: pn.PID, Dead: pn.Dead, DeadStatus: pn.DeadStatus,
			DeadSignal: pn.DeadSignal, DeadTime: pn.DeadTime, WindowActivity: pn.WindowActivity, ServerPID: pn.ServerPID,
		}
	}
	return obs, nil
}

// KillSession is store.PaneSource's kill.
func (p Panes) KillSession(ctx context.Context, sessionID string) error {
	return p.Client.KillSession(ctx, sessionID)
}

// CapturePane is store.PaneSource's capture of a pane's text.
func (p Panes) CapturePane(ctx context.Context, paneID string) (string, error) {
	b, err := p.Client.CaptureText(ctx, paneID)
	return string(b), err
}

// IsDown reports whether err says the server did not answer (as opposed
// to answering that the session is not there).
func IsDown(err error) bool {
	return errors.Is(err, tmux.ErrNoServer) || errors.Is(err, tmux.ErrTimeout)
}

// uncertain reports whether a tmux call that failed with err may still have
// been carried out: it timed out, or the caller gave up on it.
func uncertain(ctx context.Context, err error) bool {
	return errors.Is(err, tmux.ErrTimeout) || err != nil && ctx.Err() != nil
}

func tmuxSocketArgs(socket string) []string {
	if socket == "" {
		return nil
	}
	return []string{"-L", socket}
}

// NotStarted refuses to act on the pane of a session tmux has not shown
// yet (an interrupted `lanes new`): there is none to act on.
func NotStarted(r *state.Record) error {
	if !r.Starting() {
		return nil
	}
	return &state.SessionError{Name: r.Name, Reason: fmt.Errorf("%w; try again in a moment, or `lanes kill %s`", state.ErrStarting, r.Name)}
}
