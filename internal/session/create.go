package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanes/internal/fsafe"
	"lanes/state"
	"lanes/state/git"
	"lanes/state/store"
	"lanes/tmux"
)

// Create is `lanes new` from the board: it starts a session named name
// in dir (a leading ~ is $HOME), with args for the agent (or as the
// command itself, for a custom one); with worktree, `lanes new
// --worktree` (branch lanes/NAME from the repository's current branch).
func (s *Service) Create(ctx context.Context, name string, agent state.Agent, dir string, args []string, worktree bool) (*state.Record, error) {
	if err := state.CheckName(name); err != nil {
		return nil, err
	}
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/') {
		dir = filepath.Join(s.getenv("HOME"), rest)
	}
	dir, err := WorkDir("directory", dir)
	if err != nil {
		return nil, err
	}
	var wt *WorktreePlan
	if worktree {
		if wt, err = s.PlanWorktree(ctx, name, dir, "", ""); err != nil {
			return nil, err
		}
	}
	return s.Start(ctx, name, agent, dir, args, Profile{}, wt)
}

// Profile is what a session takes from the config file's profile it was
// started with: its name (its usage budget's, §18) and its variables.
type Profile struct {
	Name string
	Env  []string
}

// WorkDir is dir (given as what, "--dir" say) made absolute, or the
// current directory when dir is empty; it must be a directory.
func WorkDir(what, dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s %s is not a directory", what, dir)
	}
	return abs, nil
}

// Start starts a session (`lanes new`) on the service's server: the
// record first (so the agent's first hooks find it), then one tmux
// invocation; any failure removes both. args go to the agent, or are the
// command itself for a custom one. With wt, the worktree is made first
// and the session starts in it; a failure removes it too.
func (s *Service) Start(ctx context.Context, name string, agent state.Agent, dir string, args []string, p Profile, wt *WorktreePlan) (*state.Record, error) {
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	r, plan, err := s.newRecord(ctx, st, name, agent, dir, args, p, wt)
	if err != nil {
		return nil, err
	}
	if err := claim(st, r); err != nil {
		plan.cleanup()
		return nil, err
	}
	undo := func() {
		// Should this fail too (store busy), the collector removes the
		// record once StartWindow has passed without its session.
		_ = st.Update(func(tx *store.Tx) error { return tx.Delete(r.ID) })
		plan.cleanup()
	}
	if wt != nil {
		// After the record (a kill -9 from here on leaves a starting
		// record that names the worktree, not a worktree nobody owns).
		if err := s.addWorktree(ctx, st, r, wt, &plan); err != nil {
			undo()
			return nil, err
		}
	}
	tc := s.Tmux(s.Socket)
	started := s.now().UTC()
	info, err := tc.NewSession(ctx, tmux.NewSessionOpts{
		Name: r.Runtime.TmuxSession, Dir: r.Dir, Env: plan.env, Command: plan.argv, LanesID: r.ID,
	})
	if err != nil {
		return nil, s.notStarted(ctx, tc, r, err, undo)
	}
	return s.started(ctx, st, tc, r, info, started)
}

// worktreeAddTimeout bounds a `git worktree add` that an interrupt does
// not stop: its checkout of a very large repository.
const worktreeAddTimeout = 5 * time.Minute

// addWorktree makes wt for r, whose record is stored: git runs to its end
// even when the user interrupts (a git killed mid-checkout leaves a worktree
// locked "initializing" and its branch), and an interrupt then undoes it.
// r starts where the worktree has the directory the user named.
func (s *Service) addWorktree(ctx context.Context, st *store.Store, r *state.Record, wt *WorktreePlan, plan *spawn) error {
	addCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), worktreeAddTimeout)
	err := wt.add(addCtx, s)
	cancel()
	if err != nil {
		return err
	}
	prev := plan.cleanup
	plan.cleanup = func() { prev(); wt.undo(ctx, s) }
	if ctx.Err() != nil {
		return fmt.Errorf("making the worktree of %s: %w; nothing of it is left (run lanes new %s again)", r.Name, ctx.Err(), r.Name)
	}
	r.Dir = wt.startDir()
	r.Branch = git.Branch(r.Dir)
	return st.Update(func(tx *store.Tx) error {
		cur, err := tx.Get(r.ID)
		if err != nil {
			return err
		}
		cur.Dir, cur.Branch = r.Dir, r.Branch
		return tx.Put(cur)
	})
}

