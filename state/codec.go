package state

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Records are stored in a compact binary form rather than JSON: every
// surface (the status line, `ls`, each board cycle) decodes every record,
// and encoding/json spent about 20 µs on each. The layout is the fields of
// Record in declaration order; CodecVersion guards it, and a change to it
// is a schema migration (store/store.go): codec 2 came with schema 3. TestCodecRoundTrip fills every field
// of Record by reflection, so a field added without a line here fails it.
// Version 2 appended the fields after the counters, version 3 the dialog
// and the witness's stamps, version 4 HookTurns, version 5 the content
// facts, the dialog's opening and the mute, version 6 the answer, version 7
// the git facts, version 8 Adopted, version 9 the turn's session id, version 10 the server's pid, version 11 the call's digest and the dialog's call, version 12 the
// background work, the automatic turn, what the human saw and why a turn
// failed, version 13 the reply and the menu, version 14 the kill set out and the scheduled prompts, version 16 the queued prompts, version 17 the agent's turn id, version 18 the held turn's end, version 19 the profile's variables, version 20 the usage and the profile;
// an older
// record decodes with them zero.
const CodecVersion = 20

var ErrTruncated = errors.New("record truncated")

func EncodeRecord(r *Record) []byte {
	e := encoder{b: make([]byte, 0, 512)}
	e.uint(CodecVersion)
	e.str(r.ID)
	e.str(r.Name)
	e.str(string(r.Agent))
	e.strs(r.Command)
	e.str(r.Dir)
	e.str(r.Branch)
	e.time(r.CreatedAt)
	e.runtime(&r.Runtime)
	e.pane(&r.Pane)
	e.activity(&r.Activity)
	e.prs(r.PRs)
	e.int(int64(r.EventsApplied))
	e.uint(uint64(len(r.EventsDropped)))
	for _, k := range slices.Sorted(maps.Keys(r.EventsDropped)) {
		e.str(k)
		e.int(int64(r.EventsDropped[k]))
	}
	e.since1(r)
	return e.b
}

