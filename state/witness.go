package state

import (
	"strings"
	"time"
)

// The witness (docs/design.md §11): agents fire no hook when the human
// approves a dialog, rejects it with Esc or interrupts a turn. For exactly
// those cases the collector reads the pane's screen, boundedly, and settles
// the activity through Apply like any event (source witness); any later
// hook event wins.

// Markers are what an agent's screen shows, as stable words or glyphs
// (never colours or widths), taken from recorded real screens
// (testdata/real/AGENT/*/*.screen).
type Markers struct {
	Dialog []string // any of them: a dialog Enter would answer is showing
	Idle   []string // any of them: its prompt waits for the human
	Busy   []string // any of them: it is working (a turn, a tool)
	// Failed and Interrupted: how the agent marks a turn that ended on an
	// error or was interrupted, where no hook says so; the later one on
	// the screen tells how a silent turn ended (else: interrupted).
	Failed      []string
	Interrupted []string
	// Trust: the question an agent asks before it starts in a folder it
	// was never told to trust; HookReview: the one it asks about hooks it
	// has not run before (lanes' injected ones). No hook fires while they
	// show.
	Trust, HookReview []string
	// Retrying: how it says it retries an API error by itself, which no
	// hook reports (retry.go).
	Retrying []string
	// Halts: the choices it draws mid-turn, with no hook, that wait for
	// the human (Gemini CLI's usage-limit box): Needs you, the title's
	// line the question, answered in the pane.
	Halts []Halt
	// Shells: the words after the count of shells it runs past its turn,
	// where no hook says ("1 background terminal running", Codex): an
	// idle look keeps them as its background work.
	Shells string
	// Animates: it redraws at least every second while busy (a spinner, a
	// timer), so a silent pane means it is not busy.
	Animates bool
	// Input: how its input line starts, at the screen's first column (its
	// conversation is indented); Empty: what that line shows only while
	// the input holds nothing (its placeholder). "": lanes cannot tell
	// (InputHolds).
	Input string
	Empty []string
	// InputRule: how the lines above and below its input box start, at
	// the first column (pi: "───", its editor drawn between two rules,
	// no prompt glyph): what the last two such lines enclose is its input.
	InputRule string
	// Said: how each answer of its model starts on screen, where a hook
	// ends an interrupted turn like any other (Gemini CLI's AfterAgent on
	// Esc): an interrupted marker below the last of them says the turn
	// just ended was interrupted.
	Said []string
	// Queued: the line it draws over a prompt typed while a turn runs,
	// which it runs as a turn of its own right after that one, with no
	// hook when typed: a hook's turn end waits for a look (heldend.go).
	Queued string
}

// What the card says while an agent asks, before it starts, whether to
// trust its folder, or the hooks it has not run before (the transition's
// detail says "asks before it starts").
const (
	TrustQuestion      = "Trust this folder?"
	HookReviewQuestion = "Review its hooks? (lanes' hooks report only once trusted)"
)

// startAsks is the question the screen shows of those an agent asks
// before it starts, "" when none. A question above the agent's prompt was
// answered: Gemini CLI restarts in the same pane once trusted, under the
// question it asked (testdata/real/gemini/trust-no-hooks/idle.screen).
func (m Markers) startAsks(s Screen) string {
	prompt := s.last(m.Idle)
	switch {
	case s.last(m.Trust) > prompt:
		return TrustQuestion
	case s.last(m.HookReview) > prompt:
		return HookReviewQuestion
	}
	return ""
}

// Halt is a choice an agent draws with no hook, in its input's place: its
// title, and an option drawn below it, each leading its line (a model's
// answer may say the title's words, and its options: a hostile re-run's
// stuck the card in Needs you).
type Halt struct{ Title, Option string }

