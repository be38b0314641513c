package theme

import (
	"strconv"
	"strings"
	"time"

	"lanes/state"
)

// Spec is how one state is presented wherever it appears: its colour role,
// a single-cell glyph, a short label for badges and dots, a long label for
// help and detail views, and whether it animates.
type Spec struct {
	Role     Role
	Glyph    string
	Short    string
	Long     string
	Animates bool
}

// Statuses that share a role differ in glyph and label, so a monochrome or
// colour-blind reader still tells them apart.
var statusSpecs = map[state.Status]Spec{
	state.StatusWorking:          {RoleWorking, "●", "Working", "Agent is working on a turn", true},
	state.StatusIdle:             {RoleIdle, "○", "Idle", "Agent is idle, nothing pending", false},
	state.StatusNeedsInput:       {RoleNeeds, "◆", "Needs input", "Agent is waiting for your answer or permission", false},
	state.StatusExited:           {RoleDanger, "■", "Exited", "Agent exited; its pane is kept for inspection", false},
	state.StatusNoSignal:         {RoleUnknown, "⊘", "No signal", "No hook event since launch; hooks may not be installed", false},
	state.StatusCIFailed:         {RoleDanger, "✗", "CI failed", "An open PR's CI is failing", false},
	state.StatusConflicting:      {RoleDanger, "≠", "Conflicts", "An open PR cannot merge: it conflicts with its base", false},
	state.StatusChangesRequested: {RoleNeeds, "↺", "Changes", "Changes were requested on an open PR", false},
	state.StatusDraft:            {RoleReview, "◌", "Draft", "An open PR is still a draft", false},
	state.StatusReviewPending:    {RoleReview, "◐", "Review", "An open PR is waiting for review", false},
	state.StatusPROpen:           {RoleReview, "◎", "PR open", "A PR is open", false},
	state.StatusApproved:         {RoleReady, "✓", "Approved", "An open PR is approved", false},
	state.StatusMergeable:        {RoleReady, "⇡", "Mergeable", "An open PR is approved and can be merged", false},
	state.StatusMerged:           {RoleMerged, "★", "Merged", "A PR from this session was merged", false},
	state.StatusTerminated:       {RoleTerminated, "□", "Terminated", "Session ended; its record is kept", false},
	state.StatusUnknown:          {RoleUnknown, "?", "Unknown", "State unknown: tmux unreachable or facts invalid", false},
}

var activitySpecs = map[state.Activity]Spec{
	state.ActivityActive:       {RoleWorking, "●", "Active", "Agent is working", true},
	state.ActivityIdle:         {RoleIdle, "○", "Idle", "Agent is idle", false},
	state.ActivityWaitingInput: {RoleNeeds, "◆", "Waiting", "Agent is asking you a question", false},
	state.ActivityBlocked:      {RoleNeeds, "▲", "Blocked", "Agent is blocked on a permission", false},
	state.ActivityExited:       {RoleDanger, "■", "Exited", "Agent process exited", false},
	state.ActivityUnknown:      {RoleUnknown, "?", "Unknown", "No valid activity recorded", false},
}

var zoneSpecs = map[state.Zone]Spec{
	state.ZoneWorking:      {RoleWorking, "●", "Working", "Agents working now, with the idle stack below", false},
	state.ZoneNeedsYou:     {RoleNeeds, "◆", "Needs you", "Sessions waiting on you", false},
	state.ZoneInReview:     {RoleReview, "◐", "In review", "PRs waiting on review", false},
	state.ZoneReadyToMerge: {RoleReady, "⇡", "Ready to merge", "PRs ready to merge, and merged PRs of live sessions", false},
	state.ZoneDone:         {RoleTerminated, "□", "Done", "Terminated sessions", false},
}

var markSpecs = map[state.Mark]Spec{
	state.MarkFailed:      {RoleDanger, "✗", "Failed", "The last turn ended in a failure", false},
	state.MarkInterrupted: {RoleIdle, "‖", "Interrupted", "The last turn was interrupted", false},
	state.MarkUnconfirmed: {RoleUnknown, "…", "unconfirmed", "Working, but silent for over 10 minutes", false},
	state.MarkUnreachable: {RoleUnknown, "↯", "unreachable", "Its tmux server, or its host, is not answering", false},
	state.MarkStarting:    {RoleIdle, "◔", "starting", "lanes started it; tmux has not shown its session yet", false},
	// The card says what runs (state.BackgroundSays) where it has room.
	state.MarkBackground: {RoleWorking, "↻", "background", "Work the agent runs past its turn: background shells or subagents", false},
	// The card says why and which attempt (MarkShort) where it has room.
	state.MarkRetrying: {RoleNeeds, "⟲", "retrying", "The agent retries an API error by itself (rate limited, overloaded)", false},
	state.MarkMenu:     {RoleIdle, "≡", "in a menu", "Its pane shows one of the agent's menus (/resume, /model…): text sent would land in it", false},
	// The card says how full, or which window and when it resets.
	state.MarkContextFull: {RoleNeeds, "◕", "context full", "The model's context is over 90 % full", false},
	state.MarkLimitNear:   {RoleNeeds, "◒", "limit near", "One of the account's limit windows is over 90 % used", false},
}

