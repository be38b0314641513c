package state

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Background work (docs/design.md §4): shells and subagents an agent runs
// past its turn. The record keeps what runs, each as "KIND:ID"; the hook
// payloads say when work starts (a tool's response), what still runs (a
// turn end's list) and when it is over (the turn the agent starts by itself
// to report it). Read from Claude Code's payloads, whose shapes Codex
// copies (testdata/real/harness/claude/background_*).

// The kinds of background work.
const (
	BackgroundShell = "shell"
	BackgroundAgent = "agent"
)

// BackgroundMax bounds the background work a record keeps.
const BackgroundMax = 32

// backgroundIDMax bounds one id (Claude Code's are 9 to 17 characters);
// subagentIDMax one subagent's a turn waits for, whatever its shape.
const (
	backgroundIDMax = 64
	subagentIDMax   = 128
)

// BackgroundCount is how many of work are of kind.
func BackgroundCount(work []string, kind string) int {
	n := 0
	for _, w := range work {
		if strings.HasPrefix(w, kind+":") {
			n++
		}
	}
	return n
}

// backgroundEntry is kind:id, "" when the id is not one lanes keeps
// (empty, too long, or other than letters, digits, '-', '_' and '.').
func backgroundEntry(kind, id string) string {
	if id == "" || len(id) > backgroundIDMax {
		return ""
	}
	for _, c := range []byte(id) {
		if !isLower(c) && !isDigit(c) && !(c >= 'A' && c <= 'Z') && c != '-' && c != '_' && c != '.' {
			return ""
		}
	}
	return kind + ":" + id
}

// BackgroundList is the background work a payload's background_tasks says
// runs (Claude Code's Stop: [{id, type: "shell" or "subagent", status}];
// Qwen Code's lists subagents only: [{id, status, agent_type}]); nil when
// the payload has no such list, so "says nothing" and "nothing runs"
// differ.
func BackgroundList(raw json.RawMessage) *[]string {
	var tasks []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &tasks) != nil {
		return nil
	}
	out := []string{}
	for _, one := range tasks {
		var t struct {
			ID, Type, Status string
			AgentType        string `json:"agent_type"`
		}
		if json.Unmarshal(one, &t) != nil {
			continue // one entry lanes cannot read says nothing of the others
		}
		kind := BackgroundShell
		if t.Type == "subagent" || t.Type == "agent" || t.Type == "" && t.AgentType != "" {
			kind = BackgroundAgent
		}
		if t.Status == "running" {
			out = withBackground(out, backgroundEntry(kind, t.ID))
		}
	}
	return &out
}

// BackgroundStarted is the work a tool's response says it left running:
// a shell's backgroundTaskId (run_in_background, or Ctrl-B twice on a
// running command), a subagent started with isAsync and its agentId; ""
// when none.
func BackgroundStarted(raw json.RawMessage) string {
	var r struct {
		BackgroundTaskID string `json:"backgroundTaskId"`
		IsAsync          bool   `json:"isAsync"`
		AgentID          string `json:"agentId"`
	}
	// A tool's response may be a whole file: most say nothing of this.
	if len(raw) == 0 || raw[0] != '{' || !bytes.Contains(raw, []byte(`"backgroundTaskId"`)) && !bytes.Contains(raw, []byte(`"isAsync"`)) ||
		json.Unmarshal(raw, &r) != nil {
		return ""
	}
	if r.IsAsync {
		return backgroundEntry(BackgroundAgent, r.AgentID)
	}
	return backgroundEntry(BackgroundShell, r.BackgroundTaskID)
}

// seeShells keeps as a's background shells the count s shows before
// m.Shells, for an agent only its screen says them of ("shell:screen-N";
// none when it shows none); the subagents its hooks said run (Qwen Code's
// background subagents) stay.
func (m Markers) seeShells(a *ActivityFacts, s Screen) {
	if m.Shells == "" {
		return
	}
	a.Background = slices.DeleteFunc(a.Background, func(w string) bool { return !strings.HasPrefix(w, BackgroundAgent+":") })
	at := s.last([]string{m.Shells})
	if at < 0 {
		return
	}
	head := strings.TrimRight(string(s[:at]), " ")
	digits := len(head) - len(strings.TrimRight(head, "0123456789"))
	n, _ := strconv.Atoi(head[len(head)-digits:])
	for i := 1; i <= min(n, BackgroundMax-len(a.Background)); i++ {
		a.Background = append(a.Background, screenShell+strconv.Itoa(i))
	}
}

