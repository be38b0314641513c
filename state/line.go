package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// LineVersion is the spool line format version written by `lanes hook`.
const LineVersion = 1

// MaxLineBytes is the longest spool line ingest accepts.
const MaxLineBytes = 64 << 10

// Line is one spool line: what `lanes hook` (or `lanes pr`) appends to
// $STATE/spool/<id>.jsonl. It keeps only the fields docs/design.md §6 names —
// never prompt text, messages, tool input or transcripts.
type Line struct {
	V       int       `json:"v"`
	At      time.Time `json:"at"`
	Session string    `json:"session"`
	Launch  string    `json:"launch,omitempty"`
	Agent   string    `json:"agent"` // claude, codex, gemini, opencode, generic, lanes
	Event   string    `json:"event"` // the agent's own event name

	ProviderSessionID string `json:"provider_session_id,omitempty"`
	Source            string `json:"source,omitempty"`
	Reason            string `json:"reason,omitempty"`
	ToolName          string `json:"tool_name,omitempty"`
	ToolUseID         string `json:"tool_use_id,omitempty"`
	NotificationType  string `json:"notification_type,omitempty"`
	IsInterrupt       bool   `json:"is_interrupt,omitempty"`
	AgentID           string `json:"agent_id,omitempty"`
	Type              string `json:"type,omitempty"` // Codex notify payload type
	Status            string `json:"status,omitempty"`

	PR *PR `json:"pr,omitempty"` // agent "lanes", event "pr"
}

// Reasons a line or event is dropped; the keys of the dropped counters.
const (
	DropBadJSON      = "bad_json"
	DropBadVersion   = "bad_version"
	DropTooLong      = "too_long"
	DropBadUTF8      = "bad_utf8"
	DropUnknownSess  = "unknown_session"
	DropUnknownEvent = "unknown_event"
	DropStaleLaunch  = "stale_launch"
	DropTerminated   = "terminated"
	DropAfterExit    = "after_exit"
)

// CounterBadSpoolFile counts spool files refused whole (a bad name, a
// symlink, not a regular file), each once.
const CounterBadSpoolFile = "bad_spool_file"

// ErrMalformed wraps every reason ParseLine refuses a line.
var ErrMalformed = errors.New("malformed spool line")

// ParseLine decodes one spool line (without its newline). The error names
// the drop reason.
func ParseLine(b []byte) (Line, string, error) {
	var l Line
	switch {
	case len(b) > MaxLineBytes:
		return l, DropTooLong, fmt.Errorf("%w: %d bytes", ErrMalformed, len(b))
	case !utf8.Valid(b):
		return l, DropBadUTF8, fmt.Errorf("%w: invalid UTF-8", ErrMalformed)
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return l, DropBadJSON, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if l.V != LineVersion {
		return l, DropBadVersion, fmt.Errorf("%w: version %d", ErrMalformed, l.V)
	}
	if !ValidID(l.Session) {
		return l, DropUnknownSess, fmt.Errorf("%w: session %q", ErrMalformed, l.Session)
	}
	return l, "", nil
}
