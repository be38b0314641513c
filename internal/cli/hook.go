package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanes/agent"
	"lanes/internal/fsafe"
	"lanes/internal/session"
	"lanes/state"
	"lanes/state/store"
)

// hookErrorsCap bounds hook-errors.log; past it the log starts over.
const hookErrorsCap = 256 << 10

// hookErrorsLog is where `lanes hook` writes its own failures.
func hookErrorsLog(stateDir string) string { return filepath.Join(stateDir, "hook-errors.log") }

// hookPayload is every input field a hook reads (docs/design.md §6); the
// decoder skips the rest, so prompts and transcripts never reach the spool,
// and of a tool's input, a question and a message only the summaries
// hookContent makes.
type hookPayload struct {
	HookEventName string `json:"hook_event_name"`
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	// Of a type other than said (a number for a path, a string for a
	// count), a value is passed over, never the event (text, usageOf).
	TranscriptPath   json.RawMessage `json:"transcript_path"`
	MessageID        json.RawMessage `json:"message_id"` // OpenCode's message.usage
	Usage            json.RawMessage `json:"usage"`
	Source           string          `json:"source"`
	Reason           string          `json:"reason"`
	ToolName         string          `json:"tool_name"`
	ToolUseID        string          `json:"tool_use_id"`
	NotificationType string          `json:"notification_type"`
	IsInterrupt      bool            `json:"is_interrupt"`
	AgentID          string          `json:"agent_id"`
	Type             string          `json:"type"`
	Status           string          `json:"status"`
	PromptID         json.RawMessage `json:"prompt_id"` // Qwen Code's turn id

	// Content (raw: a value of another type than lanes expects is
	// skipped, never the whole event).
	ToolInput            json.RawMessage `json:"tool_input"`
	Details              json.RawMessage `json:"details"` // Gemini's ToolPermission: what it asks to run
	Message              json.RawMessage `json:"message"` // a Notification's text
	LastAssistantMessage json.RawMessage `json:"last_assistant_message"`
	PromptResponse       json.RawMessage `json:"prompt_response"`        // Gemini's AfterAgent
	CodexLastMessage     json.RawMessage `json:"last-assistant-message"` // Codex's notify

	// Background work and automatic turns (state/background.go): read for
	// the ids and the prompt's opening tag, never kept whole.
	ToolResponse    json.RawMessage `json:"tool_response"`
	Error           json.RawMessage `json:"error"` // Claude's StopFailure: what failed (rate_limit…)
	BackgroundTasks json.RawMessage `json:"background_tasks"`
	Prompt          json.RawMessage `json:"prompt"`
	SessionCrons    json.RawMessage `json:"session_crons"`
}

// text is raw as a string, "" when it is not one.
// payloadUsage is a message's usage as OpenCode's plugin sends it.
type payloadUsage struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cache_read"`
	CacheWrite float64 `json:"cache_write"`
	Cost       float64 `json:"cost"` // US dollars
}

// usageOf is a payload's usage as a spool line carries it; nil for none,
// or for one that is not numbers.
func usageOf(raw json.RawMessage, msg string) *state.LineUsage {
	var u payloadUsage
	if len(raw) == 0 || json.Unmarshal(raw, &u) != nil {
		return nil
	}
	n := func(f float64) int64 { return int64(min(max(f, 0), state.CountMax)) } // bounded before it is an int
	return &state.LineUsage{Msg: msg, In: n(u.Input), Out: n(u.Output), CacheRead: n(u.CacheRead),
		CacheWrite: n(u.CacheWrite), CostMicros: n(math.Round(u.Cost * 1e6))}
}

func text(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// hookContent is what a card says about the event (docs/design.md §2):
// the summary of the tool's input, the question a dialog asks, the start
// of the last assistant message. Only these summaries are kept.
func hookContent(p hookPayload) (toolInput, question, message string) {
	toolInput = cmp.Or(state.ToolSummary(p.ToolInput), state.ToolSummary(p.Details))
	question = state.AskQuestion(p.ToolInput)
	if question == "" && p.NotificationType == "elicitation_dialog" {
		question = state.Summary(text(p.Message), state.MessageMax) // an MCP server's question
	}
	message = state.MessageSummary(cmp.Or(text(p.LastAssistantMessage), text(p.PromptResponse), text(p.CodexLastMessage)))
	return toolInput, question, message
}

// cmdHook is what agents' hooks run. It appends one spool line with one
// write and exits 0 whatever happens: it never opens the store, never waits
// on a lock and never prints to the agent's terminal. Its own failures go to
// $STATE/hook-errors.log.
func (a *app) cmdHook(_ context.Context, args []string) int {
	h, err := parseHookArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(a.stdout, strings.Replace(hookHelp, "@AGENTS@", orList(hookAgents()), 1))
		return exitOK
	}
	dir, _ := a.stateDir()
	if err == nil {
		err = a.hook(dir, h)
	}
	if err != nil && dir != "" {
		logHookError(dir, a.now(), err)
	}
	return exitOK
}

