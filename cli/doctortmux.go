package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"lanes/state"
	"lanes/tmux"
)

// doctorTmux checks tmux and this invocation's server, as the doctor's
// cycle read it (res; probed again only when the cycle could not run), and
// the sessions on it that carry an @lanes_id no live record has.
func (a *app) doctorTmux(ctx context.Context, res state.CycleResult, cycleErr error, add addFunc) {
	tc := a.tmuxClient()
	// The binary's version needs no server, so a server that just hung
	// (tmuxFor's memory of it) says nothing about it: a plain client asks.
	v, err := tmux.New(a.socket).Version(ctx)
	if err != nil {
		add(false, "install tmux ≥ 3.3 (e.g. apt-get install tmux)", "tmux: %v", err)
		return
	}
	add(versionAtLeast(v, 3, 3), "upgrade tmux to 3.3 or newer", "tmux %s", v)
	readErr := res.TmuxErr
	if cycleErr != nil {
		_, readErr = tc.ListPanes(ctx, false)
	}
	server, ls := serverName(a.socket)
	var waiting []string
	for _, r := range res.Records {
		if r.Live() && r.Runtime.Socket == a.socket {
			waiting = append(waiting, r.Name)
		}
	}
	switch {
	case errors.Is(readErr, tmux.ErrNoServer) && len(waiting) == 0:
		add(true, "", "%s: not running (it starts with the first `lanes new`)", server)
	case errors.Is(readErr, tmux.ErrNoServer):
		add(false, fmt.Sprintf("after a reboot their agents are gone: end each with `lanes kill %s --yes`, or start it again in a new server with `lanes restart %s`",
			waiting[0], waiting[0]),
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

// serverName names this invocation's tmux server in doctor's lines, and
// the command that lists its sessions.
func serverName(socket string) (name, ls string) {
	if socket == "" {
		return "tmux's default server", "tmux ls"
	}
	return "tmux server -L " + socket, "tmux -L " + socket + " ls"
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
		server, ls := serverName(socket)
		add(false, fmt.Sprintf("check it with `%s`, or run `lanes --socket %s doctor`", ls, socket),
			"%d live session(s) wait on %s, which did not answer: %s", len(names), server, strings.Join(names, ", "))
	}
}

// doctorOrphans lists tmux sessions that carry an @lanes_id no live record
// has (a start whose record was removed, a session killed in lanes while
// tmux was down that came back), with the command that ends each. A
// session whose environment names another state dir is another lanes'
// (docs/design.md §2: lanes passes LANES_STATE_DIR at spawn), not an orphan.
func (a *app) doctorOrphans(ctx context.Context, tc *tmux.Client, orphans []state.Observation, add addFunc) {
	slices.SortFunc(orphans, func(x, y state.Observation) int { return strings.Compare(x.SessionID, y.SessionID) })
	ours, _ := a.stateDir()
	var traces state.Traces
	if ours != "" {
		traces = a.repairTraces(ctx, ours)
	}
	var names, kills, lost []string
	for _, o := range orphans {
		name, err := tc.SessionName(ctx, o.SessionID)
		if err != nil {
			name = o.SessionID
		}
		if dir, foreign := foreignStateDir(ctx, tc, o.SessionID, ours); foreign {
			add(true, "", "tmux: %s (%s) belongs to state dir %s (not an orphan)", name, o.SessionID, dir)
			continue
		}
		if traces.Names[o.LanesID] != "" || traces.Launches[o.LanesID] != "" {
			lost = append(lost, fmt.Sprintf("%s (%s)", name, o.SessionID))
			continue // lanes started it here: its record is what is lost
		}
		names = append(names, fmt.Sprintf("%s (%s)", name, o.SessionID))
		argv := append([]string{"tmux"}, tmuxSocketArgs(a.socket)...)
		argv = append(argv, "kill-session", "-t", "'"+o.SessionID+"'")
		kills = append(kills, strings.Join(argv, " ")+"   # "+name)
	}
	if len(lost) > 0 {
		add(false, "lanes doctor --repair (it rebuilds their records from tmux and lanes' indexes)",
			"tmux: %d session(s) lanes started from this state dir have no record in the store (lost): %s",
			len(lost), strings.Join(lost, ", "))
	}
	if len(kills) == 0 {
		return
	}
	add(false, strings.Join(kills, "\n         "),
		"tmux: %d session(s) carry an @lanes_id this state dir has no live record of (orphans; lanes does not watch them): %s",
		len(kills), strings.Join(names, ", "))
}

func tmuxSocketArgs(socket string) []string {
	if socket == "" {
		return nil
	}
	return []string{"-L", socket}
}
