package session

import (
	"context"
	"fmt"
	"strings"

	"lanes/tmux"
)

// Orphan is a tmux session carrying an @lanes_id that no live record of
// this state dir has: an interrupted `lanes new` whose session tmux made
// late, or a store that lost records (docs/design.md §13).
type Orphan struct {
	name, sessionID, lanesID string
	command, dir             string // what its pane runs, and where; "" when tmux did not say
	socket                   string
	lost                     bool // lanes' indexes here name it: `lanes doctor --repair` takes it over
}

// ReadOrphan reads what doctor and `lanes new` say of the orphan session
// target (its id or exact name) carrying lanesID.
func (s *Service) ReadOrphan(ctx context.Context, tc *tmux.Client, target, lanesID string) Orphan {
	o := Orphan{name: target, sessionID: target, lanesID: lanesID, socket: s.Socket}
	if name, err := tc.SessionName(ctx, target); err == nil && name != "" {
		o.name = name
	}
	o.command, o.dir, _ = tc.SessionPane(ctx, target)
	if dir, _ := s.stateDir(); dir != "" {
		tr := s.RepairTraces(ctx, dir)
		o.lost = tr.Names[lanesID] != "" || tr.Launches[lanesID] != ""
	}
	return o
}

// What says what the session is.
func (o Orphan) What() string {
	server, _ := tmux.ServerName(o.socket)
	s := o.name + " (@lanes_id " + o.lanesID
	if o.sessionID != o.name {
		s = fmt.Sprintf("%s (%s, @lanes_id %s", o.name, o.sessionID, o.lanesID)
	}
	if o.command != "" {
		s += ", running " + o.command
	}
	if o.dir != "" {
		s += " in " + o.dir
	}
	s += ") on " + server
	if o.lost {
		return s + " was started by lanes from this state dir, and its record is lost"
	}
	return s + " carries a lanes id this state dir has no live session of (an orphan: an interrupted `lanes new`, or a lost record); lanes does not watch it"
}

// Fix is the commands to act on it, one a line: kill it, or take it
// over. Only a session lanes' indexes name can be taken over as a lanes
// session (repair rebuilds its record); any other can be kept as a plain
// tmux session lanes ignores.
func (o Orphan) Fix() []string {
	tmuxCmd := strings.Join(append(append([]string{"tmux"}, tmuxSocketArgs(o.socket)...), ""), " ")
	target := "'=" + o.name + "'" // quoted: zsh expands a word starting with '='
	// set-option takes a pane-shaped target: a bare =NAME finds no session.
	paneTarget := "'=" + o.name + ":'"
	kill := "to kill it: " + tmuxCmd + "kill-session -t " + target
	if o.lost {
		// Repair brings it back as it was: no kill is offered.
		return []string{"lanes doctor --repair (it takes it over: it rebuilds the record from tmux and lanes' indexes)"}
	}
	return []string{kill, "to keep it as a plain tmux session lanes ignores: " + tmuxCmd + "set-option -t " + paneTarget + " -u @lanes_id"}
}
