package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanes/state"
	"lanes/state/fsafe"
	"lanes/tmux"
)

func (a *app) cmdNew(ctx context.Context, args []string) int {
	fs := a.flags("new")
	agentFlag := fs.String("agent", "", "agent to run: claude, codex, gemini, opencode or shell (default claude; -- CMD alone runs a custom command)")
	dirFlag := fs.String("dir", "", "working directory (default: the current directory)")
	wtFlag := fs.Bool("worktree", false, "start it in a new git worktree of the repository DIR is in, on a new branch ("+EnvWorktreeRoot+" overrides where worktrees go)")
	branchFlag := fs.String("branch", "", "with --worktree: the new branch (default lanes/NAME)")
	fromFlag := fs.String("from", "", "with --worktree: the commit or branch it starts from (default: the repository's current branch)")
	// The agent's argv is what follows "--".
	extra, code, done := a.parseWith(fs, args, -1)
	if done {
		return code
	}
	names := fs.Args()[:fs.NArg()-len(extra)]
	switch {
	case len(names) == 0 && extra != nil:
		return a.usageErr(fs, "new needs a NAME before --")
	case len(names) == 0:
		return a.usageErr(fs, "new needs a NAME")
	case len(names) > 1:
		return a.usageErr(fs, "unexpected %q: put agent arguments after --", names[1])
	}
	name := names[0]
	if err := state.CheckName(name); err != nil {
		// The message says what to do; the flags list would bury it.
		fmt.Fprintf(a.stderr, "lanes: %v\n", err)
		return exitUsage
	}
	agent := state.Agent(*agentFlag)
	switch {
	case agent == "" && len(extra) > 0:
		agent = state.AgentCustom
	case agent == "":
		agent = state.AgentClaude
	case !slices.Contains(agentNames(), string(agent)):
		return a.usageErr(fs, "unknown agent %q (want one of %s)", agent, strings.Join(agentNames(), ", "))
	}
	if !*wtFlag && (*branchFlag != "" || *fromFlag != "") {
		return a.usageErr(fs, "--branch and --from go with --worktree")
	}
	dir, err := a.workDir("--dir", *dirFlag)
	if err != nil {
		return a.fail(err)
	}
	var wt *worktreePlan
	if *wtFlag {
		if wt, err = a.planWorktree(ctx, name, dir, *branchFlag, *fromFlag); err != nil {
			return a.fail(err)
		}
	}
	r, err := a.create(ctx, name, agent, dir, extra, wt)
	if err != nil {
		return a.fail(err)
	}
	fmt.Fprintf(a.stdout, "%s  %s\n", r.Runtime.TmuxSession, r.ID)
	if wt != nil {
		fmt.Fprintf(a.stdout, "worktree %s on new branch %s (from %s)\n", r.Git.Worktree, r.Branch, r.Git.Base)
	}
	return exitOK
}

func agentNames() []string {
	out := make([]string, len(state.Agents))
	for i, ag := range state.Agents {
		out[i] = string(ag)
	}
	return out
}

