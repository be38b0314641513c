package state

import "time"

// EventKind is one of the activity transitions of docs/design.md §4, after an
// agent's own event vocabulary has been mapped by its adapter.
type EventKind string

// The event kinds the activity state machine understands.
const (
	// KindTurnStart: the human handed the agent a turn (UserPromptSubmit,
	// Gemini BeforeAgent, generic active).
	KindTurnStart EventKind = "turn_start"
	// KindTurnEnd: the agent finished its turn (Stop, agent-turn-complete,
	// AfterAgent, generic idle), or gave it up (StopFailure: an API error,
	// rate limit, billing). Outcome may say cancellation or failure.
	KindTurnEnd EventKind = "turn_end"
	// KindToolStart: a tool call began (ToolUseID when known).
	KindToolStart EventKind = "tool_start"
	// KindToolEnd: a tool call completed or failed (ToolUseID when known).
	KindToolEnd EventKind = "tool_end"
	// KindWorking: the agent shows it is working without a turn or tool
	// boundary (Gemini Before/AfterModel, OpenCode session.status busy).
	KindWorking EventKind = "working"
	// KindAsk: the agent asks the human a question (AskUserQuestion,
	// elicitation_dialog, generic waiting_input). ToolUseID names the asking
	// call when the question is itself a tool call.
	KindAsk EventKind = "ask"
	// KindBlock: the agent waits for a permission (PermissionRequest,
	// permission_prompt, generic blocked).
	KindBlock EventKind = "block"
	// KindIdlePrompt: the agent's UI says it waits at its prompt
	// (Notification idle_prompt); only moves active → idle.
	KindIdlePrompt EventKind = "idle_prompt"
	// KindSessionStart: the agent process started or resumed (Source says how).
	KindSessionStart EventKind = "session_start"
	// KindAgentExit: the agent process ended (SessionEnd, generic exited).
	KindAgentExit EventKind = "agent_exit"
	// KindSubagentStart and KindSubagentStop maintain the live subagent roster.
	KindSubagentStart EventKind = "subagent_start"
	KindSubagentStop  EventKind = "subagent_stop"
	// KindSignal: a recognised event that changes no activity but proves the
	// hooks work (PreCompact, for example).
	KindSignal EventKind = "signal"
	// KindAnswered: the witness saw the dialog close while the pane kept
	// drawing: the human approved, the tool runs (docs/design.md §11).
	KindAnswered EventKind = "answered"
	// KindPR: a PR fact (from `lanes pr`); never fenced by launch.
	KindPR EventKind = "pr"
	// KindUsage: what the agent spent on a message (OpenCode's hooks say
	// it; the others' records are read, usage.go); never an activity.
	KindUsage EventKind = "usage"
)

// Event is one input to the activity state machine.
type Event struct {
	Kind   EventKind
	At     time.Time
	Launch string // the launch id the agent was started with
	Source string // provenance, e.g. "hook:claude"

	ToolUseID         string
	SessionSource     string  // SessionStart source: startup, resume, clear, compact
	AgentID           string  // subagent id
	Outcome           Outcome // for turn end: cancellation or failure
	ProviderSessionID string
	Detail            string // the agent's own event name, for the history
	// Content (docs/design.md §2): the tool and its input's summary, a
	// dialog's question, the last assistant message's start.
	ToolName, ToolInput, Question, Message string
	CallSum                                string // the call as its dialog prints it, digested
	// Dialog: an ask or block the agent shows as a TUI dialog that Enter
	// would answer (docs/design.md §4, §11).
	Dialog bool
	// SoftEnd: a turn end the agent also reports while it waits on a
	// dialog or mid-turn (Codex's notify); it ends no turn while a dialog
	// shows, nor once a hook started a turn in this launch (its hooks run,
	// so its own turn end will come).
	SoftEnd bool
	// Queues: a turn start that, arriving while a turn runs, is a prompt
	// the agent queued as a turn of its own after that one (Claude Code
	// fires UserPromptSubmit when a prompt is typed into a busy pane).
	Queues bool
	// AtPrompt: the agent says it waits at its prompt, which it says only
	// with nothing open (Qwen Code's idle_prompt): a dialog the card
	// shows was answered no, or dismissed.
	AtPrompt bool
	// Runs: a tool start the agent reports only once the call may run, so
	// the start of the call a dialog asked about says it was approved
	// (Qwen Code's PreToolUse, after its PermissionRequest).
	Runs bool
	// TurnID: the agent's id for the turn (Qwen Code's); a turn end
	// naming another than the turn a hook started ended a turn the agent
	// started with no hook (its task notifications): an automatic one.
	TurnID string
	PR     *PR // for KindPR
	// Transcript: the agent's record of the session, where its usage is
	// read (usage.go).
	Transcript string
	Usage      *UsageLine // for KindUsage

	// Background work (background.go): what runs (nil: not said), what
	// a tool left running, the task an automatic turn reports the end of.
	Background      *[]string
	BackgroundStart string
	TaskDone        string
	// Automatic: a turn the agent started by itself, no human (§4).
	Automatic bool
	// Scheduled: digests of the prompts it will submit by itself (nil: not
	// said); PromptSum: the submitted prompt's (scheduled.go).
	Scheduled *[]string
	PromptSum string
	// Failure is why a failed turn failed, in a few words ("rate
	// limited"), where the agent says.
	Failure string
	// Reply is the answer the agent says its dialog took (ReplyYes…),
	// where its event says.
	Reply string
	// Retry is what the agent's event says it retries ("rate limited,
	// attempt 2"; retry.go), where it says.
	Retry string
}
