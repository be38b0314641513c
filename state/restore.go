package state

import (
	"errors"
	"fmt"
	"time"
)

// Termination reasons the collector records (store/observe.go), which `lanes
// restore` reads: a gone session may be restored, a clean exit may not.
const (
	ReasonGone      = "tmux session gone"
	ReasonCleanExit = "agent exited cleanly (status 0)"
	// ReasonKilled: `lanes kill` (or the board's x) ended it.
	ReasonKilled = "killed by user"
	// ReasonNeverStarted: its `lanes new --worktree` was stopped before
	// tmux made the session; the record stays for its worktree.
	ReasonNeverStarted = "never started (lanes new was interrupted)"
)

// KillGrace: an answered read that finds the session still there this
// long after `lanes kill` set out (Runtime.KillingAt) says the kill did not
// happen (lanes was stopped before it asked tmux): the intent goes. Until
// then the session's end — found gone, or its server gone with it — is
// the kill's, however long tmux took to answer (a server stopped with the
// kill queued carries it out when it resumes).
const KillGrace = 5 * time.Second

// Killing records that `lanes kill` sets out to end r at at (or, at zero,
// that it did not), on the tmux server with process server as its own
// read found it (kept where no read of the collector's has said yet: the
// server exits with its last session, and its end is then the kill's).
func Killing(r *Record, at time.Time, server int) {
	r.Runtime.KillingAt = at
	if r.Runtime.ServerPID == 0 {
		r.Runtime.ServerPID = server
	}
}

// StillThere: an answered read at readStart found r's session.
func StillThere(r *Record, readStart time.Time) {
	if k := r.Runtime.KillingAt; !k.IsZero() && readStart.Sub(k) >= KillGrace {
		r.Runtime.KillingAt = time.Time{}
	}
}

// EndedBy is why r's session ended, found gone (or its server gone): the
// kill lanes set out to do, else why (reason, from source).
func EndedBy(r *Record, reason, source string) (string, string) {
	if !r.Runtime.KillingAt.IsZero() {
		return ReasonKilled, "user"
	}
	return reason, source
}

// Killed records that the user ended r at killed (reason ReasonKilled, or
// KilledWhileDown), as of at. The kill's fact wins whichever process saw
// the session go first: a read that found it gone after the kill (the
// board's, meanwhile) had ended it as ReasonGone, and that becomes the
// kill. Any other earlier end stands.
func Killed(r *Record, reason string, killed, at time.Time) *Transition {
	rt := &r.Runtime
	rt.KillingAt = time.Time{}
	if rt.Terminated && rt.TerminatedReason == ReasonGone && !rt.GoneSeenAt.Before(killed.Add(-ConfirmGap)) {
		rt.TerminatedReason, rt.Source = reason, "user"
		return &Transition{At: at, From: ActivityExited, To: ActivityExited, Source: "user", Detail: reason}
	}
	return Terminate(r, reason, "user", at)
}

// ErrNotRestorable: the session's end was not its tmux session going away
// (a reboot, a lost server), so `lanes restore` leaves it ended.
var ErrNotRestorable = errors.New("not restorable")

// RestoreWindow is how long after its session went away `lanes restore
// --all` still brings a session back; `lanes restore NAME` has no limit.
const RestoreWindow = 24 * time.Hour

// SessionError is why something was not done to one session: its name,
// then the reason ("api: not restorable: ..."). A line that names the
// session already (`lanes restore --all`'s) prints Reason alone.
type SessionError struct {
	Name   string
	Reason error
	// Verb: the reason reads on from the name ("api still has its tmux session"), with no
	// colon between.
	Verb bool
}

func (e *SessionError) Error() string {
	if e.Verb {
		return e.Name + " " + e.Reason.Error()
	}
	return e.Name + ": " + e.Reason.Error()
}

func (e *SessionError) Unwrap() error { return e.Reason }

// Restorable is nil when r's record allows a restore: a live session (its
// tmux session may be missing: the caller asks tmux), one terminated
// because its tmux session or server was gone, or, when the user named it
// (named: `lanes restore NAME`, the board's R, never --all), one they
// killed (that brings back the conversation they stopped), one being
// killed (a kill set out whose end no read has found yet), or one whose
// agent had exited before its server went. Anything else says why not.
func Restorable(r *Record, named bool) error {
	var why error
	switch {
	case r.Adopted:
		why = fmt.Errorf("%w: lanes did not start it (adopted), so it has no command of lanes' to run", ErrNotRestorable)
	case r.CommandLost():
		why = fmt.Errorf("%w: its command was lost in a damaged store; start a new session", ErrNotRestorable)
	case r.Runtime.TerminatedReason == ReasonServerExited && r.Pane.Dead && !named:
		why = fmt.Errorf("%w: its agent had exited before its tmux server went; `lanes restore %s` brings it back", ErrNotRestorable, r.ID)
	case !r.Runtime.Terminated && !r.Runtime.KillingAt.IsZero() && !named:
		// Its end not read yet: a kill lanes set out, carried out or not.
		why = fmt.Errorf("%w: it is being killed (the kill lanes set out to end it)", ErrNotRestorable)
	case !r.Runtime.Terminated, r.Runtime.TerminatedReason == ReasonGone, r.Runtime.TerminatedReason == ReasonServerExited:
		return nil
	case r.Runtime.TerminatedReason == ReasonKilled && named:
		return nil
	case r.Runtime.TerminatedReason == ReasonKilled:
		// By id: a live session may have its name since (a new-user
		// trial's hint named one, and that restore refused).
		why = fmt.Errorf("%w: it was killed; `lanes restore %s` brings it back", ErrNotRestorable, r.ID)
	case r.Runtime.TerminatedReason == ReasonCleanExit:
		why = fmt.Errorf("%w: its agent exited cleanly, so there is nothing to bring back; `lanes new %s` starts a new one", ErrNotRestorable, r.Name)
	default:
		why = fmt.Errorf("%w: it ended with %q, not with its tmux session gone", ErrNotRestorable, r.Runtime.TerminatedReason)
	}
	return &SessionError{Name: r.Name, Reason: why}
}

