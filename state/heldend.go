package state

import (
	"strings"
	"time"
)

// A held end (docs/design.md §4, §11). Gemini CLI queues a prompt typed
// while a turn runs, with no hook, and runs it as a turn of its own right
// after that one: AfterAgent, then BeforeAgent some 0.3 s later. Taken at
// its word, the hook's end showed the card idle in between while the work
// went on (a campaign, testdata/campaign/gemini-queued-prompt.json). For an
// agent that draws such a queue (Markers.Queued), a hook's turn end from
// work keeps the card working until the witness looks: the queue or its
// busy indicator drawn, the turn is still closing or the next one is
// coming, so it looks again; else, from HeldEndQuiet on, the end stands,
// and from HeldEndMax on whatever the pane shows, or when it cannot be
// read. The next turn's start, an ask, an exit replace the held end.

const (
	// HeldEndLook: how soon a held end is looked at again while the pane
	// still draws the busy indicator.
	HeldEndLook = 250 * time.Millisecond
	// HeldEndMax: how long a busy pane may hold a hook's end before the
	// hook's word stands.
	HeldEndMax = 2 * time.Second
	// HeldEndQuiet: how long after the hook's end a look must come to
	// stand for it. Gemini CLI takes its queue off the screen before the
	// queued prompt's turn draws its spinner: a look in between found
	// neither, and the card read Idle 0.2 s (a campaign, typing 0.1 s into
	// the stream).
	HeldEndQuiet = 500 * time.Millisecond
)

// holdEnd is the activity e moves r's to, next as Apply found it, and
// notes a held end: a hook's turn end that would leave work idle waits for
// a look; a hook that moves the activity replaces a held end (a signal
// or a model call's does not: the end still waits).
func holdEnd(r *Record, e Event, next Activity) Activity {
	a := &r.Activity
	if e.Source == "witness" || e.Kind == KindSignal || e.Kind == KindWorking {
		if next != ActivityActive {
			a.HeldEnd = time.Time{} // a halt's ask, say: no end to wait for
		}
		return next
	}
	a.HeldEnd = time.Time{}
	if m, ok := MarkersOf(r.Agent); !ok || m.Queued == "" || e.Kind != KindTurnEnd || a.State != ActivityActive || next != ActivityIdle {
		return next
	}
	a.HeldEnd = e.At
	return ActivityActive
}

// heldEndLook is when a held end is next looked at: at once, then every
// HeldEndLook.
func heldEndLook(a *ActivityFacts) time.Time {
	if a.WitnessAt.After(a.HeldEnd) {
		return a.WitnessAt.Add(HeldEndLook)
	}
	return a.HeldEnd
}

// seeHeldEnd is what a look at a pane whose turn end is held proves: the
// end, as the hook said it (or as the screen says it ended, Markers.Said),
// once the pane shows no queued prompt and no busy indicator HeldEndQuiet
// or more after the hook, or once HeldEndMax passed whatever it shows (a
// queued prompt's turn starts 0.3 s after the end: a queue line still
// there is a model's answer quoting it); nothing before.
func (m Markers) seeHeldEnd(a *ActivityFacts, s Screen, ev Event) (Event, bool) {
	age := ev.At.Sub(a.HeldEnd)
	if (m.queues(s) || s.Shows(m.Busy)) && age < HeldEndMax || age < HeldEndQuiet {
		return Event{}, false
	}
	a.HeldEnd = time.Time{}
	if how, ok := m.howEnded(s, ev); ok && a.Outcome == OutcomeNone {
		return how, true // interrupted, or failed, as its screen says
	}
	ev.Kind, ev.Outcome, ev.Failure = KindTurnEnd, a.Outcome, a.Failure
	ev.Detail = "the hook's turn end, seen with no prompt queued"
	return ev, true
}

// HeldEndUnread is the end that stands for r's held end when its pane
// could not be read at at, HeldEndMax after the hook: the hook's word.
func HeldEndUnread(r *Record, at time.Time) (Event, bool) {
	a := &r.Activity
	if a.HeldEnd.IsZero() || a.State != ActivityActive || at.Sub(a.HeldEnd) < HeldEndMax {
		return Event{}, false
	}
	a.HeldEnd = time.Time{}
	return Event{At: at, Source: "witness", Kind: KindTurnEnd, Outcome: a.Outcome, Failure: a.Failure,
		Detail: "the hook's turn end; its pane could not be read"}, true
}

// queues reports whether s shows a prompt queued: a line that starts with
// m.Queued as the agent draws it. (A model's answer that quotes it so
// holds the card working until the witness sees the pane still: a look
// more, never a lost turn.)
func (m Markers) queues(s Screen) bool {
	for l := range strings.SplitSeq(string(s), "\n") {
		if m.Queued != "" && strings.HasPrefix(l, m.Queued) {
			return true
		}
	}
	return false
}