// halt is the title's line of the choice s shows of the agent's Halts,
// cleaned and bounded, "" when it shows none. Its idle prompt is not
// drawn under it: the halt hides the input.
func (m Markers) halt(s Screen) string {
	at := -1
	for _, h := range m.Halts {
		t := strings.LastIndex(string(s), h.Title)
		if t <= at || !choiceLeads(s, t) || Screen(s[t:]).Shows(m.Idle) {
			continue
		}
		if o := strings.Index(string(s[t:]), h.Option); o >= 0 && choiceLeads(s, t+o) {
			at = t
		}
	}
	if at < 0 {
		return ""
	}
	line, _, _ := strings.Cut(string(s[at:]), "\n")
	return Summary(strings.TrimRight(line, " │┃|"), 80) // a pane's text, on a card
}

// Ready reports whether s shows the agent's prompt, ready to take text:
// its idle prompt, and no dialog over it.
func (m Markers) Ready(s Screen) bool {
	return s.Shows(m.Idle) && !m.dialogShows(s)
}

// Asks reports whether s shows one of the agent's dialogs, a question it
// asks before it starts, not answered yet, or a halt.
func (m Markers) Asks(s Screen) bool {
	return m.dialogShows(s) || m.startAsks(s) != "" || m.halt(s) != ""
}

// MarkersOf returns agent a's screen markers; false when it has none
// (its Reading's Markers: an agent without is never captured).
func MarkersOf(a Agent) (Markers, bool) {
	r, ok := ReadingOf(a)
	if !ok || r.Markers == nil {
		return Markers{}, false
	}
	return *r.Markers, true
}

// Witness timing (docs/design.md §11).
const (
	// WitnessDialogEvery: a pane in a dialog is captured at most this often
	// while the dialog shows.
	WitnessDialogEvery = 3 * time.Second
	// WitnessConfirmGap: a dialog seen gone is confirmed by a capture this
	// much later.
	WitnessConfirmGap = time.Second
	// WitnessDrawGrace: an agent draws its dialog a moment after the hook
	// that says it opened (Gemini CLI about a second later); a screen
	// without it from before then is not an answer.
	WitnessDrawGrace = 2 * time.Second
	// WitnessSilence: an active pane this long without output is captured
	// once. The agents with markers redraw a spinner or a timer at least
	// every second while busy; tmux dates output to the second, so this
	// is at least 1 s of nothing, and the busy marker guards the capture.
	// Real Claude Code showed "Interrupted" 0.1 s after Esc, then went on
	// drawing: its footer's hint 0.9 s later, a notice of its first
	// seconds 3.4 s later. The first silence between them must be enough
	// (with 2 s the card said Working 5 s after the key: the campaign).
	WitnessSilence = time.Second
	// WitnessMaxCaptures bounds the captures of one cycle, across sessions.
	WitnessMaxCaptures = 4
	// WitnessAnswerLook: after lanes sent the answer to a dialog, the
	// witness looks again this soon rather than at its usual pace, so the
	// card leaves Needs you in about a second and a half, not four.
	WitnessAnswerLook = 500 * time.Millisecond
)

// AnswerLost is how long a dialog answered from lanes may go on showing
// before the answer counts as lost (the key went elsewhere, or the agent
// ignored it): the dialog takes an answer again.
const AnswerLost = 3 * time.Second

// AnsweredFromLanes notes that lanes sends an answer to r's dialog at at:
// the dialog takes no second one, and the witness's next look is due
// WitnessAnswerLook later (and not inside the draw grace, when a look says
// nothing). The witness still decides what the screen shows; lanes claims
// nothing about the answer.
func AnsweredFromLanes(r *Record, at time.Time) {
	a := &r.Activity
	if !a.Dialog {
		return
	}
	a.AnsweredAt = at
	look := at.Add(WitnessAnswerLook)
	if grace := a.LastEventAt.Add(WitnessDrawGrace); grace.After(look) {
		look = grace
	}
	a.WitnessAt = look.Add(-WitnessDialogEvery)
}

