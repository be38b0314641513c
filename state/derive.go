package state

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Derivation is what Derive says about one session at one moment.
type Derivation struct {
	Status Status
	Zone   Zone
	Marks  []Mark
	// Since is when this state began: the termination, the server going
	// silent, the session going missing from a read, else the last
	// activity change. Every surface shows ages from it.
	Since time.Time
}

// IdleStack reports whether the session sits in the idle stack at the
// bottom of Working (an idle card elsewhere, a failed turn in Needs you,
// is counted in its own lane).
func (d Derivation) IdleStack() bool { return d.Zone == ZoneWorking && d.Status == StatusIdle }

// Timing rules of docs/design.md §3 and §4.
const (
	NoSignalGrace      = 90 * time.Second
	SilenceEvents      = 10 * time.Minute
	SilenceOutput      = 2 * time.Minute
	PaneActiveWindow   = 5 * time.Second
	DoneRecentInterval = 24 * time.Hour
)

// Derive is the one derivation of status, zone and marks from a record's
// facts (docs/design.md §3). It is pure: the same record and time always give the
// same answer, and nothing else in lanes decides a status, lane or mark.
func Derive(r *Record, now time.Time) Derivation {
	d := derive(r, now)
	if d.Since.IsZero() {
		d.Since = r.Activity.Since
	}
	if r.Starting() {
		d.Marks = append(d.Marks, MarkStarting)
	}
	if len(r.Activity.Background) > 0 && r.Live() && r.Activity.State != ActivityExited {
		d.Marks = append(d.Marks, MarkBackground)
	}
	if r.Activity.Menu && r.Live() && r.Activity.State == ActivityIdle {
		d.Marks = append(d.Marks, MarkMenu)
	}
	if r.Live() {
		d.Marks = append(d.Marks, r.Usage.Marks(now)...)
	}
	return d
}

func derive(r *Record, now time.Time) Derivation {
	if r.Runtime.Terminated {
		if anyMerged(r.PRs) {
			return Derivation{Status: StatusMerged, Zone: ZoneDone, Since: r.Runtime.TerminatedAt}
		}
		return Derivation{Status: StatusTerminated, Zone: ZoneDone, Since: r.Runtime.TerminatedAt}
	}
	if !r.Runtime.UnreachableSince.IsZero() {
		return Derivation{Status: StatusUnknown, Zone: ZoneNeedsYou, Marks: []Mark{MarkUnreachable}, Since: r.Runtime.UnreachableSince}
	}
	if !r.Runtime.GoneSeenAt.IsZero() {
		// Absent from a read that answered (a restarted server, say) but
		// not yet certified gone: its old status would be a guess.
		return Derivation{Status: StatusUnknown, Zone: ZoneNeedsYou, Since: r.Runtime.GoneSeenAt}
	}
	a := r.Activity
	switch a.Known() {
	case ActivityActive:
		d := Derivation{Status: StatusWorking, Zone: ZoneWorking}
		switch a.Unseen {
		case OutcomeFailure:
			// An automatic turn runs over a failure nobody has seen: it
			// stays where it was put (docs/design.md §4).
			d.Zone, d.Marks = ZoneNeedsYou, []Mark{MarkFailed}
		case OutcomeCancellation:
			d.Marks = []Mark{MarkInterrupted}
		}
		if a.Retry != "" {
			d.Marks = append(d.Marks, MarkRetrying)
		}
		if silent(r, now) {
			d.Marks = append(d.Marks, MarkUnconfirmed)
		}
		return d
	case ActivityExited:
		return Derivation{Status: StatusExited, Zone: ZoneNeedsYou}
	case ActivityWaitingInput, ActivityBlocked:
		return Derivation{Status: StatusNeedsInput, Zone: ZoneNeedsYou}
	case ActivityIdle:
		outcome := cmp.Or(a.Outcome, a.Unseen)
		if outcome == OutcomeFailure && NeedsSeen(r) {
			// Row 6b: a turn the agent gave up (API error, rate limit)
			// needs the human before any PR does, until they see it.
			return Derivation{Status: StatusIdle, Zone: ZoneNeedsYou, Marks: []Mark{MarkFailed}}
		}
		d := deriveIdle(r, now)
		switch {
		case outcome == OutcomeFailure:
			d.Marks = []Mark{MarkFailed} // seen: the mark stays till the next prompt
		case outcome == OutcomeCancellation && !d.Since.After(a.Since):
			// On a PR's card, an interrupt its PR has moved on from (the
			// PR changed since that turn ended) is old news: no mark.
			d.Marks = []Mark{MarkInterrupted}
		}
		return d
	}
	return Derivation{Status: StatusUnknown, Zone: ZoneNeedsYou}
}

