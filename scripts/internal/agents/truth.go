package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
)

// The campaign's judge. The harness knows what was true at each moment: the
// model server logs when each answer began and ended, and the harness knows
// every key it pressed. A truth holds from its time until the next one; a
// card sampled once the truth's allowance has passed must agree with it.
// The allowances are docs/design.md's (§11, "The campaign's allowances").

const (
	// allowHook: an event the agent fires (a prompt taken, a turn's end,
	// a dialog asked, a clean exit) reaches the card: the hook, the spool,
	// the next cycle, and the sampler's own period.
	allowHook = 3 * time.Second
	// allowWitness: a state only the witness settles (a dialog answered
	// by a key, an interrupt, a menu opened or closed): its captures at
	// most every 3 s, one more 1 s on, and the cycle that applies them.
	allowWitness = 5 * time.Second
	// allowExit: the agent's pane died; the next tmux read sees it.
	allowExit = 5 * time.Second
	// allowRetry: an agent retrying with no hook says so on its screen;
	// the witness looks once no hook spoke for WitnessRetryQuiet.
	allowRetry = state.WitnessRetryQuiet + allowWitness
)

// truth is what held from from on; ok nil judges nothing (a moment the
// harness cannot time, such as a background job ending).
type truth struct {
	from  time.Time
	what  string
	allow time.Duration
	ok    func(world.Session) bool
}

// timeline is the truths of one campaign, ordered by time.
type timeline struct{ ts []truth }

// add puts t in its place: a truth may be learnt after the fact (the
// model server says when an answer ended).
func (tl *timeline) add(t truth) {
	i := sort.Search(len(tl.ts), func(i int) bool { return tl.ts[i].from.After(t.from) })
	tl.ts = slices.Insert(tl.ts, i, t)
}

// at is the truth holding at s, and whether there is one.
func (tl *timeline) at(s time.Time) (truth, bool) {
	i := sort.Search(len(tl.ts), func(i int) bool { return tl.ts[i].from.After(s) })
	if i == 0 {
		return truth{}, false
	}
	return tl.ts[i-1], true
}

// violation is a card that disagreed with the truth past its allowance.
type violation struct {
	at    time.Time
	want  string
	card  string
	since time.Duration // how long the truth had held
}

func (v violation) String() string {
	return fmt.Sprintf("card %s %.1fs after the truth became %s (allowance passed)", v.card, v.since.Seconds(), v.want)
}

// judge checks every sample taken in [from, to) and returns the first
// violation.
func (tl *timeline) judge(samples []sample, from, to time.Time) *violation {
	for _, s := range samples {
		if s.at.Before(from) || !s.at.Before(to) {
			continue
		}
		t, ok := tl.at(s.at)
		if !ok || t.ok == nil || s.at.Before(t.from.Add(t.allow)) {
			continue
		}
		if !s.ok || !t.ok(s.s) {
			card := "(not listed)"
			if s.ok {
				card = label(s.s)
			}
			return &violation{at: s.at, want: t.what, card: card, since: s.at.Sub(t.from)}
		}
	}
	return nil
}

// The truths' checks. facts is what the harness knows beside the phase:
// background work running, a failure lanes has not seen the human look at,
// an interrupt.
type facts struct {
	bg          bool // a background job runs (the card must say so)
	failed      bool // a failed turn the human has not seen (only an automatic turn followed)
	interrupted bool // the last turn was interrupted (the card must say so)
}

func hasMark(s world.Session, m string) bool { return slices.Contains(s.Marks, m) }

// marksAgree: the card's marks say what the facts say, and no retry or
// menu shows when none is on.
func (f facts) marksAgree(s world.Session) bool {
	return (!f.bg || hasMark(s, "background")) && (!f.failed || hasMark(s, "failed")) &&
		(!f.interrupted || hasMark(s, "interrupted")) && !hasMark(s, "retrying") && !hasMark(s, "menu")
}

func (f facts) label(phase string) string {
	l := phase
	for _, m := range []struct {
		on   bool
		mark string
	}{{f.bg, "background"}, {f.failed, "failed"}, {f.interrupted, "interrupted"}} {
		if m.on {
			l += "+" + m.mark
		}
	}
	return l
}

func workingTruth(at time.Time, allow time.Duration, f facts) truth {
	return truth{from: at, what: f.label("working"), allow: allow, ok: func(s world.Session) bool {
		return s.Status == "working" && (!f.failed || hasMark(s, "failed"))
	}}
}

func idleTruth(at time.Time, allow time.Duration, f facts) truth {
	return truth{from: at, what: f.label("idle"), allow: allow, ok: func(s world.Session) bool {
		return s.Status == "idle" && f.marksAgree(s) && (!f.failed || s.Zone == "needs_you")
	}}
}

func askingTruth(at time.Time) truth {
	return truth{from: at, what: "needs_input (a dialog)", allow: allowHook, ok: func(s world.Session) bool {
		return s.Status == "needs_input"
	}}
}

func menuTruth(at time.Time) truth {
	return truth{from: at, what: "idle+menu", allow: allowWitness, ok: func(s world.Session) bool {
		return s.Status == "idle" && hasMark(s, "menu")
	}}
}

// goneTruth: the agent's pane died; how says what the card must say.
func goneTruth(at time.Time, how string) truth {
	return truth{from: at, what: "gone (" + how + ")", allow: allowExit, ok: func(s world.Session) bool {
		switch how {
		case "clean":
			return s.IsTerminated && s.TerminatedReason != nil && strings.Contains(*s.TerminatedReason, "clean")
		case "SIGKILL":
			return s.Status == "exited" && exitDetail(s) == "SIGKILL"
		}
		return s.IsTerminated || s.Status == "exited"
	}}
}

// flux judges nothing from at: a moment whose end the harness cannot time.
func flux(at time.Time, why string) truth { return truth{from: at, what: why} }