// workDir is dir (given as what, "--dir" say) made absolute, or the
// current directory when dir is empty; it must be a directory.
func (a *app) workDir(what, dir string) (string, error) {
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

// create starts a session: the record first (so the agent's first hooks find
// it), then one tmux invocation; any failure removes both. With wt, the
// worktree is made first and the session starts in it; a failure removes it
// too.
func (a *app) create(ctx context.Context, name string, agent state.Agent, dir string, args []string, wt *worktreePlan) (*state.Record, error) {
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	tc := a.tmuxClient()
	tmuxName := state.TmuxSessionName(name)
	id, err := a.freshID(st, name)
	if err != nil {
		return nil, err
	}
	if wt != nil {
		dir = wt.path
	}
	r := &state.Record{
		ID: id, Name: name, Agent: agent, Dir: dir,
		CreatedAt: a.now().UTC(),
		Runtime: state.Runtime{Socket: a.socket, TmuxSession: tmuxName, Launch: state.NewID(),
			Source: "user", At: a.now().UTC()},
	}
	spawn, err := a.spawnPlan(r, args)
	if err != nil {
		return nil, err
	}
	r.Command = spawn.command
	if wt != nil {
		if err := wt.add(ctx, a); err != nil {
			spawn.cleanup()
			return nil, err
		}
		r.Git = wt.facts()
		dir = wt.startDir() // now that the worktree is there
		r.Dir = dir
		prev := spawn.cleanup
		spawn.cleanup = func() { prev(); wt.undo(ctx, a) }
	}
	r.Branch = state.GitBranch(dir)
	r.Activity = state.ActivityFacts{State: state.ActivityIdle, Since: r.CreatedAt, Source: "user", HooksReport: spawn.hooks}
	r.Runtime.StartingAt = a.now().UTC()
	// The name is checked in the transaction that takes it, so two lanes new
	// of one name cannot both pass.
	if err := st.Update(func(tx *state.Tx) error {
		all, err := tx.All()
		if err != nil {
			return err
		}
		if err := state.NameTaken(all, name); err != nil {
			return err
		}
		if slices.ContainsFunc(all, func(o *state.Record) bool { return o.Name == r.ID || o.ID == r.ID }) {
			return fmt.Errorf("session id %s was taken meanwhile; run lanes new again", r.ID)
		}
		return tx.Put(r)
	}); err != nil {
		spawn.cleanup()
		return nil, err
	}
	undo := func() {
		// Should this fail too (store busy), the collector removes the
		// record once StartWindow has passed without its session.
		_ = st.Update(func(tx *state.Tx) error { return tx.Delete(r.ID) })
		spawn.cleanup()
	}
	started := a.now().UTC()
	info, err := tc.NewSession(ctx, tmux.NewSessionOpts{
		Name: tmuxName, Dir: dir, Env: spawn.env, Command: spawn.argv, LanesID: r.ID,
	})
	switch {
	case errors.Is(err, tmux.ErrDuplicate):
		undo()
		if id, _ := tc.SessionLanesID(ctx, tmuxName); id != "" {
			o := a.readOrphan(ctx, tc, tmuxName, id)
			return nil, fmt.Errorf("the name is taken in tmux: %s\n%s\nthen run lanes new %s again, or pick another name (`lanes doctor` lists every such session)", o.what(), strings.Join(o.fix(), "\n"), name)
		}
		return nil, fmt.Errorf("tmux already has a session named %s (not started by lanes); pick another name", tmuxName)
	case ctx.Err() != nil && dropHalfMade(ctx, tc, tmuxName, r.ID):
		// Interrupted (Ctrl-C, SIGTERM) while tmux made it: what it made
		// is ended, and the record goes with it.
		undo()
		return nil, fmt.Errorf("creating tmux session %s: %w; nothing of it is left (run lanes new %s again)", tmuxName, ctx.Err(), name)
	case ctx.Err() != nil:
		// Interrupted, and tmux does not answer: the user asked to stop,
		// so no record stays to make a session tmux makes late a live
		// one; such a session is an orphan, which doctor names.
		undo()
		return nil, fmt.Errorf("creating tmux session %s: %w; tmux did not answer, so it may still make the session: `lanes doctor` then lists it with the command to end it", tmuxName, ctx.Err())
	case uncertain(ctx, err):
		// tmux may create the session all the same: the record stays
		// starting, and the collector adopts it or removes it.
		return nil, fmt.Errorf("creating tmux session %s: %w; it may still start — `lanes ls` shows it, or drops it within %s",
			tmuxName, err, state.StartWindow)
	case err != nil:
		undo()
		return nil, fmt.Errorf("creating tmux session %s: %w", tmuxName, err)
	}
	err = st.Update(func(tx *state.Tx) error {
		cur, err := tx.Get(r.ID)
		if err != nil {
			return err
		}
		if cur.Runtime.Terminated {
			return fmt.Errorf("%s: %w while it started", name, state.ErrTerminated)
		}
		cur.Runtime.SessionID, cur.Runtime.PaneID = info.SessionID, info.PaneID
		cur.Runtime.PaneStartedAt, cur.Activity.Since = started, started
		cur.Runtime.StartingAt = time.Time{}
		if cur.Pane.PID == 0 {
			cur.Pane.PID = info.PanePID
		}
		r = cur
		return tx.Put(cur)
	})
	switch {
	case errors.Is(err, state.ErrNoSession) || errors.Is(err, state.ErrTerminated):
		// Killed (or given up on) while tmux was creating it: what was
		// asked last wins.
		_ = tc.KillSession(context.WithoutCancel(ctx), info.SessionID)
		return nil, fmt.Errorf("%w; its tmux session was closed", err)
	case err != nil:
		// The session runs and carries the record's @lanes_id: the next
		// cycle adopts it.
		a.warn("recording %s's tmux session: %v; the next cycle (`lanes ls`) picks it up", name, err)
		r.Runtime.SessionID, r.Runtime.PaneID = info.SessionID, info.PaneID
	}
	a.writeIndexes(r)
	return r, nil
}

// freshID is an id no record has as its id or name. It is chosen before
// the transaction that stores the record, since the agent's launch plan
// (its hooks' files) needs it first. A name taken already is said here,
// before anything (a worktree, say) is made; the transaction that stores
// the record checks again.
func (a *app) freshID(st *state.Store, name string) (string, error) {
	var id string
	err := st.View(func(tx *state.Tx) error {
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
func (a *app) writeIndexes(r *state.Record) {
	dir, err := a.stateDir()
	if err != nil {
		return
	}
	write := func(path, content string) {
		_ = os.MkdirAll(filepath.Dir(path), 0o700)
		_ = fsafe.WriteFile(path, []byte(content), 0o600)
	}
	if r.Runtime.PaneID != "" {
		write(state.PaneIndex(dir, r.Runtime.Socket, r.Runtime.PaneID), r.ID+" "+r.Runtime.Launch+"\n")
	}
	write(nameIndex(dir, r.Name), r.ID+"\n")
}

// resolve finds a session by name or id after a collector cycle, so what the
// command acts on is current.
func (a *app) resolve(ctx context.Context, nameOrID string) (*state.Record, error) {
	// Quiet: the command says itself what tmux's silence means for it.
	res, err := a.quietCycle(ctx)
	if err != nil {
		return nil, err
	}
	return state.Resolve(res.Records, nameOrID)
}

// named parses a command that takes exactly NAME (and the flags of fs) and
// resolves it after a cycle; done is true when the command should return
// code now.
func (a *app) named(ctx context.Context, fs *flag.FlagSet, args []string) (r *state.Record, code int, done bool) {
	return a.namedBy(ctx, fs, args, state.Resolve)
}

// namedBy is named with the rule that picks among records sharing the name.
func (a *app) namedBy(ctx context.Context, fs *flag.FlagSet, args []string, resolve func([]*state.Record, string) (*state.Record, error)) (r *state.Record, code int, done bool) {
	if code, done := a.parse(fs, args); done {
		return nil, code, true
	}
	if fs.NArg() != 1 {
		return nil, a.usageErr(fs, "%s needs exactly one NAME", strings.TrimPrefix(fs.Name(), "lanes ")), true
	}
	res, err := a.quietCycle(ctx)
	if err == nil {
		r, err = resolve(res.Records, fs.Arg(0))
	}
	if err != nil {
		return nil, a.fail(err), true
	}
	return r, 0, false
}

func (a *app) cmdKill(ctx context.Context, args []string) int {
	fs := a.flags("kill")
	yes := fs.Bool("yes", false, "when tmux does not answer, mark the session terminated without asking")
	r, code, done := a.named(ctx, fs, args)
	if done {
		return code
	}
	err := a.kill(ctx, r, *yes)
	if errors.Is(err, errTmuxDown) {
		if err = a.confirm(fmt.Sprintf("%v\nMark %s terminated anyway?", err, r.Name), err); err == nil {
			err = a.kill(ctx, r, true)
		}
	}
	if err != nil {
		return a.fail(err)
	}
	if r.Runtime.TerminatedReason == state.KilledWhileDown {
		fmt.Fprintf(a.stdout, "marked %s terminated: tmux was not answering, so its agent was not stopped (%s); `lanes rm %s` removes the record\n",
			r.Name, r.ID, r.ID)
		return exitOK
	}
	if wt := r.Git.Worktree; wt != "" {
		fmt.Fprintf(a.stdout, "killed %s (%s); its record, worktree %s and branch %s are kept — `lanes rm %s --worktree` removes the record and a clean worktree\n",
			r.Name, r.ID, wt, r.Branch, r.ID)
		return exitOK
	}
	fmt.Fprintf(a.stdout, "killed %s (%s); its record is kept — `lanes rm %s` removes it\n", r.Name, r.ID, r.ID)
	return exitOK
}

// notStarted refuses to act on the pane of a session tmux has not shown
// yet (an interrupted `lanes new`): there is none to act on.
func notStarted(r *state.Record) error {
	if !r.Starting() {
		return nil
	}
	return &state.SessionError{Name: r.Name, Reason: fmt.Errorf("%w; try again in a moment, or `lanes kill %s`", state.ErrStarting, r.Name)}
}

// update loads, changes and stores one record in one transaction.
func (a *app) update(id string, fn func(*state.Record, *state.Tx) error) error {
	st, err := a.store()
	if err != nil {
		return err
	}
	return st.Update(func(tx *state.Tx) error {
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

func appendHistory(tx *state.Tx, id string, tr *state.Transition) error {
	if tr == nil {
		return nil
	}
	return tx.AppendHistory(id, *tr)
}