// Muted is the mark of a session the user muted (m): entering Needs you
// notifies nobody. It is a fact about the session, not a Derive mark.
var Muted = Spec{RoleIdle, "∅", "muted", "Muted: entering Needs you notifies nobody (m toggles)", false}

// StatusSpec is how status s is presented; an unrecognised status is shown as
// unknown.
func StatusSpec(s state.Status) Spec {
	if sp, ok := statusSpecs[s]; ok {
		return sp
	}
	return statusSpecs[state.StatusUnknown]
}

// ActivitySpec is how raw activity a is presented (sidebar dots and activity
// pills); an unrecognised activity is shown as unknown.
func ActivitySpec(a state.Activity) Spec {
	if sp, ok := activitySpecs[a]; ok {
		return sp
	}
	return activitySpecs[state.ActivityUnknown]
}

// ZoneSpec is how zone z's lane header is presented. An unrecognised zone
// keeps its own name and is coloured unknown.
func ZoneSpec(z state.Zone) Spec {
	if sp, ok := zoneSpecs[z]; ok {
		return sp
	}
	return Spec{Role: RoleUnknown, Glyph: "?", Short: string(z), Long: "Unknown zone " + string(z)}
}

// MarkSpec is how mark m is presented beside a status. An unrecognised mark
// keeps its own name and is coloured unknown.
func MarkSpec(m state.Mark) Spec {
	if sp, ok := markSpecs[m]; ok {
		return sp
	}
	return Spec{Role: RoleUnknown, Glyph: "?", Short: string(m), Long: "Unknown mark " + string(m)}
}

// MarkShort is mark m's label on r's line (short: on its card): the
// background mark says what runs ("2 background agents"; "2 agents"
// beside its glyph), the others their Short.
func MarkShort(m state.Mark, r *state.Record, short bool) string {
	switch a := r.Activity; {
	case m == state.MarkBackground && state.BackgroundSays(a.Background, short) != "":
		return state.BackgroundSays(a.Background, short)
	case m == state.MarkRetrying && a.Retry != "" && short:
		if _, n, ok := strings.Cut(a.Retry, "attempt "); ok {
			return "retrying " + n // "retrying 6/10": a card is narrow
		}
		return "retrying"
	case m == state.MarkRetrying && a.Retry != "":
		return "retrying (" + a.Retry + ")" // "retrying (rate limited, attempt 6/10)"
	case m == state.MarkFailed && a.Failure != "":
		return MarkSpec(m).Short + ": " + a.Failure // "Failed: rate limited"
	case m == state.MarkContextFull:
		if p, ok := r.Usage.ContextPct(); ok {
			return "context " + strconv.Itoa(int(p)) + "%" // "context 93%"
		}
	case m == state.MarkLimitNear:
		if l, ok := r.Usage.NearLimit(time.Time{}); ok {
			return limitSays(l, short)
		}
	}
	return MarkSpec(m).Short
}

// saySpecs are the cues of what a card says (state.Says): a glyph for
// each kind, so a tool, a question and a message read apart without colour.
var saySpecs = map[state.Say]Spec{
	state.SayTool:       {RoleWorking, "▸", "Tool", "The tool the agent runs now, and its input", false},
	state.SayAsk:        {RoleNeeds, "?", "Asks", "What the agent asks you: its question", false},
	state.SayPermission: {RoleNeeds, "?", "Allow?", "The tool the agent asks your permission to run, and its input", false},
	state.SayMessage:    {RoleIdle, "“", "Said", "The start of the agent's last message", false},
}

// SaySpec is how content of kind s is cued on a card; SayNothing (and an
// unknown kind) has no glyph.
func SaySpec(s state.Say) Spec {
	return saySpecs[s]
}

// limitSays is a limit window near its end as a card says it: "limit
// 95%", or with room "weekly limit 95% used, resets Fri 14:02" (local
// time).
func limitSays(l state.Limit, short bool) string {
	s := "limit " + strconv.Itoa(int(l.UsedPct)) + "%"
	if short {
		return s
	}
	s = WindowName(l) + " " + s + " used"
	if l.ResetsAt.IsZero() {
		return s
	}
	return s + ", resets " + l.ResetsAt.Local().Format("Mon 15:04")
}

// WindowName names a limit window by its length as people do ("5-hour",
// "weekly"), else by the agent's name for it (Codex's "primary").
func WindowName(l state.Limit) string {
	switch m := l.WindowMin; {
	case m == 7*24*60:
		return "weekly"
	case m == 24*60:
		return "daily"
	case m > 0 && m%60 == 0 && m < 24*60:
		return strconv.FormatInt(m/60, 10) + "-hour"
	case m > 0 && m%(24*60) == 0:
		return strconv.FormatInt(m/(24*60), 10) + "-day"
	case m > 0:
		return strconv.FormatInt(m, 10) + "-minute"
	}
	return l.Name
}