// SeeScreen applies one capture of r's pane, taken at at, as the witness
// does (§11); lanes' own look right after it sent an answer counts like
// the witness's. A look that proves nothing (the dialog still drawing
// inside the draw grace) is due again when the grace is over, as the
// witness's own. It returns the transition the screen proved, if any.
func SeeScreen(r *Record, screen string, at time.Time) *Transition {
	if _, ok := MarkersOf(r.Agent); !ok {
		return nil
	}
	e, ok := WitnessSees(r, Screen(screen), at)
	if !ok {
		return nil
	}
	tr, _ := Apply(r, e)
	return tr
}

// startQuestion: q is one an agent asks before it starts.
func startQuestion(q string) bool { return q == TrustQuestion || q == HookReviewQuestion }

// Screen is one capture of a pane, as text.
type Screen string

// Shows reports whether the screen shows one of words.
func (s Screen) Shows(words []string) bool { return s.last(words) >= 0 }

// last is where the last of words starts in s, -1 when none shows.
func (s Screen) last(words []string) int {
	at := -1
	for _, w := range words {
		at = max(at, strings.LastIndex(string(s), w))
	}
	return at
}

// stillEnd is ev saying how an active turn ended that the pane shows over,
// with the idle prompt and no busy indicator: interrupted, failed under
// an error, or, for a queued prompt's turn, as the turn before it did.
func (m Markers) stillEnd(a *ActivityFacts, s Screen, ev Event) Event {
	ev.Kind, ev.Outcome, ev.Detail = KindTurnEnd, OutcomeCancellation, "idle prompt, no busy indicator"
	switch at := s.last(m.Failed); {
	case a.QueuedTurn:
		// A prompt lanes counted as queued went into the turn it was typed
		// in, or came as the human interrupted: no turn of its own ran.
		// (An interrupted marker on screen may be an older turn's.)
		ev.Outcome, ev.Failure = a.Outcome, a.Failure
		ev.Detail += "; the queued prompt ran no turn of its own"
	case at > s.last(m.Interrupted):
		ev.Outcome, ev.Detail, ev.Failure = OutcomeFailure, "idle prompt under an error", whyFailed(lineAt(s, at))
	}
	return ev
}

// howEnded is ev saying how the turn just ended, when s shows it ended
// under the agent's failed or interrupted marker, below the last of its
// model's answers (an agent whose hooks end such a turn like any other).
// A marker counts where the agent draws it (lastLeading), not inside an
// answer quoting it (a hostile re-run: "  ✕ [API Error: quota exceeded]"
// in an answer made a turn that ended well a failed one).
func (m Markers) howEnded(s Screen, ev Event) (Event, bool) {
	if len(m.Said) == 0 {
		return Event{}, false
	}
	said, indent := s.last(m.Said), -1
	if said >= 0 {
		indent = indentOf(lineAt(s, said))
	}
	stopped, failed := s.lastLeading(m.Interrupted, indent), s.lastLeading(m.Failed, indent)
	switch {
	case failed > said && failed > stopped:
		ev.Kind, ev.Outcome, ev.Detail, ev.Failure = KindTurnEnd, OutcomeFailure, "the turn ended under its failed marker", whyFailed(lineAt(s, failed))
		return ev, true
	case stopped > said:
		ev.Kind, ev.Outcome, ev.Detail = KindTurnEnd, OutcomeCancellation, "the turn ended under its interrupted marker"
		return ev, true
	}
	return Event{}, false
}