// newRecord is the record of a session about to start, and how to start
// it; with wt, in the worktree Start makes once the record is stored.
func (s *Service) newRecord(ctx context.Context, st *store.Store, name string, agent state.Agent, dir string, args []string, p Profile, wt *WorktreePlan) (*state.Record, spawn, error) {
	id, err := freshID(st, name)
	if err != nil {
		return nil, spawn{}, err
	}
	if wt != nil {
		dir = wt.path
	}
	r := &state.Record{
		ID: id, Name: name, Agent: agent, Dir: dir, Env: p.Env, Profile: p.Name,
		CreatedAt: s.now().UTC(),
		Runtime: state.Runtime{Socket: s.Socket, TmuxSession: state.TmuxSessionName(name), Launch: state.NewID(),
			Source: "user", At: s.now().UTC()},
	}
	plan, err := s.spawnPlan(r, args)
	if err != nil {
		return nil, spawn{}, err
	}
	r.Command = plan.command
	if wt != nil {
		r.Git = wt.facts()
	}
	r.Branch = git.Branch(r.Dir)
	r.Activity = state.ActivityFacts{State: state.ActivityIdle, Since: r.CreatedAt, Source: "user", HooksReport: plan.hooks}
	r.Runtime.StartingAt = s.now().UTC()
	return r, plan, nil
}

// claim stores r, checking its name in the transaction that takes it, so
// two lanes new of one name cannot both pass.
func claim(st *store.Store, r *state.Record) error {
	return st.Update(func(tx *store.Tx) error {
		all, err := tx.All()
		if err != nil {
			return err
		}
		if err := state.NameTaken(all, r.Name); err != nil {
			return err
		}
		if slices.ContainsFunc(all, func(o *state.Record) bool { return o.Name == r.ID || o.ID == r.ID }) {
			return fmt.Errorf("session id %s was taken meanwhile; run lanes new again", r.ID)
		}
		return tx.Put(r)
	})
}

// notStarted is Start's error when tmux's new-session failed, with r and
// what came with it undone unless tmux may make the session all the same.
func (s *Service) notStarted(ctx context.Context, tc *tmux.Client, r *state.Record, err error, undo func()) error {
	name, tmuxName := r.Name, r.Runtime.TmuxSession
	switch {
	case errors.Is(err, tmux.ErrDuplicate):
		undo()
		if id, _ := tc.SessionLanesID(ctx, tmuxName); id != "" {
			o := s.ReadOrphan(ctx, tc, tmuxName, id)
			return fmt.Errorf("the name is taken in tmux: %s\n%s\nthen run lanes new %s again, or pick another name (`lanes doctor` lists every such session)", o.What(), strings.Join(o.Fix(), "\n"), name)
		}
		return fmt.Errorf("tmux already has a session named %s (not started by lanes); pick another name", tmuxName)
	case ctx.Err() != nil && dropHalfMade(ctx, tc, tmuxName, r.ID):
		// Interrupted (Ctrl-C, SIGTERM) while tmux made it: what it made
		// is ended, and the record goes with it.
		undo()
		return fmt.Errorf("creating tmux session %s: %w; nothing of it is left (run lanes new %s again)", tmuxName, ctx.Err(), name)
	case ctx.Err() != nil:
		// Interrupted, and tmux does not answer: the user asked to stop,
		// so no record stays to make a session tmux makes late a live
		// one; such a session is an orphan, which doctor names.
		undo()
		return fmt.Errorf("creating tmux session %s: %w; tmux did not answer, so it may still make the session: `lanes doctor` then lists it with the command to end it", tmuxName, ctx.Err())
	case uncertain(ctx, err):
		// tmux may create the session all the same: the record stays
		// starting, and the collector adopts it or removes it.
		return fmt.Errorf("creating tmux session %s: %w; it may still start — `lanes ls` shows it, or drops it within %s",
			tmuxName, err, state.StartWindow)
	}
	undo()
	return fmt.Errorf("creating tmux session %s: %w", tmuxName, err)
}