func deriveIdle(r *Record, now time.Time) Derivation {
	// A PR's badge is as old as the later of the agent going idle and the
	// PR's last change (docs/design.md §8).
	if s, ok := prAggregate(r.PRs); ok {
		return Derivation{Status: s, Zone: prZone(s), Since: prChanged(r, s)}
	}
	if anyMerged(r.PRs) {
		return Derivation{Status: StatusMerged, Zone: ZoneReadyToMerge, Since: prChanged(r, StatusMerged)}
	}
	if r.Activity.HooksReport && r.Activity.FirstSignalAt.IsZero() &&
		!r.Runtime.PaneStartedAt.IsZero() && now.Sub(r.Runtime.PaneStartedAt) > NoSignalGrace {
		return Derivation{Status: StatusNoSignal, Zone: ZoneNeedsYou}
	}
	return Derivation{Status: StatusIdle, Zone: ZoneWorking}
}

// silent is §4 Silence: active, yet no event for 10 min and no output for 2.
func silent(r *Record, now time.Time) bool {
	last := r.Activity.LastEventAt
	if last.IsZero() {
		last = r.Activity.Since
	}
	return now.Sub(last) > SilenceEvents && now.Sub(r.Pane.WindowActivity) > SilenceOutput
}

// prRank orders open-PR statuses, worst first.
var prRank = []Status{
	StatusCIFailed, StatusConflicting, StatusChangesRequested, StatusDraft,
	StatusReviewPending, StatusPROpen, StatusApproved, StatusMergeable,
}

func prZone(s Status) Zone {
	switch s {
	case StatusCIFailed, StatusConflicting, StatusChangesRequested:
		return ZoneNeedsYou
	case StatusApproved, StatusMergeable:
		return ZoneReadyToMerge
	}
	return ZoneInReview
}

// PRStatus is one open PR's own status (docs/design.md §3); ok is false for a PR
// that is not open (merged or closed).
func PRStatus(p PR) (Status, bool) {
	if p.State != PRStateOpen && p.State != PRStateDraft {
		return "", false
	}
	switch {
	case p.CI == CIFailing:
		return StatusCIFailed, true
	case p.State == PRStateDraft:
		return StatusDraft, true
	case p.Mergeable == MergeableNo:
		return StatusConflicting, true
	case p.Review == ReviewChangesRequested:
		return StatusChangesRequested, true
	case p.Mergeable == MergeableYes && p.Review == ReviewApproved:
		return StatusMergeable, true
	case p.Review == ReviewPending:
		return StatusReviewPending, true
	case p.Review == ReviewApproved:
		return StatusApproved, true
	}
	return StatusPROpen, true
}

// prAggregate is the worst open PR's status (see worstOpenPR).
func prAggregate(prs []PR) (Status, bool) {
	p, ok := worstOpenPR(prs)
	if !ok {
		return "", false
	}
	s, _ := PRStatus(p)
	return s, true
}

// worstOpenPR is the open PR whose status is the worst, where a stacked PR
// (based on the head of another open PR of the session) counts only while
// it is failing, draft or has changes requested.
func worstOpenPR(prs []PR) (PR, bool) {
	heads := map[string]bool{}
	for _, p := range prs {
		if _, open := PRStatus(p); open && p.Head != "" {
			heads[p.Head] = true
		}
	}
	worst, found := len(prRank), -1
	for i, p := range prs {
		s, open := PRStatus(p)
		if !open {
			continue
		}
		if p.Base != "" && heads[p.Base] &&
			s != StatusCIFailed && s != StatusDraft && s != StatusChangesRequested {
			continue
		}
		if r := slices.Index(prRank, s); r < worst {
			worst, found = r, i
		}
	}
	if found < 0 {
		return PR{}, false
	}
	return prs[found], true
}

