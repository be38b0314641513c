package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"

	"lanes/internal/remote"
	"lanes/state"
	"lanes/tmux"
)

// cmdNext is `lanes next`: the session that needs its human most, in the
// board's urgency order (docs/design.md §10), past the one this pane is
// in, so that a key bound to it walks them all.
func (a *app) cmdNext(ctx context.Context, args []string) int {
	fs := a.flags("next")
	attach := fs.Bool("attach", false, "go there: switch this tmux client to it inside tmux, attach outside (ssh to another host's)")
	allHosts := fs.Bool("all-hosts", false, "also every host in the hosts file (ssh HOST lanes ls --json)")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "next takes no arguments")
	}
	recs, err := a.lsRecords(ctx, a.cycle)
	if err != nil {
		return a.fail(err)
	}
	views, complete := listViews(recs, a.now(), false), true
	if *allHosts {
		views, complete = a.withHosts(ctx, views, false) // a host that did not answer is named on stderr
	}
	v, ok := nextAfter(views, a.here(ctx, recs))
	if !ok {
		fmt.Fprintf(a.stderr, "lanes: nothing else needs you%s\n", a.where(*allHosts, complete, "next"))
		return exitError
	}
	name := state.CleanText(v.Rec.Name)
	if v.Host != "" {
		name += "@" + state.CleanText(v.Host)
	}
	line := name + "\t" + statusLabel(v)
	if _, says := state.Says(v.Rec); says != "" {
		line += "\t" + state.CleanText(says)
	}
	fmt.Fprintln(a.stdout, line)
	if !*attach {
		return exitOK
	}
	if v.Host != "" {
		return a.attachRemote(v)
	}
	return a.attachTo(ctx, v.Rec)
}

// nextAfter is the session of Needs you after the one whose id is here,
// in views' order, the first again after the last (so a key walks them
// all); false when none but here is there.
func nextAfter(views []state.Derived, here string) (state.Derived, bool) {
	var needs []state.Derived
	for _, v := range views {
		if v.D.Zone == state.ZoneNeedsYou {
			needs = append(needs, v)
		}
	}
	at := slices.IndexFunc(needs, func(v state.Derived) bool { return here != "" && v.Host == "" && v.Rec.ID == here })
	if n := len(needs); n > 0 && (at < 0 || n > 1) {
		return needs[(at+1)%n], true
	}
	return state.Derived{}, false
}

// here is the id of the session whose pane this command runs in ($TMUX
// names the server, $TMUX_PANE the pane), "" when none.
func (a *app) here(ctx context.Context, recs []*state.Record) string {
	inside, pane := a.getenv("TMUX"), a.getenv("TMUX_PANE")
	if inside == "" || pane == "" {
		return ""
	}
	paths := map[string]string{} // socket: its path, as the server says it
	for _, r := range recs {
		if !r.Live() || r.Runtime.PaneID != pane {
			continue
		}
		path, ok := paths[r.Runtime.Socket]
		if !ok {
			path, _ = a.tmuxFor(r.Runtime.Socket).SocketPath(ctx)
			paths[r.Runtime.Socket] = path
		}
		if tmux.InsideSameServer(inside, path) {
			return r.ID
		}
	}
	return ""
}

// attachRemote attaches this terminal to another host's session over ssh,
// as the board's enter does.
func (a *app) attachRemote(v state.Derived) int {
	hosts, _ := a.hosts()
	i := slices.IndexFunc(hosts, func(h remote.Host) bool { return h.Name == v.Host })
	switch {
	case i < 0:
		return a.fail(fmt.Errorf("host %s is no longer in the hosts file", state.CleanText(v.Host)))
	case v.Rec.Runtime.TmuxSession == "":
		return a.fail(fmt.Errorf("%s on %s has no tmux session yet", state.CleanText(v.Rec.Name), state.CleanText(v.Host)))
	}
	argv := a.ssh().Attach(hosts[i], v.Rec.Runtime.Socket, v.Rec.Runtime.TmuxSession)
	if a.getenv("TMUX") != "" {
		// Inside tmux (its key binding's run-shell has no terminal): in
		// a new window of the client's session.
		label := state.CleanText(v.Rec.Name) + "@" + hosts[i].Name
		argv = tmux.NewWindowArgv(label, argv)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return a.fail(fmt.Errorf("attach %s on %s: %w", state.CleanText(v.Rec.Name), hosts[i].Name, err))
	}
	return exitOK
}

// where says where a listing looked when it found nothing: here alone
// while the hosts file names others, or not on a host that did not
// answer ("" when it looked everywhere).
func (a *app) where(allHosts, complete bool, cmd string) string {
	switch hosts, _ := a.hosts(); {
	case !allHosts && len(hosts) > 0:
		return " here — other hosts: `lanes " + cmd + " --all-hosts`"
	case !complete:
		return " on the hosts that answered"
	}
	return ""
}
