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

// MaxLineBytes is the longest spool line ingest accepts, and the longest
// EncodeLine writes.
const MaxLineBytes = 64 << 10

// MaxFieldBytes caps each text field of a spool line: no agent sends a tool
// name or reason near it, and a payload that does must still make a line
// that fits MaxLineBytes.
const MaxFieldBytes = 1 << 10

// LineStart opens every line EncodeLine writes ("v" is Line's first field).
// A string value cannot hold it (JSON escapes its quotes), so ingest finds a
// whole line glued behind a torn one by it.
var LineStart = []byte(`{"v":`)

// Line is one spool line: what `lanes hook` (or `lanes pr`) appends to
// $STATE/spool/<id>.jsonl. It keeps only the fields docs/design.md §6 names —
// never prompt text, transcripts, or a tool input or message whole.
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
	// TurnID is the agent's id for the turn its event belongs to, where
	// its hooks say (Qwen Code's prompt_id); NoPrompt: its prompt was
	// given and empty (Qwen Code's UserPromptSubmit before a model call
	// that goes on with the turn).
	TurnID   string `json:"turn_id,omitempty"`
	NoPrompt bool   `json:"no_prompt,omitempty"`

	// Content (docs/design.md §2), summaries the hook made: a tool
	// input's (≤ ToolInputMax runes), a dialog's question and the last
	// assistant message's start (≤ MessageMax).
	ToolInput string `json:"tool_input,omitempty"`
	Question  string `json:"question,omitempty"`
	Message   string `json:"message,omitempty"`
	// CallSum is the digest of the tool call as the agent's dialog prints
	// it (agent.CallSum), kept whatever LANES_CONTENT says: it shows
	// nothing.
	CallSum string `json:"call_sum,omitempty"`

	// Background work (background.go): what runs ("KIND:ID" each; nil:
	// the payload did not say), what a tool left running, the task whose
	// end an automatic turn reports. Automatic: the agent submitted the
	// prompt itself.
	Background      *[]string `json:"background,omitempty"`
	BackgroundStart string    `json:"background_start,omitempty"`
	TaskDone        string    `json:"task_done,omitempty"`
	Automatic       bool      `json:"automatic,omitempty"`
	// Scheduled: digests of the prompts the agent will submit by itself
	// (scheduled.go; nil: not said); PromptSum: the submitted prompt's.
	Scheduled *[]string `json:"scheduled,omitempty"`
	PromptSum string    `json:"prompt_sum,omitempty"`

	// Transcript is the agent's record of the session, as its hook named
	// it (transcript_path): where lanes reads usage (usage.go). Only a
	// ValidTranscript is kept.
	Transcript string `json:"transcript,omitempty"`

	// Usage is what the agent spent on one message, where its hooks say
	// (OpenCode's message.usage): numbers and the message's id only.
	Usage *LineUsage `json:"usage,omitempty"`

	PR *PR `json:"pr,omitempty"` // agent "lanes", event "pr"

	// Adopt: a hook outside any lanes session asks for a record of its
	// own (store/adopted.go); the first such line makes it.
	Adopt *Adopt `json:"adopt,omitempty"`
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
	l.eachText(func(s *string) { *s = CleanText(*s) })
	return l, "", nil
}

// EncodeLine is l as one spool line, without its newline: each text field is
// cut (at a rune boundary) until the line fits MaxLineBytes, so no payload
// can make a line that ingest refuses.
func EncodeLine(l Line) ([]byte, error) {
	if l.PR != nil {
		pr := *l.PR // cut a copy, not the caller's PR
		l.PR = &pr
	}
	if l.Adopt != nil {
		ad := *l.Adopt
		l.Adopt = &ad
	}
	if l.Usage != nil {
		u := *l.Usage
		l.Usage = &u
	}
	// JSON may spell a byte as six (\u0000), so a line of 1 KiB fields may
	// still be too long; a quarter of that always fits.
	for limit := MaxFieldBytes; ; limit /= 4 {
		l.eachText(func(s *string) { *s = cut(*s, limit) })
		b, err := json.Marshal(l)
		if err != nil || len(b) <= MaxLineBytes {
			return b, err
		}
		if limit < 64 {
			return nil, fmt.Errorf("spool line of %d bytes is over the %d-byte limit", len(b), MaxLineBytes)
		}
	}
}

// eachText calls f on every text field of the line: the one list that both
// the write-time cap and the read-time cleaning go through.
func (l *Line) eachText(f func(*string)) {
	for _, s := range []*string{&l.Session, &l.Launch, &l.Agent, &l.Event, &l.ProviderSessionID, &l.Source,
		&l.Reason, &l.ToolName, &l.ToolUseID, &l.NotificationType, &l.AgentID, &l.Type, &l.Status, &l.TurnID,
		&l.ToolInput, &l.Question, &l.Message, &l.BackgroundStart, &l.TaskDone, &l.Transcript} {
		f(s)
	}
	if l.PR != nil {
		for _, s := range []*string{&l.PR.URL, &l.PR.State, &l.PR.Review, &l.PR.CI, &l.PR.Mergeable,
			&l.PR.Base, &l.PR.Head, &l.PR.Source} {
			f(s)
		}
	}
	if l.Adopt != nil {
		for _, s := range []*string{&l.Adopt.Dir, &l.Adopt.Socket, &l.Adopt.Pane} {
			f(s)
		}
	}
	if l.Usage != nil {
		f(&l.Usage.Msg)
	}
}

// LineUsage is a message's usage as a hook line carries it (Tokens).
type LineUsage struct {
	Msg        string `json:"msg"`
	In         int64  `json:"in"`
	Out        int64  `json:"out"`
	CacheRead  int64  `json:"cache_read"`
	CacheWrite int64  `json:"cache_write"`
	CostMicros int64  `json:"cost_micros"`
}

// cut is s cut to at most n bytes, at a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
