package store

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lanes/state"
)

// Sessions lanes did not start (docs/design.md §13): an agent whose hooks
// were installed in its own config (`lanes hooks install`) and that runs
// outside a lanes session reports all the same. Its first line carries
// Adopt, and ingest makes an adopted record for it, keyed by the agent's
// own session id: the board shows it, and where it runs in a pane of the
// server lanes reads, attach, preview, exit facts and the witness work as
// for any session. lanes never kills or restarts it unless asked by name.

// PaneIndex is the file `lanes hook` finds a session by when the
// environment does not name it: its tmux server and pane id → "id launch"
// (a pane id alone repeats across servers, and after a server restarts).
func PaneIndex(stateDir, socket, paneID string) string {
	if socket == "" {
		socket = "default"
	}
	return filepath.Join(stateDir, "panes", strings.ReplaceAll(socket, "/", "_")+paneID)
}

// DropPaneIndex removes r's pane index once r has ended: a later pane with
// the same id is another agent's (one lanes did not start is then adopted).
func DropPaneIndex(stateDir string, r *state.Record) {
	if r.Runtime.PaneID == "" {
		return
	}
	path := PaneIndex(stateDir, r.Runtime.Socket, r.Runtime.PaneID)
	if b, err := os.ReadFile(path); err == nil && strings.HasPrefix(string(b), r.ID+" ") {
		_ = os.Remove(path)
	}
}

// adopted makes the record an adopting line asks for: named after its
// dir (suffixed on a clash with a live session, a record's id, or a name
// that would read as an id), idle until its events say more.
func (c *cycleTx) adopted(l state.Line) *state.Record {
	base := filepath.Base(filepath.Clean(l.Adopt.Dir))
	if !state.ValidName(base) || l.Adopt.Dir == "" {
		base = l.Agent
	}
	name := base
	for n := 2; ; n++ {
		if state.NameTaken(c.records, name) == nil {
			break
		}
		name = base + "-" + strconv.Itoa(n)
	}
	r := &state.Record{ID: l.Session, Name: name, Agent: state.Agent(l.Agent), Dir: l.Adopt.Dir, CreatedAt: l.At, Adopted: true,
		Runtime:  state.Runtime{Socket: l.Adopt.Socket, PaneID: l.Adopt.Pane, PaneStartedAt: l.At, Source: "adopt", At: l.At},
		Activity: state.ActivityFacts{State: state.ActivityIdle, Since: l.At, Source: "adopt", HooksReport: true}}
	if !state.ValidPaneID(r.Runtime.PaneID) {
		r.Runtime.PaneID, r.Runtime.Socket = "", ""
	}
	c.records = append(c.records, r)
	c.byID[r.ID] = r
	c.dirty[r.ID] = true
	return r
}

// observeAdopted reads an adopted session's pane, found by its id on its
// server (it carries no @lanes_id). A pane that is gone, or runs another
// process than the one first seen there (tmux numbers panes afresh when a
// server starts again), ends the record as any gone session's.
func (c *cycleTx) observeAdopted(r *state.Record, byPane map[string]*state.Observation, readStart time.Time) {
	o, ok := byPane[r.Runtime.PaneID]
	if !ok || r.Pane.PID != 0 && o.PID != r.Pane.PID && !o.Dead {
		c.gone(r, readStart)
		return
	}
	r.Runtime.GoneSeenAt = time.Time{}
	r.Runtime.SessionID = o.SessionID
	c.applyPane(r, *o, readStart) // never closed by lanes: not its session
}