// hookArgs is `lanes hook`'s command line.
type hookArgs struct {
	agent, event, payload string
	session               string // --session
	installed             bool   // agent.InstalledFlag: run from the agent's own config
}

// parseHookArgs reads the hook's command line by parseArgs' rules, with the
// hook's one special case: a third positional argument or more is Codex's
// notify payload, the last of them. Nothing is printed: a mistake goes to
// the hook's log.
func parseHookArgs(args []string) (hookArgs, error) {
	var h hookArgs
	fs := flag.NewFlagSet("lanes hook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&h.session, "session", "", "")
	fs.BoolVar(&h.installed, strings.TrimLeft(agent.InstalledFlag, "-"), false, "")
	if _, err := parseArgs(fs, args, -1); err != nil {
		return h, fmt.Errorf("lanes hook: %w", err)
	}
	pos := fs.Args()
	if len(pos) == 0 {
		return h, fmt.Errorf("lanes hook: no AGENT given (want one of %s)", strings.Join(hookAgents(), ", "))
	}
	h.agent = pos[0]
	if len(pos) > 1 {
		h.event = pos[1]
	}
	if len(pos) > 2 {
		h.payload = pos[len(pos)-1]
	}
	return h, nil
}

const hookHelp = `Usage: lanes hook AGENT [EVENT] [--session NAME] [PAYLOAD]

Record one agent event in the session's spool. Agents' hooks run this; it
reads the hook's JSON payload on stdin (Codex notify: the last argument),
appends one line to $LANES_STATE_DIR/spool/<id>.jsonl, and always exits 0.
Failures are written to $LANES_STATE_DIR/hook-errors.log (see lanes doctor).

AGENT is @AGENTS@. EVENT may be left out
when the payload names it (hook_event_name). The hook reads one JSON value,
not to EOF; with EVENT given it waits at most 2 s for stdin to say anything,
and never more than 10 s for a payload. For generic, EVENT is an
activity: active, idle, waiting_input, blocked or exited.

The session comes from $LANES_SESSION and $LANES_LAUNCH (set by lanes new),
else from the pane index by $TMUX_PANE, else from --session NAME (manual use;
targets the session's current launch).
`

func (a *app) hook(dir string, h hookArgs) error {
	ag, event, named, payloadArg, installed := h.agent, h.event, h.session, h.payload, h.installed
	if !slices.Contains(hookAgents(), ag) {
		return fmt.Errorf("lanes hook: unknown agent %q (want one of %s)", ag, strings.Join(hookAgents(), ", "))
	}
	// Hooks installed in the agent's own config stand down inside sessions
	// whose hooks lanes injected at launch, so nothing is recorded twice.
	if installed && a.getenv(agent.EnvInjected) == "1" {
		return nil
	}

	// With no usable state dir there is nowhere to write: return before
	// waiting on stdin, unless lanes' hook stands in for a program of the
	// user's (Codex's notify), which still runs.
	chain := agent.Chained(state.Agent(ag), event, a.getenv)
	if dir == "" && chain == nil {
		return nil
	}

	var p hookPayload
	raw, err := a.payload(ag, payloadArg, event != "")
	if err != nil {
		return fmt.Errorf("lanes hook %s: %w", strings.TrimSpace(ag+" "+event), err)
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("lanes hook %s: payload is not JSON: %v", strings.TrimSpace(ag+" "+event), err)
		}
	}
	if event == "" {
		event = p.HookEventName
	}
	if event == "" {
		return fmt.Errorf("lanes hook %s: no EVENT given and the payload has no hook_event_name", ag)
	}
	if chain != nil {
		// Not waited for: the agent waits on the hook.
		_ = exec.Command(chain[0], append(chain[1:], string(raw))...).Start()
	}

	if dir == "" {
		return nil // no usable state dir: write nowhere (not even the working dir)
	}
	id, launch, err := a.hookSession(dir, named)
	var adopt *state.Adopt
	if errors.Is(err, errNotInSession) && p.SessionID != "" && ag != "generic" {
		// An agent lanes did not start, whose installed hooks report it:
		// a session of its own, keyed by its own session id (§13).
		id, adopt, err = state.AdoptedID(ag, p.SessionID), a.adoptHere(p), nil
		if _, gone := os.Stat(session.ForgottenMark(dir, id)); gone == nil {
			return nil // `lanes rm` forgot it
		}
	}
	if err != nil {
		return fmt.Errorf("lanes hook %s %s: %w", ag, event, err)
	}
	l := state.Line{
		V: state.LineVersion, At: a.now().UTC(), Session: id, Launch: launch, Agent: ag, Event: event,
		ProviderSessionID: p.SessionID, Source: p.Source, Reason: cmp.Or(p.Reason, text(p.Error)), ToolName: p.ToolName,
		ToolUseID: p.ToolUseID, NotificationType: p.NotificationType, IsInterrupt: p.IsInterrupt,
		AgentID: p.AgentID, Type: p.Type, Status: p.Status, TurnID: text(p.PromptID), NoPrompt: string(p.Prompt) == `""`, Adopt: adopt,
	}
	if !state.Off(a.getenv(state.EnvContent)) {
		l.ToolInput, l.Question, l.Message = hookContent(p)
	}
	// A digest, not content: what answers from lanes check the screen by.
	l.CallSum = agent.CallSum(state.Agent(ag), p.ToolName, p.ToolInput, p.Details)
	l.Background, l.BackgroundStart = state.BackgroundList(p.BackgroundTasks), state.BackgroundStarted(p.ToolResponse)
	l.Automatic, l.TaskDone = state.AutomaticPrompt(p.Prompt)
	l.Scheduled, l.PromptSum = state.ScheduledList(p.SessionCrons), state.PromptSum(p.Prompt)
	if path := text(p.TranscriptPath); state.ValidTranscript(path) { // where its usage is read: a path, never what it holds
		l.Transcript = path
	}
	l.Usage = usageOf(p.Usage, text(p.MessageID))
	if err := store.AppendLine(dir, l); err != nil {
		return fmt.Errorf("lanes hook %s %s: appending to the spool of %s: %w", ag, event, id, err)
	}
	return nil
}