// BadgePR is the PR a card's badge speaks for: the worst open one, else
// the merged or closed one that changed last; false when there is none.
func BadgePR(prs []PR) (PR, bool) {
	if p, ok := worstOpenPR(prs); ok {
		return p, true
	}
	var last PR
	found := false
	for _, p := range prs {
		if _, open := PRStatus(p); !open && (!found || !p.StateChangedAt.Before(last.StateChangedAt)) {
			last, found = p, true
		}
	}
	return last, found
}

// prChanged is the later of the activity's change and the last change of
// the PRs whose own status is s (those that make the badge).
func prChanged(r *Record, s Status) time.Time {
	t := r.Activity.Since
	for _, p := range r.PRs {
		if own, ok := PROwnStatus(p); ok && own == s && p.StateChangedAt.After(t) {
			t = p.StateChangedAt
		}
	}
	return t
}

// PROwnStatus is a PR's own status: PRStatus for an open one, merged for
// a merged one; none (false) for a closed one.
func PROwnStatus(p PR) (Status, bool) {
	if s, open := PRStatus(p); open {
		return s, true
	}
	if p.State == PRStateMerged {
		return StatusMerged, true
	}
	return "", false
}

func anyMerged(prs []PR) bool {
	return slices.ContainsFunc(prs, func(p PR) bool { return p.State == PRStateMerged })
}

// Derived is a record as every surface shows it at a moment: its
// derivation and its place in the order of urgency, each taken once (the
// board, the sidebar, ls and the status line all list sessions so, and a
// board sorts a thousand of them every second).
type Derived struct {
	Rec *Record
	D   Derivation
	U   Urgency
	// Host is the host the session runs on, "" for this one. Another
	// host's sessions are derived there and mirrored here (Mirrored,
	// docs/design.md §16): this host never derives them again.
	Host string
}

// DeriveAt is r's Derived at now.
func DeriveAt(r *Record, now time.Time) Derived {
	return Mirrored(r, Derive(r, now), "", false)
}

// Mirrored is the Derived of r with derivation d on host ("" for this
// one). For another host's session, r holds the facts it sent and d its
// derivation there (docs/design.md §16); lost is the fact that this host's
// link to that host is lost: the session is as its host last sent it,
// marked unreachable (as every mark is set, here).
func Mirrored(r *Record, d Derivation, host string, lost bool) Derived {
	if lost && !slices.Contains(d.Marks, MarkUnreachable) {
		d.Marks = append(slices.Clip(d.Marks), MarkUnreachable)
	}
	u := Urgency{rank: urgency(r, d), wait: d.Since, done: d.Zone == ZoneDone, name: r.Name, id: r.ID}
	return Derived{Rec: r, D: d, U: u, Host: host}
}

// Compare orders sessions within a lane, the sidebar and `lanes ls`
// (docs/design.md §8): a dialog before everything else, then Rank, then
// the longest wait (the oldest badge) first; name and id settle a tie.
// Done waits on nobody: the latest ended comes first there.
func (x *Derived) Compare(y *Derived) int {
	a, b := x.U, y.U
	wait := a.wait.Compare(b.wait)
	if a.done && b.done {
		wait = -wait
	}
	return cmp.Or(cmp.Compare(a.rank, b.rank), wait, strings.Compare(a.name, b.name), strings.Compare(a.id, b.id))
}

// Urgency is what Compare orders a session by.
type Urgency struct {
	rank     int
	wait     time.Time
	done     bool
	name, id string
}

func urgency(r *Record, d Derivation) int {
	switch {
	case d.Zone == ZoneDone:
		return 100 // after everything live, ordered among itself by end
	case r.Live() && r.Activity.Dialog:
		return -1
	}
	return Rank(d)
}

// Rank orders derivations for a roll-up where one state stands for several
// sessions (docs/design.md §8): lower is more urgent. What needs a human is
// what Derive puts in the needs-you zone.
func Rank(d Derivation) int {
	switch {
	case slices.Contains(d.Marks, MarkFailed):
		return 1 // in Needs you (row 6b), yet below what asks a human now
	case d.Zone == ZoneNeedsYou:
		return 0
	case slices.Contains(d.Marks, MarkUnconfirmed):
		return 3
	case d.Status == StatusWorking:
		return 2
	case slices.Contains(d.Marks, MarkInterrupted):
		return 4
	}
	return 5
}