// screenShell prefixes the background shells only a screen said.
const screenShell = BackgroundShell + ":screen-"

// taskNotification opens the prompt Claude Code submits by itself when
// background work ends; <task-id> names the work.
const taskNotification = "<task-notification>"

// taskDone opens the prompt OpenCode submits by itself when a background
// subagent ends: `<task id="ses_…" state="completed">`.
const taskDone = `<task id="`

// AutomaticPrompt reports whether a submitted prompt is one the agent wrote
// itself (a background task's notification), and the task whose end it
// reports. Nothing else of the prompt is kept.
func AutomaticPrompt(raw json.RawMessage) (auto bool, task string) {
	// A prompt may be a whole pasted file, on the hook's hot path: only
	// one that opens with a tag (its '<' raw, or escaped as encoders of
	// JSON may) is decoded.
	var p string
	opens := func(tag string) bool {
		return bytes.HasPrefix(raw, []byte(`"<`+tag)) || bytes.HasPrefix(raw, []byte(`"\u003c`+tag))
	}
	if !opens(strings.Trim(taskNotification, "<>")) && !opens(`task id=\"`) || json.Unmarshal(raw, &p) != nil {
		return false, ""
	}
	id := ""
	if _, rest, ok := strings.Cut(p, "<task-id>"); ok {
		id, _, _ = strings.Cut(rest, "</task-id>")
	} else if rest, ok := strings.CutPrefix(p, taskDone); ok {
		id, _, _ = strings.Cut(rest, `"`)
	}
	if backgroundEntry(BackgroundShell, id) != "" {
		task = id
	}
	return true, task
}

// background applies what e says of background work, and reports whether
// e is a background subagent's own work (its tools, its turn), which is
// not the session's and changes nothing else.
func (a *ActivityFacts) background(e Event) (theirs bool) {
	if e.Scheduled != nil {
		a.Scheduled = slices.Clone((*e.Scheduled)[:min(len(*e.Scheduled), ScheduledMax)])
	}
	if e.Background != nil {
		a.Background = keptBackground(*e.Background)
		// A subagent still running as its parent's turn ends (OpenCode's
		// background task) holds no turn.
		a.Subagents = slices.DeleteFunc(a.Subagents, func(s string) bool {
			return slices.Contains(a.Background, BackgroundAgent+":"+s)
		})
	}
	a.Background = withBackground(a.Background, e.BackgroundStart)
	if e.TaskDone != "" {
		a.Background = slices.DeleteFunc(a.Background, func(w string) bool { return w[strings.IndexByte(w, ':')+1:] == e.TaskDone })
	}
	if id, ok := strings.CutPrefix(e.BackgroundStart, BackgroundAgent+":"); ok {
		// A subagent sent to the background holds no turn.
		a.Subagents = slices.DeleteFunc(a.Subagents, func(s string) bool { return s == id })
	}
	if bg := a.lateSubagent(e); bg != "" {
		a.Background = withBackground(a.Background, bg)
		return true // background work, kept or past the bound: never the session's turn
	}
	if e.AgentID == "" || !slices.Contains(a.Background, BackgroundAgent+":"+e.AgentID) {
		return false
	}
	switch e.Kind {
	case KindToolStart, KindToolEnd, KindWorking, KindSubagentStart, KindSubagentStop, KindTurnEnd:
		return true
	}
	return false // it asks (a permission, a question): the human must answer
}

// isBackground reports whether w is an entry backgroundEntry makes: what
// a spool line says is another process's word.
func isBackground(w string) bool {
	kind, id, _ := strings.Cut(w, ":")
	return (kind == BackgroundShell || kind == BackgroundAgent) && backgroundEntry(kind, id) == w
}

