package state

import (
	"errors"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// rec builds a live record whose pane started at t0 with activity a.
func rec(a Activity, prs ...PR) *Record {
	return &Record{
		ID: "abcd1234", Name: "api", Agent: AgentClaude,
		Runtime:  Runtime{Launch: "L1", PaneStartedAt: t0, SessionID: "$1"},
		Activity: ActivityFacts{State: a, Since: t0, FirstSignalAt: t0, LastEventAt: t0, HooksReport: true},
		Pane:     Pane{WindowActivity: t0},
		PRs:      prs,
	}
}

func pr(n int, state, review, ci, mergeable string) PR {
	return PR{Number: n, State: state, Review: review, CI: ci, Mergeable: mergeable}
}

// changedAt is p, its state last changed at at.
func changedAt(p PR, at time.Time) PR {
	p.StateChangedAt = at
	return p
}

var (
	prOpen     = pr(1, PRStateOpen, ReviewNone, CINone, MergeableUnknown)
	prDraft    = pr(2, PRStateDraft, ReviewNone, CINone, MergeableUnknown)
	prPending  = pr(3, PRStateOpen, ReviewPending, CIPassing, MergeableUnknown)
	prFailing  = pr(4, PRStateOpen, ReviewPending, CIFailing, MergeableUnknown)
	prChanges  = pr(5, PRStateOpen, ReviewChangesRequested, CIPassing, MergeableUnknown)
	prApproved = pr(6, PRStateOpen, ReviewApproved, CIPassing, MergeableUnknown)
	prConflict = pr(10, PRStateOpen, ReviewApproved, CIPassing, MergeableNo)
	prMergeabl = pr(7, PRStateOpen, ReviewApproved, CIPassing, MergeableYes)
	prMerged   = pr(8, PRStateMerged, ReviewApproved, CIPassing, MergeableYes)
	prClosed   = pr(9, PRStateClosed, ReviewNone, CINone, MergeableUnknown)
)

func terminated(r *Record) *Record {
	r.Runtime.Terminated = true
	r.Runtime.TerminatedReason = "killed by user"
	r.Activity.State = ActivityExited
	return r
}

var deriveNow = t0.Add(time.Minute)

func stacked(base, head string, p PR) PR { p.Base, p.Head = base, head; return p }

var deriveCases = []struct {
	name   string
	r      *Record
	now    time.Time
	status Status
	zone   Zone
	marks  []Mark
}{
	// docs/design.md §3, row by row.
	{"1 terminated + merged PR", terminated(rec(ActivityIdle, prMerged)), deriveNow, StatusMerged, ZoneDone, nil},
	{"1 terminated + merged among others", terminated(rec(ActivityIdle, prFailing, prMerged)), deriveNow, StatusMerged, ZoneDone, nil},
	{"2 terminated, no PR", terminated(rec(ActivityIdle)), deriveNow, StatusTerminated, ZoneDone, nil},
	{"2 terminated, open PR only", terminated(rec(ActivityIdle, prOpen)), deriveNow, StatusTerminated, ZoneDone, nil},
	{"3 active", rec(ActivityActive), deriveNow, StatusWorking, ZoneWorking, nil},
	{"4 exited", rec(ActivityExited), deriveNow, StatusExited, ZoneNeedsYou, nil},
	{"5 waiting_input", rec(ActivityWaitingInput), deriveNow, StatusNeedsInput, ZoneNeedsYou, nil},
	{"6 blocked", rec(ActivityBlocked), deriveNow, StatusNeedsInput, ZoneNeedsYou, nil},
	{"7 idle + CI failing", rec(ActivityIdle, prFailing), deriveNow, StatusCIFailed, ZoneNeedsYou, nil},
	{"7 idle + changes requested", rec(ActivityIdle, prChanges), deriveNow, StatusChangesRequested, ZoneNeedsYou, nil},
	{"8 idle + draft", rec(ActivityIdle, prDraft), deriveNow, StatusDraft, ZoneInReview, nil},
	{"8 idle + open", rec(ActivityIdle, prOpen), deriveNow, StatusPROpen, ZoneInReview, nil},
	{"8 idle + review pending", rec(ActivityIdle, prPending), deriveNow, StatusReviewPending, ZoneInReview, nil},
	{"9 idle + approved", rec(ActivityIdle, prApproved), deriveNow, StatusApproved, ZoneReadyToMerge, nil},
	{"9 idle + mergeable", rec(ActivityIdle, prMergeabl), deriveNow, StatusMergeable, ZoneReadyToMerge, nil},
	{"10 idle + merged (live)", rec(ActivityIdle, prMerged), deriveNow, StatusMerged, ZoneReadyToMerge, nil},
	{"10 idle + merged and closed", rec(ActivityIdle, prClosed, prMerged), deriveNow, StatusMerged, ZoneReadyToMerge, nil},
	{"11 no signal after 90 s", noSignal(rec(ActivityIdle)), t0.Add(91 * time.Second), StatusNoSignal, ZoneNeedsYou, nil},
	{"11 no signal not before 90 s", noSignal(rec(ActivityIdle)), t0.Add(89 * time.Second), StatusIdle, ZoneWorking, nil},
	{"11 never for an agent without hooks", hookless(noSignal(rec(ActivityIdle))), t0.Add(time.Hour), StatusIdle, ZoneWorking, nil},
	{"11 not once a signal arrived", rec(ActivityIdle), t0.Add(time.Hour), StatusIdle, ZoneWorking, nil},
	{"12 idle, no PR", rec(ActivityIdle), deriveNow, StatusIdle, ZoneWorking, nil},
	{"12 idle, only a closed PR", rec(ActivityIdle, prClosed), deriveNow, StatusIdle, ZoneWorking, nil},
	{"unreachable", unreachable(rec(ActivityActive)), deriveNow, StatusUnknown, ZoneNeedsYou, []Mark{MarkUnreachable}},
	{"unreachable beats exited", unreachable(rec(ActivityExited)), deriveNow, StatusUnknown, ZoneNeedsYou, []Mark{MarkUnreachable}},
	{"absent from an answered read, not yet certified gone", absent(rec(ActivityActive)), deriveNow, StatusUnknown, ZoneNeedsYou, nil},
	{"invalid activity", rec(Activity("sleeping")), deriveNow, StatusUnknown, ZoneNeedsYou, nil},
	{"empty activity", rec(Activity("")), deriveNow, StatusUnknown, ZoneNeedsYou, nil},

	// Reference matrix: backend status derivation.
	{"active + PR open", rec(ActivityActive, prOpen), deriveNow, StatusWorking, ZoneWorking, nil},
	{"active + draft", rec(ActivityActive, prDraft), deriveNow, StatusWorking, ZoneWorking, nil},
	{"active + review pending", rec(ActivityActive, prPending), deriveNow, StatusWorking, ZoneWorking, nil},
	{"active + CI failing", rec(ActivityActive, prFailing), deriveNow, StatusWorking, ZoneWorking, nil},
	{"active + changes requested", rec(ActivityActive, prChanges), deriveNow, StatusWorking, ZoneWorking, nil},
	{"active + approved", rec(ActivityActive, prApproved), deriveNow, StatusWorking, ZoneWorking, nil},
	{"active + mergeable", rec(ActivityActive, prMergeabl), deriveNow, StatusWorking, ZoneWorking, nil},
	{"waiting + no PR", rec(ActivityWaitingInput), deriveNow, StatusNeedsInput, ZoneNeedsYou, nil},
	{"waiting + mergeable PR stays needs_input", rec(ActivityWaitingInput, prMergeabl), deriveNow, StatusNeedsInput, ZoneNeedsYou, nil},
	{"blocked + no PR", rec(ActivityBlocked), deriveNow, StatusNeedsInput, ZoneNeedsYou, nil},
	{"exited + CI failing", rec(ActivityExited, prFailing), deriveNow, StatusExited, ZoneNeedsYou, nil},
	{"exited + merged", rec(ActivityExited, prMerged), deriveNow, StatusExited, ZoneNeedsYou, nil},
	{"exited + mergeable", rec(ActivityExited, prMergeabl), deriveNow, StatusExited, ZoneNeedsYou, nil},

	// Worst wins across PRs.
	{"worst wins: failing + mergeable", rec(ActivityIdle, prMergeabl, prFailing), deriveNow, StatusCIFailed, ZoneNeedsYou, nil},
	{"approved but conflicting needs you", rec(ActivityIdle, prConflict), deriveNow, StatusConflicting, ZoneNeedsYou, nil},
	{"worst wins: failing + conflicting", rec(ActivityIdle, prConflict, prFailing), deriveNow, StatusCIFailed, ZoneNeedsYou, nil},
	{"worst wins: conflicting + changes", rec(ActivityIdle, prChanges, prConflict), deriveNow, StatusConflicting, ZoneNeedsYou, nil},
	{"worst wins: changes + draft", rec(ActivityIdle, prDraft, prChanges), deriveNow, StatusChangesRequested, ZoneNeedsYou, nil},
	{"worst wins: draft + pending", rec(ActivityIdle, prPending, prDraft), deriveNow, StatusDraft, ZoneInReview, nil},
	{"worst wins: pending + open", rec(ActivityIdle, prOpen, prPending), deriveNow, StatusReviewPending, ZoneInReview, nil},
	{"worst wins: open + approved", rec(ActivityIdle, prApproved, prOpen), deriveNow, StatusPROpen, ZoneInReview, nil},
	{"worst wins: approved + mergeable", rec(ActivityIdle, prMergeabl, prApproved), deriveNow, StatusApproved, ZoneReadyToMerge, nil},
	{"open PR beats a merged one", rec(ActivityIdle, prMerged, prPending), deriveNow, StatusReviewPending, ZoneInReview, nil},

	// Stacked PRs count only while failing, draft or changes requested.
	{"stacked pending ignored", rec(ActivityIdle, stacked("main", "a", prMergeabl), stacked("a", "b", prPending)), deriveNow, StatusMergeable, ZoneReadyToMerge, nil},
	{"stacked open ignored", rec(ActivityIdle, stacked("main", "a", prApproved), stacked("a", "b", prOpen)), deriveNow, StatusApproved, ZoneReadyToMerge, nil},
	{"stacked failing counts", rec(ActivityIdle, stacked("main", "a", prMergeabl), stacked("a", "b", prFailing)), deriveNow, StatusCIFailed, ZoneNeedsYou, nil},
	{"stacked draft counts", rec(ActivityIdle, stacked("main", "a", prMergeabl), stacked("a", "b", prDraft)), deriveNow, StatusDraft, ZoneInReview, nil},
	{"stacked changes counts", rec(ActivityIdle, stacked("main", "a", prMergeabl), stacked("a", "b", prChanges)), deriveNow, StatusChangesRequested, ZoneNeedsYou, nil},
	{"base of a merged PR is not a stack", rec(ActivityIdle, stacked("main", "a", prMerged), stacked("a", "b", prPending)), deriveNow, StatusReviewPending, ZoneInReview, nil},

	// Marks.
	{"6b failed turn: idle + failed, needs you", outcome(rec(ActivityIdle), OutcomeFailure), deriveNow, StatusIdle, ZoneNeedsYou, []Mark{MarkFailed}},
	{"interrupted mark while idle", outcome(rec(ActivityIdle), OutcomeCancellation), deriveNow, StatusIdle, ZoneWorking, []Mark{MarkInterrupted}},
	{"an interrupt on a PR's card that has not moved since", outcome(rec(ActivityIdle, prPending), OutcomeCancellation), deriveNow, StatusReviewPending, ZoneInReview, []Mark{MarkInterrupted}},
	{"an interrupt the PR moved on from: no mark", outcome(rec(ActivityIdle, changedAt(prPending, t0.Add(30*time.Second))), OutcomeCancellation), deriveNow, StatusReviewPending, ZoneInReview, nil},
	{"6b failed turn comes before a PR", outcome(rec(ActivityIdle, prPending), OutcomeFailure), deriveNow, StatusIdle, ZoneNeedsYou, []Mark{MarkFailed}},
	{"6b failed turn seen: out of needs you, the mark kept", seen(outcome(rec(ActivityIdle), OutcomeFailure)), deriveNow, StatusIdle, ZoneWorking, []Mark{MarkFailed}},
	{"6b failed turn seen, a PR: the PR's lane", seen(outcome(rec(ActivityIdle, prPending), OutcomeFailure)), deriveNow, StatusReviewPending, ZoneInReview, []Mark{MarkFailed}},
	{"no outcome mark while blocked", outcome(rec(ActivityBlocked), OutcomeFailure), deriveNow, StatusNeedsInput, ZoneNeedsYou, nil},
	{"no outcome mark while active", outcome(rec(ActivityActive), OutcomeCancellation), deriveNow, StatusWorking, ZoneWorking, nil},
	{"unconfirmed after silence", rec(ActivityActive), t0.Add(11 * time.Minute), StatusWorking, ZoneWorking, []Mark{MarkUnconfirmed}},
	{"not unconfirmed with recent output", output(rec(ActivityActive), t0.Add(10*time.Minute)), t0.Add(11 * time.Minute), StatusWorking, ZoneWorking, nil},
	{"not unconfirmed with a recent event", event(rec(ActivityActive), t0.Add(5*time.Minute)), t0.Add(11 * time.Minute), StatusWorking, ZoneWorking, nil},
	{"never unconfirmed while idle", rec(ActivityIdle), t0.Add(time.Hour), StatusIdle, ZoneWorking, nil},
}

func TestDerive(t *testing.T) {
	for _, c := range deriveCases {
		t.Run(c.name, func(t *testing.T) {
			d := Derive(c.r, c.now)
			if d.Status != c.status || d.Zone != c.zone || !slices.Equal(d.Marks, c.marks) {
				t.Errorf("Derive = %s/%s %v, want %s/%s %v", d.Status, d.Zone, d.Marks, c.status, c.zone, c.marks)
			}
			if again := Derive(c.r, c.now); again.Status != d.Status || again.Zone != d.Zone {
				t.Errorf("Derive is not deterministic")
			}
		})
	}
}

func noSignal(r *Record) *Record    { r.Activity.FirstSignalAt = time.Time{}; return r }
func hookless(r *Record) *Record    { r.Agent = AgentShell; r.Activity.HooksReport = false; return r }
func unreachable(r *Record) *Record { r.Runtime.UnreachableSince = t0; return r }
func absent(r *Record) *Record      { r.Runtime.GoneSeenAt = t0; return r }
func outcome(r *Record, o Outcome) *Record {
	r.Activity.Outcome = o
	return r
}
func output(r *Record, at time.Time) *Record { r.Pane.WindowActivity = at; return r }

// seen: the human looked after the turn ended (lanes attach, a key onto
// the card).
func seen(r *Record) *Record                { Seen(r, r.Activity.Since.Add(time.Minute)); return r }
func event(r *Record, at time.Time) *Record { r.Activity.LastEventAt = at; return r }

func TestPRStatus(t *testing.T) {
	cases := []struct {
		p    PR
		want Status
		open bool
	}{
		{prFailing, StatusCIFailed, true},
		{pr(1, PRStateDraft, ReviewApproved, CIFailing, MergeableYes), StatusCIFailed, true},
		{prDraft, StatusDraft, true},
		{prChanges, StatusChangesRequested, true},
		{prMergeabl, StatusMergeable, true},
		{pr(1, PRStateOpen, ReviewNone, CIPassing, MergeableYes), StatusPROpen, true},
		{prPending, StatusReviewPending, true},
		{prApproved, StatusApproved, true},
		{prConflict, StatusConflicting, true},
		{pr(1, PRStateDraft, ReviewNone, CIPassing, MergeableNo), StatusDraft, true},
		{pr(1, PRStateOpen, ReviewChangesRequested, CIPassing, MergeableNo), StatusConflicting, true},
		{prOpen, StatusPROpen, true},
		{prMerged, "", false},
		{prClosed, "", false},
	}
	for _, c := range cases {
		got, open := PRStatus(c.p)
		if got != c.want || open != c.open {
			t.Errorf("PRStatus(%+v) = %s %v, want %s %v", c.p, got, open, c.want, c.open)
		}
	}
	// A PR's own status, as ls --json prints it: an open one's, merged, or
	// none for a closed one.
	for _, c := range []struct {
		p    PR
		want Status
		ok   bool
	}{{prFailing, StatusCIFailed, true}, {prMerged, StatusMerged, true}, {prClosed, "", false}} {
		if got, ok := PROwnStatus(c.p); got != c.want || ok != c.ok {
			t.Errorf("PROwnStatus(%+v) = %s %v, want %s %v", c.p, got, ok, c.want, c.ok)
		}
	}
}

func TestRank(t *testing.T) {
	order := []Derivation{
		{Status: StatusNeedsInput, Zone: ZoneNeedsYou},
		{Status: StatusIdle, Marks: []Mark{MarkFailed}},
		{Status: StatusWorking},
		{Status: StatusWorking, Marks: []Mark{MarkUnconfirmed}},
		{Status: StatusIdle, Marks: []Mark{MarkInterrupted}},
		{Status: StatusIdle},
	}
	for i := 1; i < len(order); i++ {
		if Rank(order[i-1]) >= Rank(order[i]) {
			t.Errorf("Rank(%v) should be more urgent than Rank(%v)", order[i-1], order[i])
		}
	}
	for _, s := range []Status{StatusExited, StatusCIFailed, StatusChangesRequested, StatusNoSignal, StatusUnknown} {
		if Rank(Derivation{Status: s, Zone: ZoneNeedsYou}) != 0 {
			t.Errorf("%s should rank as needing a human", s)
		}
	}
}

func TestParseVocabulary(t *testing.T) {
	for _, a := range Activities {
		if ParseActivity(string(a)) != a {
			t.Errorf("ParseActivity(%q) lost it", a)
		}
	}
	for _, bad := range []string{"", "Active", "working", "dead"} {
		if ParseActivity(bad) != ActivityUnknown {
			t.Errorf("ParseActivity(%q) should be unknown", bad)
		}
	}
	for _, s := range Statuses {
		if ParseStatus(string(s)) != s {
			t.Errorf("ParseStatus(%q) lost it", s)
		}
	}
	if ParseStatus("busy") != StatusUnknown {
		t.Error("ParseStatus(busy) should be unknown")
	}
}

func BenchmarkDerive10k(b *testing.B) {
	recs := make([]*Record, 10000)
	shapes := []*Record{rec(ActivityActive), rec(ActivityIdle, prPending, prMergeabl), rec(ActivityBlocked),
		terminated(rec(ActivityIdle, prMerged)), noSignal(rec(ActivityIdle))}
	for i := range recs {
		r := *shapes[i%len(shapes)]
		recs[i] = &r
	}
	now := t0.Add(time.Hour)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range recs {
			Derive(r, now)
		}
	}
}