// WitnessSees records one capture of r's pane taken at at, and returns the
// event it proves, if any (docs/design.md §11):
//   - a dialog that two captures ≥ 1 s apart no longer show was answered:
//     active if the pane went on drawing or shows the busy indicator (the
//     approved tool runs), else idle (rejected);
//   - an active, silent pane that shows the idle prompt and no busy
//     indicator was interrupted: idle, outcome cancellation.
func WitnessSees(r *Record, s Screen, at time.Time) (Event, bool) {
	m, _ := MarkersOf(r.Agent)
	a := &r.Activity
	first := !a.WitnessAt.After(a.Since) // the first look since the activity changed
	a.WitnessAt = at
	ev := Event{At: at, Source: "witness"}
	switch {
	case !a.Dialog && a.FirstSignalAt.IsZero() && m.startAsks(s) != "":
		ev.Kind, ev.Dialog, ev.Question, ev.Detail = KindAsk, true, m.startAsks(s), "asks before it starts"
		return ev, true
	case (a.State == ActivityActive || a.State == ActivityIdle) && !a.Dialog && m.halt(s) != "":
		// (Codex asks on a plan after its turn's end.)
		ev.Kind, ev.Dialog, ev.Question, ev.Detail = KindAsk, true, m.halt(s), "a choice no hook reports"
		return ev, true
	case a.Dialog && (m.dialogShows(s) || startQuestion(a.Question) && m.startAsks(s) == a.Question ||
		a.Question != "" && m.halt(s) == a.Question):
		a.DialogGoneAt = time.Time{}
		seePlan(r, s)
		if !a.AnsweredAt.IsZero() && at.Sub(a.AnsweredAt) > AnswerLost {
			a.AnsweredAt = time.Time{} // the answer did not take
		}
	case a.Dialog && at.Sub(a.LastEventAt) < WitnessDrawGrace:
		// (LastEventAt: a second dialog opened over the first keeps Since.)
		// Perhaps not drawn yet: this screen says nothing of an answer,
		// so the next look is due when the grace is over, not a whole
		// WitnessDialogEvery later.
		a.WitnessAt = a.LastEventAt.Add(WitnessDrawGrace - WitnessDialogEvery)
	case a.Dialog && (a.DialogGoneAt.IsZero() || a.DialogGoneAt.After(at)):
		a.DialogGoneAt = at
	case a.Dialog && at.Sub(a.DialogGoneAt) >= WitnessConfirmGap:
		if startQuestion(a.Question) {
			ev.Kind, ev.Detail = KindTurnEnd, "question before the start answered"
			return ev, true
		}
		drew := r.Pane.WindowActivity.After(a.DialogGoneAt.Truncate(time.Second))
		how := "dialog answered"
		switch {
		case !a.AnsweredAt.IsZero():
			// The key lanes sent made the agent redraw, whatever the
			// answer (Gemini prints "Request cancelled."): only its busy
			// indicator says the tool runs.
			how, drew = "dialog answered from lanes", false
		case s.Shows(m.Interrupted):
			// The draw may be the agent saying it stopped (a human's Esc
			// on Gemini's dialog): again only the busy indicator counts.
			drew = false
		}
		if drew || s.Shows(m.Busy) {
			ev.Kind, ev.Detail = KindAnswered, how+", pane busy"
			return ev, true
		}
		ev.Kind, ev.Detail = KindTurnEnd, how+", pane still"
		if s.Shows(m.Interrupted) {
			// Refused: the agent says it stopped (Claude Code's
			// "Interrupted · What should Claude do instead?").
			ev.Outcome = OutcomeCancellation
		}
		return ev, true
	case a.State == ActivityIdle && !a.Dialog:
		a.Menu = InMenu(r.Agent, s) // facts of the record, no transition
		m.seeShells(a, s)
		if !first || a.Outcome != OutcomeNone {
			return Event{}, false
		}
		return m.howEnded(s, ev)
	case a.State == ActivityActive && !a.HeldEnd.IsZero():
		return m.seeHeldEnd(a, s, ev)
	case a.State == ActivityActive && seeRetry(a, m, s):
		return Event{}, false // a fact of the record, no transition
	case a.State == ActivityActive && a.HooksReport && s.Shows(m.Idle) && !s.Shows(m.Busy) && !m.dialogShows(s):
		// (Without hooks, pane output says active and idle: a look for a
		// question that finds the prompt is no interrupt.)
		return m.stillEnd(a, s, ev), true
	}
	return Event{}, false
}
