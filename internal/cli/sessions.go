package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"lanes/internal/config"
	"lanes/internal/near"
	"lanes/internal/session"
	"lanes/state"
)

func (a *app) cmdNew(ctx context.Context, args []string) int {
	fs := a.flags("new")
	agentFlag := fs.String("agent", "", "agent to run: "+orList(newAgents())+" (default: the config file's agent, else "+string(state.DefaultAgent)+"; -- CMD alone runs a custom command)")
	profileFlag := fs.String("profile", "", "start what the config file's [profiles.P] says: its agent, arguments, variables, directory and worktree (these flags win over it; arguments after -- replace its own)")
	dirFlag := fs.String("dir", "", "working directory (default: the profile's, else the current directory)")
	wtFlag := fs.Bool("worktree", false, "start it in a new git worktree of the repository DIR is in, on a new branch (default: the config file's worktree.enabled; --worktree=false: not this one)")
	branchFlag := fs.String("branch", "", "with --worktree: the branch (default: worktree.branch_prefix + NAME, lanes/NAME; an existing one is continued)")
	fromFlag := fs.String("from", "", "with --worktree: the commit or branch it starts from (default: worktree.from, else the repository's current branch)")
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
		fmt.Fprintf(a.stderr, "lanes: %v%s\n", err, a.newThere(name))
		return exitUsage
	}
	p, err := a.profile(*profileFlag)
	if err != nil {
		return a.usageErr(fs, "%v", err)
	}
	if extra == nil && p.Args != nil {
		extra = p.Args
	}
	agent, msg := a.newAgent(name, state.Agent(cmp.Or(*agentFlag, p.Agent)), extra)
	if msg != "" {
		return a.usageErr(fs, "%s", msg)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	worktree := a.cfg.On("worktree.enabled", a.getenv)
	switch {
	case set["worktree"]:
		worktree = *wtFlag
	case p.Worktree != nil:
		worktree = *p.Worktree
	}
	if !worktree && (*branchFlag != "" || *fromFlag != "") {
		return a.usageErr(fs, "--branch and --from go with --worktree")
	}
	dir, err := session.WorkDir("--dir", cmp.Or(*dirFlag, p.Dir))
	if err != nil {
		return a.fail(err)
	}
	var wt *session.WorktreePlan
	if worktree {
		if wt, err = a.svc().PlanWorktree(ctx, name, dir, *branchFlag, *fromFlag); err != nil {
			return a.fail(err)
		}
	}
	r, err := a.svc().Start(ctx, name, agent, dir, extra, session.Profile{Name: p.Name, Env: p.Env}, wt)
	if err != nil {
		return a.fail(err)
	}
	a.newSaid(r, wt)
	return exitOK
}

// newAgent is the agent `lanes new` starts, given the --agent flag (or
// the profile's agent) and the arguments after --; msg says what is
// wrong with them.
func (a *app) newAgent(name string, agent state.Agent, extra []string) (_ state.Agent, msg string) {
	switch {
	case (agent == "" || agent == state.AgentCustom) && extra != nil && len(extra) == 0:
		return "", fmt.Sprintf("nothing after --: give the command to run (lanes new %s -- CMD ARGS…), or leave -- out to start %s", name, a.setting("agent"))
	case agent == state.AgentCustom && len(extra) == 0:
		return "", fmt.Sprintf("--agent custom runs the command after --: lanes new %s --agent custom -- CMD ARGS…", name)
	case agent == "" && len(extra) > 0, agent == state.AgentCustom:
		return state.AgentCustom, ""
	case agent == "":
		return state.Agent(a.setting("agent")), ""
	case !slices.Contains(agentNames(), string(agent)):
		return "", fmt.Sprintf("unknown agent %q (want one of %s, or custom with a command after --)", agent, strings.Join(agentNames(), ", "))
	}
	return agent, ""
}

// profile is the config file's profile name ("" is none).
func (a *app) profile(name string) (config.Profile, error) {
	if name == "" {
		return config.Profile{}, nil
	}
	if p, ok := a.cfg.Profile(name); ok {
		return p, nil
	}
	path := config.Path(a.getenv)
	if len(a.cfg.Profiles) == 0 {
		return config.Profile{}, fmt.Errorf("no profile %q: %s has none ([profiles.%s] makes one; `lanes config --init` writes an example)", name, path, name)
	}
	hint := ""
	if n := near.Word(name, a.cfg.ProfileNames()); n != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", n)
	}
	return config.Profile{}, fmt.Errorf("no profile %q in %s%s: it has %s", name, path, hint, strings.Join(a.cfg.ProfileNames(), ", "))
}

// newSaid prints what `lanes new` started.
func (a *app) newSaid(r *state.Record, wt *session.WorktreePlan) {
	fmt.Fprintf(a.stdout, "%s  %s\n", r.Runtime.TmuxSession, r.ID)
	if wt == nil {
		return
	}
	// The base is the repository's branch, named by anyone: printable.
	how := fmt.Sprintf("worktree %s on new branch %s (from %s)", r.Git.Worktree, r.Branch, r.Git.Base)
	if wt.Continues() {
		how = fmt.Sprintf("worktree %s on branch %s, as it was (ahead and behind against %s)", r.Git.Worktree, r.Branch, r.Git.Base)
	}
	fmt.Fprintf(a.stdout, "%s\n", state.CleanText(how))
}

func agentNames() []string {
	out := make([]string, len(state.Agents))
	for i, ag := range state.Agents {
		out[i] = string(ag)
	}
	return out
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
	err := a.svc().Kill(ctx, r, *yes)
	if errors.Is(err, session.ErrTmuxDown) {
		if err = a.confirm(fmt.Sprintf("%v\nMark %s terminated anyway?", err, r.Name), err); err == nil {
			err = a.svc().Kill(ctx, r, true)
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