func DecodeRecord(b []byte) (*Record, error) {
	d := decoder{b: b, whole: string(b), size: len(b)}
	v := d.uint()
	if d.err == nil && (v < 1 || v > CodecVersion) {
		return nil, fmt.Errorf("%w: record encoding %d, this build reads 1 to %d; upgrade lanes", ErrSchemaTooNew, v, CodecVersion)
	}
	r := &Record{}
	r.ID = d.str()
	r.Name = d.str()
	r.Agent = Agent(d.str())
	r.Command = d.strs()
	r.Dir = d.str()
	r.Branch = d.str()
	r.CreatedAt = d.time()
	d.runtime(&r.Runtime)
	d.pane(&r.Pane)
	d.activity(&r.Activity)
	r.PRs = d.prs()
	r.EventsApplied = int(d.int())
	if n := d.count(); n > 0 {
		r.EventsDropped = make(map[string]int, n)
		for range n {
			k := d.str()
			r.EventsDropped[k] = int(d.int())
		}
	}
	d.since1(r, v)
	if d.err == nil && len(d.b) > 0 {
		d.err = fmt.Errorf("%d bytes left over", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return r, nil
}

// The first layout's parts, each encoder beside its decoder.

func (e *encoder) runtime(rt *Runtime) {
	e.str(rt.Socket)
	e.str(rt.TmuxSession)
	e.str(rt.SessionID)
	e.str(rt.PaneID)
	e.str(rt.Launch)
	e.time(rt.PaneStartedAt)
	e.bool(rt.Terminated)
	e.str(rt.TerminatedReason)
	e.time(rt.TerminatedAt)
	e.time(rt.UnreachableSince)
	e.time(rt.GoneSeenAt)
	e.time(rt.StartingAt)
	e.str(rt.Source)
	e.time(rt.At)
}

func (d *decoder) runtime(rt *Runtime) {
	rt.Socket = d.str()
	rt.TmuxSession = d.str()
	rt.SessionID = d.str()
	rt.PaneID = d.str()
	rt.Launch = d.str()
	rt.PaneStartedAt = d.time()
	rt.Terminated = d.bool()
	rt.TerminatedReason = d.str()
	rt.TerminatedAt = d.time()
	rt.UnreachableSince = d.time()
	rt.GoneSeenAt = d.time()
	rt.StartingAt = d.time()
	rt.Source = d.str()
	rt.At = d.time()
}

func (e *encoder) pane(p *Pane) {
	e.int(int64(p.PID))
	e.bool(p.Dead)
	e.bool(p.ExitStatus != nil)
	if p.ExitStatus != nil {
		e.int(int64(*p.ExitStatus))
	}
	e.str(p.ExitSignal)
	e.time(p.DeadTime)
	e.time(p.DeadSeenAt)
	e.int(int64(p.Confirmations))
	e.time(p.ConfirmedAt)
	e.int(int64(p.NoTimeReads))
	e.time(p.WindowActivity)
	e.time(p.ObservedAt)
}

func (d *decoder) pane(p *Pane) {
	p.PID = int(d.int())
	p.Dead = d.bool()
	if d.bool() {
		s := int(d.int())
		p.ExitStatus = &s
	}
	p.ExitSignal = d.str()
	p.DeadTime = d.time()
	p.DeadSeenAt = d.time()
	p.Confirmations = int(d.int())
	p.ConfirmedAt = d.time()
	p.NoTimeReads = int(d.int())
	p.WindowActivity = d.time()
	p.ObservedAt = d.time()
}

func (e *encoder) activity(a *ActivityFacts) {
	e.str(string(a.State))
	e.time(a.Since)
	e.str(a.Source)
	e.time(a.FirstSignalAt)
	e.time(a.LastEventAt)
	e.strs(a.ToolsInFlight)
	e.int(int64(a.AnonTools))
	e.strs(a.Subagents)
	e.bool(a.PendingStop)
	e.str(string(a.Outcome))
	e.str(a.AskingTool)
	e.bool(a.AskingAll)
	e.bool(a.HooksReport)
	e.str(a.ProviderSessionID)
}

func (d *decoder) activity(a *ActivityFacts) {
	a.State = Activity(d.str())
	a.Since = d.time()
	a.Source = d.str()
	a.FirstSignalAt = d.time()
	a.LastEventAt = d.time()
	a.ToolsInFlight = d.strs()
	a.AnonTools = int(d.int())
	a.Subagents = d.strs()
	a.PendingStop = d.bool()
	a.Outcome = Outcome(d.str())
	a.AskingTool = d.str()
	a.AskingAll = d.bool()
	a.HooksReport = d.bool()
	a.ProviderSessionID = d.str()
}

func (e *encoder) prs(prs []PR) {
	e.uint(uint64(len(prs)))
	for i := range prs {
		pr := &prs[i]
		e.int(int64(pr.Number))
		e.str(pr.URL)
		e.str(pr.State)
		e.str(pr.Review)
		e.str(pr.CI)
		e.str(pr.Mergeable)
		e.str(pr.Base)
		e.str(pr.Head)
		e.time(pr.StateChangedAt)
		e.str(pr.Source)
		e.time(pr.At)
	}
}

func (d *decoder) prs() []PR {
	n := d.countOf(minPRBytes)
	if n == 0 {
		return nil
	}
	prs := make([]PR, n)
	for i := range prs {
		pr := &prs[i]
		pr.Number = int(d.int())
		pr.URL = d.str()
		pr.State = d.str()
		pr.Review = d.str()
		pr.CI = d.str()
		pr.Mergeable = d.str()
		pr.Base = d.str()
		pr.Head = d.str()
		pr.StateChangedAt = d.time()
		pr.Source = d.str()
		pr.At = d.time()
	}
	return prs
}

// since1 writes the fields versions 2 to CodecVersion appended, in the
// order they came.
func (e *encoder) since1(r *Record) {
	rt, p, a, g := &r.Runtime, &r.Pane, &r.Activity, &r.Git
	e.str(rt.PrevLaunch) // 2
	e.int(int64(rt.PrevPID))
	e.time(p.ActivityBase)
	e.str(p.ObservedBy)
	e.int(int64(p.ObservedSeq))
	e.bool(a.Dialog) // 3
	e.time(a.WitnessAt)
	e.time(a.DialogGoneAt)
	e.bool(a.HookTurns) // 4
	e.str(a.Tool)       // 5
	e.str(a.ToolInput)
	e.str(a.Question)
	e.str(a.LastMessage)
	e.time(a.DialogAt)
	e.bool(r.Muted)
	e.time(a.AnsweredAt) // 6
	e.str(g.Worktree)    // 7
	e.str(g.Base)
	e.int(int64(g.Ahead))
	e.int(int64(g.Behind))
	e.int(int64(g.Changed))
	e.time(g.ReadAt)
	e.bool(r.Adopted)          // 8
	e.str(a.TurnSession)       // 9
	e.int(int64(rt.ServerPID)) // 10
	e.str(a.CallSum)           // 11
	e.str(a.DialogCall)
	e.strs(a.Background) // 12
	e.bool(a.Automatic)
	e.time(a.SeenAt)
	e.str(string(a.Unseen))
	e.str(a.Failure)
	e.str(a.Retry)
	e.str(a.Replied) // 13
	e.time(a.RepliedAt)
	e.bool(a.Menu)
	e.time(rt.KillingAt)   // 14
	e.strs(a.Scheduled)    // 15
	e.int(int64(a.Queued)) // 16
	e.bool(a.QueuedTurn)
	e.str(a.TurnID)   // 17
	e.time(a.HeldEnd) // 18
	e.strs(r.Env)     // 19
	e.usage(r)        // 20
}

// since1 reads what a record of version v has of those fields; the rest
// stay zero, but for the dialog fact, which older records imply.
func (d *decoder) since1(r *Record, v uint64) {
	rt, p, a, g := &r.Runtime, &r.Pane, &r.Activity, &r.Git
	if v >= 2 {
		rt.PrevLaunch = d.str()
		rt.PrevPID = int(d.int())
		p.ActivityBase = d.time()
		p.ObservedBy = d.str()
		p.ObservedSeq = int(d.int())
	}
	if v >= 3 {
		a.Dialog = d.bool()
		a.WitnessAt = d.time()
		a.DialogGoneAt = d.time()
	} else {
		// Before the dialog fact, a TUI agent's ask or block was its
		// dialog (a failed turn, blocked with outcome failure, was not):
		// keep refusing send into it.
		asking := a.State == ActivityBlocked || a.State == ActivityWaitingInput
		a.Dialog = asking && r.Agent != AgentShell && r.Agent != AgentCustom && a.Outcome != OutcomeFailure
	}
	if v >= 4 {
		a.HookTurns = d.bool()
	}
	if v >= 5 {
		a.Tool = d.str()
		a.ToolInput = d.str()
		a.Question = d.str()
		a.LastMessage = d.str()
		a.DialogAt = d.time()
		r.Muted = d.bool()
	}
	if v >= 6 {
		a.AnsweredAt = d.time()
	}
	if v >= 7 {
		g.Worktree = d.str()
		g.Base = d.str()
		g.Ahead = int(d.int())
		g.Behind = int(d.int())
		g.Changed = int(d.int())
		g.ReadAt = d.time()
	}
	if v >= 8 {
		r.Adopted = d.bool()
	}
	if v >= 9 {
		a.TurnSession = d.str()
	}
	if v >= 10 {
		rt.ServerPID = int(d.int())
	}
	if v >= 11 {
		a.CallSum = d.str()
		a.DialogCall = d.str()
	}
	if v >= 12 {
		a.Background = d.strs()
		a.Automatic = d.bool()
		a.SeenAt = d.time()
		a.Unseen = Outcome(d.str())
		a.Failure = d.str()
		a.Retry = d.str()
	}
	d.since13(r, v)
}

// since13 reads what a record of version v has of the fields version 13
// and later added.
func (d *decoder) since13(r *Record, v uint64) {
	rt, a := &r.Runtime, &r.Activity
	if v >= 13 {
		a.Replied = d.str()
		a.RepliedAt = d.time()
		a.Menu = d.bool()
	}
	if v >= 14 {
		rt.KillingAt = d.time()
	}
	// Main wrote the scheduled prompts as 14 too, for an hour (d52a07f to
	// its fix): a 14 with a byte left has them.
	if v >= 15 || v == 14 && len(d.b) > 0 {
		a.Scheduled = d.strs()
	}
	if v >= 16 {
		a.Queued, a.QueuedTurn = int(d.int()), d.bool()
	}
	if v >= 17 {
		a.TurnID = d.str()
	}
	if v >= 18 {
		a.HeldEnd = d.time()
	}
	if v >= 19 {
		r.Env = d.strs()
	}
	if v >= 20 {
		d.usage(r)
	}
}

// ErrSchemaTooNew: the store was written by a newer lanes.
var ErrSchemaTooNew = errors.New("store schema too new")