// started records what tmux made for r, unless r was killed or given up
// on meanwhile (then what was asked last wins: the tmux session ends).
func (s *Service) started(ctx context.Context, st *store.Store, tc *tmux.Client, r *state.Record, info tmux.SessionInfo, at time.Time) (*state.Record, error) {
	err := st.Update(func(tx *store.Tx) error {
		cur, err := tx.Get(r.ID)
		if err != nil {
			return err
		}
		if cur.Runtime.Terminated {
			return fmt.Errorf("%s: %w while it started", r.Name, state.ErrTerminated)
		}
		cur.Runtime.SessionID, cur.Runtime.PaneID = info.SessionID, info.PaneID
		cur.Runtime.PaneStartedAt, cur.Activity.Since = at, at
		cur.Runtime.StartingAt = time.Time{}
		if cur.Pane.PID == 0 {
			cur.Pane.PID = info.PanePID
		}
		r = cur
		return tx.Put(cur)
	})
	switch {
	case errors.Is(err, state.ErrNoSession) || errors.Is(err, state.ErrTerminated):
		_ = tc.KillSession(context.WithoutCancel(ctx), info.SessionID)
		return nil, fmt.Errorf("%w; its tmux session was closed", err)
	case err != nil:
		// The session runs and carries the record's @lanes_id: the next
		// cycle adopts it.
		s.warn("recording %s's tmux session: %v; the next cycle (`lanes ls`) picks it up", r.Name, err)
		r.Runtime.SessionID, r.Runtime.PaneID = info.SessionID, info.PaneID
	}
	s.writeIndexes(r)
	return r, nil
}

// freshID is an id no record has as its id or name. It is chosen before
// the transaction that stores the record, since the agent's launch plan
// (its hooks' files) needs it first. A name taken already is said here,
// before anything (a worktree, say) is made; the transaction that stores
// the record checks again.
func freshID(st *store.Store, name string) (string, error) {
	var id string
	err := st.View(func(tx *store.Tx) error {
		all, err := tx.All()
		if err != nil {
			return err
		}
		id = state.FreshID(all)
		return state.NameTaken(all, name)
	})
	return id, err
}

// writeIndexes records the pane and name indexes `lanes hook` falls back to
// without opening the store.
func (s *Service) writeIndexes(r *state.Record) {
	dir, err := s.stateDir()
	if err != nil {
		return
	}
	write := func(path, content string) {
		_ = os.MkdirAll(filepath.Dir(path), 0o700)
		_ = fsafe.WriteFile(path, []byte(content), 0o600)
	}
	if r.Runtime.PaneID != "" {
		write(store.PaneIndex(dir, r.Runtime.Socket, r.Runtime.PaneID), r.ID+" "+r.Runtime.Launch+"\n")
	}
	write(NameIndex(dir, r.Name), r.ID+"\n")
}

// NameIndex is the file naming the session id of a session name: one of
// the indexes `lanes hook` finds a session by without opening the store
// (store.PaneIndex is the other: server and pane id → "id launch").
func NameIndex(stateDir, name string) string { return filepath.Join(stateDir, "names", name) }

// ForgottenMark is where Remove marks an adopted session forgotten: its
// hooks then write nothing.
func ForgottenMark(stateDir, id string) string { return filepath.Join(stateDir, "forgotten", id) }
