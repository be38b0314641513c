package state

// Activity is what the agent itself is doing, as reported by its hooks or
// observed from its pane. It is a stored fact.
type Activity string

// The stored activities. ActivityUnknown is a display fallback for missing or
// invalid data and is never stored.
const (
	ActivityActive       Activity = "active"
	ActivityIdle         Activity = "idle"
	ActivityWaitingInput Activity = "waiting_input"
	ActivityBlocked      Activity = "blocked"
	ActivityExited       Activity = "exited"
	ActivityUnknown      Activity = "unknown"
)

// Activities lists every activity a surface may have to show, in display order.
var Activities = []Activity{ActivityActive, ActivityIdle, ActivityWaitingInput, ActivityBlocked, ActivityExited, ActivityUnknown}

// ParseActivity maps s to a stored activity; anything else is ActivityUnknown.
func ParseActivity(s string) Activity {
	switch a := Activity(s); a {
	case ActivityActive, ActivityIdle, ActivityWaitingInput, ActivityBlocked, ActivityExited:
		return a
	}
	return ActivityUnknown
}

// Status is the derived, never stored, answer to "what is this session's
// state", computed by Derive.
type Status string

// The statuses Derive can return.
const (
	StatusWorking          Status = "working"
	StatusIdle             Status = "idle"
	StatusNeedsInput       Status = "needs_input"
	StatusExited           Status = "exited"
	StatusNoSignal         Status = "no_signal"
	StatusCIFailed         Status = "ci_failed"
	StatusConflicting      Status = "conflicting"
	StatusChangesRequested Status = "changes_requested"
	StatusDraft            Status = "draft"
	StatusReviewPending    Status = "review_pending"
	StatusPROpen           Status = "pr_open"
	StatusApproved         Status = "approved"
	StatusMergeable        Status = "mergeable"
	StatusMerged           Status = "merged"
	StatusTerminated       Status = "terminated"
	StatusUnknown          Status = "unknown"
)

// Statuses lists every status, in the order a legend shows them.
var Statuses = []Status{
	StatusWorking, StatusIdle, StatusNeedsInput, StatusExited, StatusNoSignal,
	StatusCIFailed, StatusConflicting, StatusChangesRequested, StatusDraft, StatusReviewPending,
	StatusPROpen, StatusApproved, StatusMergeable, StatusMerged, StatusTerminated,
	StatusUnknown,
}

// ParseStatus maps s to a status; anything else is StatusUnknown.
func ParseStatus(s string) Status {
	for _, st := range Statuses {
		if string(st) == s {
			return st
		}
	}
	return StatusUnknown
}

// Zone is the board lane a status belongs to.
type Zone string

// The zones, in board order.
const (
	ZoneWorking      Zone = "working"
	ZoneNeedsYou     Zone = "needs_you"
	ZoneInReview     Zone = "in_review"
	ZoneReadyToMerge Zone = "ready_to_merge"
	ZoneDone         Zone = "done"
)

// Zones lists the zones in board order.
var Zones = []Zone{ZoneWorking, ZoneNeedsYou, ZoneInReview, ZoneReadyToMerge, ZoneDone}

// Order is the zone's position on the board; unknown zones sort last.
func (z Zone) Order() int {
	for i, zz := range Zones {
		if zz == z {
			return i
		}
	}
	return len(Zones)
}

// Mark is a derived annotation shown beside a status.
type Mark string

// The marks Derive can return.
const (
	MarkUnconfirmed Mark = "unconfirmed"
	MarkFailed      Mark = "failed"
	MarkInterrupted Mark = "interrupted"
	MarkUnreachable Mark = "unreachable"
	MarkStarting    Mark = "starting"
	// MarkBackground: work the agent runs past its turn (background.go).
	MarkBackground Mark = "background"
	// MarkRetrying: the agent retries an API error by itself (retry.go).
	MarkRetrying Mark = "retrying"
	// MarkMenu: the idle pane shows one of the agent's menus (menus.go).
	MarkMenu Mark = "menu"
	// MarkContextFull: the model's context is over UsageNear percent full
	// (usage.go); MarkLimitNear: one of the account's limit windows is
	// over UsageNear percent used.
	MarkContextFull Mark = "context_full"
	MarkLimitNear   Mark = "limit_near"
)

// Marks lists every mark, in the order a legend shows them.
var Marks = []Mark{MarkFailed, MarkInterrupted, MarkRetrying, MarkLimitNear, MarkContextFull, MarkBackground, MarkMenu, MarkUnconfirmed, MarkUnreachable, MarkStarting}

// Outcome is how the agent's last turn ended, when known.
type Outcome string

// The outcomes; the empty Outcome means unknown (or a plain success).
const (
	OutcomeNone         Outcome = ""
	OutcomeFailure      Outcome = "failure"
	OutcomeCancellation Outcome = "cancellation"
)

// Agent names the program running in a session's pane.
type Agent string

// The agents that are not coding agents (those have a file each:
// claude.go, codex.go, …).
const (
	AgentShell  Agent = "shell"
	AgentCustom Agent = "custom"
)

// DefaultAgent is the agent `lanes new` runs when it is given none.
const DefaultAgent = AgentClaude

// Agents lists the agents `lanes new --agent` accepts (custom comes from `-- CMD`).
var Agents = append(CodingAgents(), AgentShell)

// PR vocabularies.
const (
	PRStateOpen   = "open"
	PRStateDraft  = "draft"
	PRStateMerged = "merged"
	PRStateClosed = "closed"

	ReviewNone             = "none"
	ReviewPending          = "pending"
	ReviewApproved         = "approved"
	ReviewChangesRequested = "changes_requested"

	CINone    = "none"
	CIPending = "pending"
	CIPassing = "passing"
	CIFailing = "failing"

	MergeableYes     = "yes"
	MergeableNo      = "no"
	MergeableUnknown = "unknown"
)

// PRStates, Reviews, CIs and Mergeables list the accepted PR fact values.
var (
	PRStates   = []string{PRStateOpen, PRStateDraft, PRStateMerged, PRStateClosed}
	Reviews    = []string{ReviewNone, ReviewPending, ReviewApproved, ReviewChangesRequested}
	CIs        = []string{CINone, CIPending, CIPassing, CIFailing}
	Mergeables = []string{MergeableYes, MergeableNo, MergeableUnknown}
)