// keptBackground is the entries of list lanes keeps: well formed, each
// once, at most BackgroundMax.
func keptBackground(list []string) []string {
	out := []string{}
	for _, w := range list {
		out = withBackground(out, w)
	}
	return out
}

// withBackground is work with w added, when w is well formed, not in it
// yet, and work has room: the one rule for every way work arrives.
func withBackground(work []string, w string) []string {
	if !isBackground(w) || slices.Contains(work, w) || len(work) >= BackgroundMax {
		return work
	}
	return append(work, w)
}

// lateSubagentWithin is how soon after its session's turn ended a
// subagent's start is still that turn's background work.
const lateSubagentWithin = 5 * time.Second

// lateSubagent is the background entry of a subagent that starts just
// after its session's turn ended: a foreground one starts inside a turn
// (OpenCode 1.18.33 reported its background task's child 20 ms after the
// parent's idle, whose background list was still empty). Later than that,
// a start from idle is a turn lanes did not hear begin (a dropped line, a
// session adopted mid-turn), and the subagent is the turn's: "".
func (a *ActivityFacts) lateSubagent(e Event) string {
	if e.Kind != KindSubagentStart || a.State != ActivityIdle || e.At.Sub(a.Since) > lateSubagentWithin {
		return ""
	}
	return backgroundEntry(BackgroundAgent, e.AgentID)
}

// keptFailure is the failure a turn end leaves: its own, else one an
// automatic turn kept unseen.
func keptFailure(a *ActivityFacts, e Event) string {
	switch {
	case e.Outcome == OutcomeFailure:
		return e.Failure
	case a.Unseen == OutcomeFailure:
		return a.Failure
	}
	return ""
}

// clearWork forgets what outlives turns: background work, an unseen
// outcome. The agent process it belonged to is gone or new.
func (a *ActivityFacts) clearWork() {
	a.Background, a.Automatic, a.Unseen, a.Failure = nil, false, OutcomeNone, ""
}

// BackgroundSays is what a line says of the work: "1 background job", "2
// background agents", "1 background job, 1 agent"; short, what a card
// says beside the mark's glyph: "1 job", "2 agents", "1 job, 1 agent";
// "" for none.
func BackgroundSays(work []string, short bool) string {
	jobs, agents := BackgroundCount(work, BackgroundShell), BackgroundCount(work, BackgroundAgent)
	n := func(k int, what string) string {
		if k != 1 {
			what += "s"
		}
		return strconv.Itoa(k) + " " + what
	}
	first := "background "
	if short {
		first = ""
	}
	switch {
	case jobs > 0 && agents > 0:
		return n(jobs, first+"job") + ", " + n(agents, "agent")
	case jobs > 0:
		return n(jobs, first+"job")
	case agents > 0:
		return n(agents, first+"agent")
	}
	return ""
}

// BackgroundOf is work of these counts, as another host's listing gives
// them (ids are that host's own).
func BackgroundOf(jobs, agents int) []string {
	var out []string
	for i := range min(jobs, BackgroundMax) {
		out = append(out, BackgroundShell+":"+strconv.Itoa(i+1))
	}
	for i := range min(agents, BackgroundMax-len(out)) {
		out = append(out, BackgroundAgent+":"+strconv.Itoa(i+1))
	}
	return out
}

// NeedsSeen reports whether r holds an outcome its human may not have
// seen: one kept over an automatic turn, or its last turn's since it
// was last looked at.
func NeedsSeen(r *Record) bool {
	a := &r.Activity
	return a.Unseen != OutcomeNone || a.Outcome != OutcomeNone && a.SeenAt.Before(a.Since)
}

// Seen records that the human looked at the session at at (attached to
// it, answered it, sent to it, or moved the board's selection onto it;
// docs/design.md §4): an outcome kept over automatic turns is let go.
func Seen(r *Record, at time.Time) {
	r.Activity.SeenAt, r.Activity.Unseen = at, OutcomeNone
}