// hookSession finds the session: the environment lanes passed at spawn, else
// the pane index by $TMUX_PANE, else --session (nameOrID: an id, or a name
// by its index). No tmux call and no store.
func (a *app) hookSession(dir, nameOrID string) (id, launch string, err error) {
	if id := a.getenv(agent.EnvSession); id != "" && nameOrID == "" {
		return id, a.getenv(agent.EnvLaunch), nil
	}
	if socket, pane, ok := a.tmuxHere(); ok && nameOrID == "" {
		if b, err := os.ReadFile(store.PaneIndex(dir, socket, pane)); err == nil {
			if f := strings.Fields(string(b)); len(f) == 2 && state.ValidID(f[0]) {
				return f[0], f[1], nil
			}
		}
	}
	switch {
	case nameOrID == "":
		return "", "", errNotInSession
	case state.ValidName(nameOrID):
		// A name first, then an id (docs/design.md §2): a name may look like one.
		b, err := os.ReadFile(session.NameIndex(dir, nameOrID))
		switch id := strings.TrimSpace(string(b)); {
		case err == nil && state.ValidID(id):
			return id, "", nil
		case state.ValidID(nameOrID):
			return nameOrID, "", nil
		}
		return "", "", fmt.Errorf("no session named %q in %s", nameOrID, dir)
	}
	return "", "", fmt.Errorf("invalid --session %q", nameOrID)
}

// errNotInSession: no lanes session is named by the environment, and no
// --session was given.
var errNotInSession = errors.New("not inside a lanes session ($LANES_SESSION unset, no pane index for $TMUX_PANE); use --session NAME")

// tmuxHere is the tmux server (its -L name, "" the default) and pane this
// hook runs in, from $TMUX and $TMUX_PANE; false outside tmux, or on a
// server started with -S elsewhere than tmux's own socket directory.
func (a *app) tmuxHere() (socket, pane string, ok bool) {
	pane = a.getenv("TMUX_PANE")
	path, _, _ := strings.Cut(a.getenv("TMUX"), ",")
	if !state.ValidPaneID(pane) || path == "" {
		return "", "", false
	}
	tmpdir := cmp.Or(a.getenv("TMUX_TMPDIR"), "/tmp")
	own := filepath.Join(tmpdir, "tmux-"+strconv.Itoa(os.Getuid()))
	if dir := filepath.Dir(path); dir != own {
		// tmux names its socket by the resolved path (/private/tmp on macOS).
		if real, err := filepath.EvalSymlinks(own); err != nil || real != dir {
			return "", "", false
		}
	}
	if socket = filepath.Base(path); socket == "default" {
		socket = ""
	}
	return socket, pane, true
}

// adoptHere is where the agent of payload p runs: its working dir, and
// its tmux pane when it has one.
func (a *app) adoptHere(p hookPayload) *state.Adopt {
	ad := &state.Adopt{Dir: p.Cwd}
	if ad.Dir == "" {
		ad.Dir, _ = os.Getwd()
	}
	if socket, pane, ok := a.tmuxHere(); ok {
		ad.Socket, ad.Pane = socket, pane
	}
	return ad
}

// logHookError appends to the size-capped hook error log.
func logHookError(dir string, now time.Time, err error) {
	_ = os.MkdirAll(dir, 0o700)
	path := hookErrorsLog(dir)
	if fi, statErr := os.Lstat(path); statErr == nil && fi.Size() > hookErrorsCap {
		_ = os.Rename(path, path+".1")
	}
	_ = fsafe.Append(path, fmt.Appendf(nil, "%s %v\n", now.UTC().Format(time.RFC3339), err), 0o600)
}
