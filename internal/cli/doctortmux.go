package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// doctorTmux checks tmux and this invocation's server, as the doctor's
// cycle read it (res; probed again only when the cycle could not run), and
// the sessions on it that carry an @lanes_id no live record has.
func (a *app) doctorTmux(ctx context.Context, res store.CycleResult, cycleErr error, add addFunc) {
	tc := a.tmuxClient()
	// The binary's version needs no server, so a server that just hung
	// (tmuxFor's memory of it) says nothing about it: a plain client asks.
	v, err := tmux.New(a.socket).Version(ctx)
	if err != nil {
		add(false, "install tmux ≥ 3.3 (e.g. apt-get install tmux)", "tmux: %v", err)
		return
	}
	readErr := res.TmuxErr
	if cycleErr != nil {
		_, readErr = tc.ListPanes(ctx, false)
	}
	a.doctorVersion(ctx, tc, v, readErr == nil, add)
	server, ls := tmux.ServerName(a.socket)
	var waiting []string
	for _, r := range res.Records {
		if r.Live() && r.Runtime.Socket == a.socket {
			waiting = append(waiting, r.Name)
		}
	}
	var ours []*state.Record
	for _, r := range res.Records {
		if r.Runtime.Socket == a.socket {
			ours = append(ours, r)
		}
	}
	_, ended := store.LastServerExit(ours, a.now().Add(-state.RestoreWindow))
	switch {
	case errors.Is(readErr, tmux.ErrNoServer) && len(waiting) == 0 && len(ended) > 0:
		add(false, "`lanes restore --all` starts them again (an agent resumes its conversation)",
			"%s: exited, and %d session(s) ended with it: %s", server, len(ended), strings.Join(ended, ", "))
	case errors.Is(readErr, tmux.ErrNoServer) && len(waiting) == 0:
		add(true, "", "%s: not running (it starts with the first `lanes new`)", server)
	case errors.Is(readErr, tmux.ErrNoServer):
		add(false, fmt.Sprintf("after a reboot: `lanes restore --all` starts them again and resumes their conversations; end one for good with `lanes kill %s --yes`",
			waiting[0]),
			"%s: not running, and %d live session(s) wait on it: %s", server, len(waiting), strings.Join(waiting, ", "))
	case errors.Is(readErr, tmux.ErrTimeout):
		add(false, fmt.Sprintf("look at it with `%s` and at its process (stopped? overloaded?); lanes keeps every session's record meanwhile", ls),
			"%s: running but not answering (%v)", server, readErr)
	case readErr != nil:
		add(false, fmt.Sprintf("check it with `%s`; lanes keeps every session's record meanwhile", ls), "%s: %v", server, readErr)
	default:
		add(true, "", "%s: answering", server)
		a.doctorOrphans(ctx, tc, res.Orphans, add)
	}
}

// doctorOtherServers: live sessions on other servers than this
// invocation's, shown unknown since the last read of theirs failed (this
// doctor read only its own server).
func (a *app) doctorOtherServers(recs []*state.Record, add addFunc) {
	waiting := map[string][]string{}
	for _, r := range recs {
		if r.Live() && r.Runtime.Socket != a.socket && !r.Runtime.UnreachableSince.IsZero() {
			waiting[r.Runtime.Socket] = append(waiting[r.Runtime.Socket], r.Name)
		}
	}
	for socket, names := range waiting {
		server, ls := tmux.ServerName(socket)
		add(false, fmt.Sprintf("check it with `%s`, or run `lanes --socket %s doctor`", ls, socket),
			"%d live session(s) wait on %s, which did not answer: %s", len(names), server, strings.Join(names, ", "))
	}
}

// doctorOrphans lists tmux sessions that carry an @lanes_id no live record
// has (an interrupted start, a lost record, a session killed in lanes while
// tmux was down that came back), each with the commands to take it over or
// kill it.
func (a *app) doctorOrphans(ctx context.Context, tc *tmux.Client, obs []state.Observation, add addFunc) {
	slices.SortFunc(obs, func(x, y state.Observation) int { return strings.Compare(x.SessionID, y.SessionID) })
	for _, o := range a.orphanSessions(ctx, tc, obs, add) {
		add(false, strings.Join(o.Fix(), "\n         "), "tmux: %s", o.What())
	}
}

// orphanSessions reads each of the cycle's orphans that belongs to this
// state dir (a session whose environment names another state dir is that
// lanes', docs/design.md §2), and says of the others whose they are.
func (a *app) orphanSessions(ctx context.Context, tc *tmux.Client, obs []state.Observation, add addFunc) []session.Orphan {
	ours, _ := a.stateDir()
	var out []session.Orphan
	for _, ob := range obs {
		if dir, foreign := session.ForeignStateDir(ctx, tc, ob.SessionID, ours); foreign {
			name, err := tc.SessionName(ctx, ob.SessionID)
			if err != nil {
				name = ob.SessionID
			}
			add(true, "", "tmux: %s (%s) belongs to state dir %s (not an orphan)", name, ob.SessionID, dir)
			continue
		}
		out = append(out, a.svc().ReadOrphan(ctx, tc, ob.SessionID, ob.LanesID))
	}
	return out
}

// doctorPassthrough: inside tmux, the board's desktop notifications (OSC 9
// and 777) reach the terminal only when the user allowed passthrough on
// the tmux server this terminal is in ($TMUX). It reads the option, never
// sets it: one line of information, not a problem.
func (a *app) doctorPassthrough(ctx context.Context, add addFunc) {
	path, _, _ := strings.Cut(a.getenv("TMUX"), ",")
	if path == "" {
		return
	}
	here := &tmux.Client{Run: tmux.ExecRunner("", tmux.DefaultTimeout, "-S", path)}
	if v, err := here.Run(ctx, "show-options", "-gv", "allow-passthrough"); err == nil && strings.TrimSpace(string(v)) == "off" {
		add(true, "", "notifications: inside tmux the board rings the bell and shows a tmux message; for desktop ones (OSC 9/777) add `set -g allow-passthrough on` to your tmux.conf")
	}
}

// doctorVersion names tmux's version — the running server's when it
// answers, since a server keeps its own until it restarts — and the known
// crash of it that lanes avoids.
func (a *app) doctorVersion(ctx context.Context, tc *tmux.Client, binary string, answering bool, add addFunc) {
	v, line := binary, "tmux "+binary
	if answering {
		if sv, err := tc.ServerVersion(ctx); err == nil && sv != binary {
			v, line = sv, fmt.Sprintf("tmux %s (the running server's; the binary is %s, which counts once the server restarts)", sv, binary)
		}
	}
	if tmux.ControlCrash(v) != "" {
		line += ": versions up to 3.6a can crash when a control-mode client connects while a session opens or closes; lanes' board never uses one there (it starts a tmux client per read)"
	}
	add(tmux.AtLeast(v, 3, 3), "upgrade tmux to 3.3 or newer", "%s", line)
}