// A record `lanes new` wrote whose tmux session no read has shown yet is
// marked starting, whatever its activity says; once adopted it is not.
func TestDeriveStarting(t *testing.T) {
	r := rec(ActivityIdle)
	r.Runtime.SessionID, r.Runtime.PaneID, r.Runtime.PaneStartedAt = "", "", time.Time{}
	r.Runtime.StartingAt = t0
	if d := Derive(r, t0.Add(time.Second)); !slices.Contains(d.Marks, MarkStarting) {
		t.Fatalf("starting record: %+v, want mark %q", d, MarkStarting)
	}
	if err := CanSend(r, false); !errors.Is(err, ErrStarting) {
		t.Fatalf("CanSend(starting) = %v, want ErrStarting", err)
	}
	r.Runtime.SessionID = "$1"
	if d := Derive(r, t0.Add(time.Second)); slices.Contains(d.Marks, MarkStarting) {
		t.Fatalf("a restart in flight (session known) is marked starting: %+v", d)
	}
	r.Runtime.SessionID = ""
	terminated(r)
	if d := Derive(r, t0.Add(time.Second)); slices.Contains(d.Marks, MarkStarting) {
		t.Fatalf("terminated record marked starting: %+v", d)
	}
}

// Another host's session, its link lost: as the host last sent it, marked
// unreachable once; the link back, unmarked.
func TestMirroredLinkLost(t *testing.T) {
	r := rec(ActivityActive)
	d := Derive(r, deriveNow)
	lost := Mirrored(r, d, "build", true)
	if lost.D.Status != d.Status || !slices.Equal(lost.D.Marks, append(slices.Clip(d.Marks), MarkUnreachable)) {
		t.Fatalf("link lost: %s %v, want %s with the unreachable mark", lost.D.Status, lost.D.Marks, d.Status)
	}
	if again := Mirrored(r, lost.D, "build", true); len(again.D.Marks) != len(lost.D.Marks) {
		t.Errorf("marked twice: %v", again.D.Marks)
	}
	if back := Mirrored(r, d, "build", false); slices.Contains(back.D.Marks, MarkUnreachable) {
		t.Errorf("link back: %v", back.D.Marks)
	}
}
