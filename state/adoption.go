package state

import (
	"errors"
	"hash/fnv"
)

// Sessions lanes did not start (docs/design.md §13): where they run, their
// ids, and when lanes may act on their panes.

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
