package state

import (
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
func DropPaneIndex(stateDir string, r *Record) {
	if r.Runtime.PaneID == "" {
		return
	}
	path := PaneIndex(stateDir, r.Runtime.Socket, r.Runtime.PaneID)
	if b, err := os.ReadFile(path); err == nil && strings.HasPrefix(string(b), r.ID+" ") {
		_ = os.Remove(path)
	}
}

// ErrNoPane: an adopted session that runs in no tmux pane lanes reads;
// lanes only knows what its hooks say.
var ErrNoPane = errors.New("it runs in no tmux pane lanes reads (lanes did not start it); lanes only shows what its hooks report")

// AdoptedPane is why lanes may not act on an adopted session's pane (type
// into it, attach to it), nil when it may: a pane of the server lanes
// reads (socket), found there by a read (its pid and session). A %N lanes
// does not read may be anything now (its server restarted).
func AdoptedPane(r *Record, socket string) error {
	if !paneRead(r) || r.Runtime.Socket != socket {
		return ErrNoPane
	}
	return nil
}

// paneRead: a read found r's pane (its pid and session).
func paneRead(r *Record) bool {
	return r.Runtime.PaneID != "" && r.Runtime.SessionID != "" && r.Pane.PID != 0
}

// Adopt is where a session lanes did not start runs, as its hook saw it.
type Adopt struct {
	Dir    string `json:"dir,omitempty"`
	Socket string `json:"socket,omitempty"` // tmux -L name ("" the default server), when in tmux
	Pane   string `json:"pane,omitempty"`   // %N, when in tmux
}

// AdoptedID is the session id of the conversation an agent's own session
// id names: every hook of it gives the same one.
func AdoptedID(agent, providerSessionID string) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	h := fnv.New64a()
	_, _ = h.Write([]byte(agent + "\x00" + providerSessionID))
	v := h.Sum64()
	b := make([]byte, 8)
	for i := range b {
		b[i] = alphabet[v%uint64(len(alphabet))]
		v /= uint64(len(alphabet))
	}
	return string(b)
}

// adopted makes the record an adopting line asks for: named after its
// dir (suffixed on a clash with a live session, a record's id, or a name
// that would read as an id), idle until its events say more.
func (c *cycleTx) adopted(l Line) *Record {
	base := filepath.Base(filepath.Clean(l.Adopt.Dir))
	if !ValidName(base) || l.Adopt.Dir == "" {
		base = l.Agent
	}
	name := base
	for n := 2; ; n++ {
		if NameTaken(c.records, name) == nil {
			break
		}
		name = base + "-" + strconv.Itoa(n)
	}
	r := &Record{ID: l.Session, Name: name, Agent: Agent(l.Agent), Dir: l.Adopt.Dir, CreatedAt: l.At, Adopted: true,
		Runtime:  Runtime{Socket: l.Adopt.Socket, PaneID: l.Adopt.Pane, PaneStartedAt: l.At, Source: "adopt", At: l.At},
		Activity: ActivityFacts{State: ActivityIdle, Since: l.At, Source: "adopt", HooksReport: true}}
	if !ValidPaneID(r.Runtime.PaneID) {
		r.Runtime.PaneID, r.Runtime.Socket = "", ""
	}
	c.records = append(c.records, r)
	c.byID[r.ID] = r
	c.dirty[r.ID] = true
	return r
}

// ValidPaneID reports tmux's %N pane id shape: state's check of a pane id
// that comes from outside tmux (a hook's $TMUX_PANE, a spool line). The
// same shape as tmux.isID, which the tmux client checks what tmux says
// with; state may not import tmux (docs/design.md §1), so it has its own.
func ValidPaneID(s string) bool {
	if len(s) < 2 || s[0] != '%' {
		return false
	}
	for _, c := range []byte(s[1:]) {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// observeAdopted reads an adopted session's pane, found by its id on its
// server (it carries no @lanes_id). A pane that is gone, or runs another
// process than the one first seen there (tmux numbers panes afresh when a
// server starts again), ends the record as any gone session's.
func (c *cycleTx) observeAdopted(r *Record, byPane map[string]*Observation, readStart time.Time) {
	o, ok := byPane[r.Runtime.PaneID]
	if !ok || r.Pane.PID != 0 && o.PID != r.Pane.PID && !o.Dead {
		c.gone(r, readStart)
		return
	}
	r.Runtime.GoneSeenAt = time.Time{}
	r.Runtime.SessionID = o.SessionID
	c.applyPane(r, *o, readStart) // never closed by lanes: not its session
}