// Revive makes a restorable session (Restorable, named as there) live
// again, for `lanes restore`: the one place a termination is undone. The
// caller then restarts it (Restart) with a new launch.
func Revive(r *Record, named bool) error {
	if err := Restorable(r, named); err != nil {
		return err
	}
	rt := &r.Runtime
	rt.Terminated, rt.TerminatedReason, rt.TerminatedAt = false, "", time.Time{}
	rt.UnreachableSince, rt.GoneSeenAt, rt.ServerPID, rt.KillingAt = time.Time{}, time.Time{}, 0, time.Time{}
	return nil
}

// uuidShape is 8-4-4-4-12 hex digits. (Hand-written, as the agents'
// other shapes: this package is linked into the hook, where a regexp
// compiled at init costs every hook run.)
func uuidShape(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range []byte(s) {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !isDigit(c) && !('a' <= c && c <= 'f') && !('A' <= c && c <= 'F'):
			return false
		}
	}
	return true
}

// ResumeID is the agent's own session id to resume r's conversation by, or
// "" when there is none: no id captured, an id of a shape the agent would
// not take as an id (Claude reads any other text as a search in a picker,
// Gemini a number as a list position), or no turn ever started (Claude and
// Gemini report an id before the first prompt, and resuming a conversation
// without one fails: the id must be the one a turn last started under, or
// for Gemini CLI ended in (noteTurnSession), and a restored launch that
// resumed it reports the same id).
func ResumeID(r *Record) string {
	id := r.Activity.ProviderSessionID
	reading, ok := ReadingOf(r.Agent)
	if !ok || reading.ResumeShape == nil || !reading.ResumeShape(id) || id != r.Activity.TurnSession {
		return ""
	}
	return id
}

// noteTurnSession records, in this one place, when r's conversation became
// one a restore resumes (TurnSession): once a turn started in it (a hook's
// start, or an end naming a turn no hook started: Qwen Code's automatic
// turn). For an agent whose history drops an interrupted turn
// (Reading.KeepsOnlyDone) not at a start, but at an end into idle that
// neither failed nor was interrupted, or at the start of a queued prompt's
// turn that replaced a held end (held: the turn before it ended). (Gemini
// CLI 0.61.0, interrupted in its first turn and killed, kept a history
// with no prompt in it, and refused the id: "Invalid session identifier",
// exit 42; a conversation whose turns since a fresh start had all failed
// or been interrupted it did not find at all, exit 42 again.) A held end's look (heldend.go) has read the screen's interrupted
// marker by then, when Esc drew it in time; a Ctrl-C draws none, and an
// interrupt read later (the idle look) does not take the id back. Nor
// does an end from a choice it put to the human (its usage-limit box,
// "Stop"): that end is no look's, and the failure it read later its
// restore met as exit 42 (testdata/campaign/gemini-resume-limit.json).
func noteTurnSession(r *Record, e Event, next Activity, held bool) {
	a := &r.Activity
	if a.ProviderSessionID == "" {
		return
	}
	reading, _ := ReadingOf(r.Agent)
	started := e.Kind == KindTurnStart || e.Kind == KindTurnEnd && e.TurnID != "" && a.TurnID == e.TurnID && a.Automatic
	switch {
	case !reading.KeepsOnlyDone && started,
		reading.KeepsOnlyDone && e.Kind == KindTurnStart && held,
		reading.KeepsOnlyDone && e.Kind == KindTurnEnd && next == ActivityIdle && a.Outcome == OutcomeNone && a.State == ActivityActive:
		a.TurnSession = a.ProviderSessionID
	}
}

// startConversation applies what a session start says of the agent's
// conversation: a new one (startup, /clear) has said nothing yet, and has
// nothing to resume until a turn starts in it; a resumed one (lanes
// restore, or the agent's own /resume picker) had turns, so a restore
// resumes that one (issue 32: after /resume, restore resumed the one
// before it, or none).
func (a *ActivityFacts) startConversation(e Event) {
	switch e.SessionSource {
	case "startup", "clear":
		a.LastMessage = ""
	case "resume":
		if e.ProviderSessionID != "" {
			a.TurnSession = e.ProviderSessionID
		}
	}
}
