package tui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lanes/state"

	tea "charm.land/bubbletea/v2"
)

// notifyBoard is a board whose cycles the test hands over one by one, with
// the terminal's bytes and the outside notices each produced.
type notifyBoard struct {
	t   *testing.T
	m   Model
	mu  sync.Mutex
	out []Notice
}

func newNotifyBoard(t *testing.T, o Options) *notifyBoard {
	b := &notifyBoard{t: t}
	o.Collector, o.Actions, o.Theme = &fakeCycler{}, &fakeActions{}, ThemeDark
	o.Now = func() time.Time { return fixedNow }
	o.Notify = func(_ context.Context, n Notice) { b.mu.Lock(); b.out = append(b.out, n); b.mu.Unlock() }
	b.m = New(context.Background(), o, nil)
	return b
}

// cycle gives the board the records at now and returns what it wrote to
// the terminal for them ("" when it notified nothing).
func (b *notifyBoard) cycle(now time.Time, recs ...*state.Record) string {
	b.m.recs, b.m.now = recs, now // as onCycle does
	b.m.rebuild()
	return rawOf(b.m.notify(now))
}

// rawOf executes a Cmd and what it batches; only instant Cmds may reach it.
func rawOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch msg := cmd().(type) {
	case tea.RawMsg:
		return msg.Msg.(string)
	case tea.BatchMsg:
		var s string
		for _, c := range msg {
			s += rawOf(c)
		}
		return s
	}
	return ""
}

func blocked(r *state.Record) *state.Record {
	c := *r
	c.Activity.State, c.Activity.Tool, c.Activity.ToolInput = state.ActivityBlocked, "Bash", "rm -rf build"
	return &c
}

func TestNotifyOnEnteringNeedsYou(t *testing.T) {
	b := newNotifyBoard(t, Options{})
	api := rec("a1000001", "api", state.ActivityActive, time.Minute)
	at := fixedNow
	if got := b.cycle(at, blocked(api)); got != "" {
		t.Errorf("first load notified %q; it has no before", got)
	}
	b.cycle(at.Add(time.Second), api)
	got := b.cycle(at.Add(2*time.Second), blocked(api))
	want := "\a\x1b]9;lanes: api needs you — Allow Bash: rm -rf build\a\x1b]777;notify;lanes;api needs you — Allow Bash: rm -rf build\a"
	if got != want {
		t.Fatalf("entering Needs you wrote %q, want %q", got, want)
	}
	if len(b.out) != 1 || b.out[0].Body != "api needs you — Allow Bash: rm -rf build" || b.out[0].Sockets[0] != "" {
		t.Errorf("outside notices %+v, want one for api on its socket", b.out)
	}
	if got := b.cycle(at.Add(3*time.Second), blocked(api)); got != "" {
		t.Errorf("staying in Needs you notified again: %q", got)
	}
	b.cycle(at.Add(4*time.Second), api)
	if got := b.cycle(at.Add(5*time.Second), blocked(api)); got != "" {
		t.Errorf("entering again 3 s after the last notification notified: %q", got)
	}
	b.cycle(at.Add(11*time.Second), api)
	if got := b.cycle(at.Add(12*time.Second), blocked(api)); !strings.Contains(got, "\x1b]9;") {
		t.Errorf("entering again 10 s after the last notification wrote %q, want a notification", got)
	}
	web := rec("a1000002", "web", state.ActivityActive, time.Minute)
	if got := b.cycle(at.Add(13*time.Second), blocked(api), blocked(web)); got != "" {
		t.Errorf("a session new to the board notified %q", got)
	}
}

func TestNotifyQuiet(t *testing.T) {
	api := rec("a1000001", "api", state.ActivityActive, time.Minute)
	muted := *api
	muted.Muted = true
	byUser := blocked(api)
	byUser.Activity.Source = "user"
	for _, tt := range []struct {
		name  string
		o     Options
		after *state.Record
		acted time.Duration // before the entry; 0: not acted on
	}{
		{"muted", Options{}, blocked(&muted), 0},
		{"LANES_NOTIFY=off", Options{NoNotify: true}, blocked(api), 0},
		{"activity set by the user", Options{}, byUser, 0},
		{"acted on from the board 4 s ago", Options{}, blocked(api), 4 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newNotifyBoard(t, tt.o)
			b.cycle(fixedNow, api)
			entry := fixedNow.Add(10 * time.Second)
			if tt.acted > 0 {
				b.m.notifier.actedOn(api.ID, entry.Add(-tt.acted))
			}
			if got := b.cycle(entry, tt.after); got != "" || len(b.out) != 0 {
				t.Errorf("wrote %q and told %+v; want nothing", got, b.out)
			}
		})
	}
	t.Run("acted on 5 s ago", func(t *testing.T) {
		b := newNotifyBoard(t, Options{})
		b.cycle(fixedNow, api)
		b.m.notifier.actedOn(api.ID, fixedNow.Add(5*time.Second))
		if got := b.cycle(fixedNow.Add(10*time.Second), blocked(api)); got == "" {
			t.Error("an action 5 s before still kept the entry quiet")
		}
	})
}

// TestNotifyText: the detail is the card's content unless LANES_CONTENT=off,
// else its status; control characters never reach an OSC; several
// sessions entering at once are one notification.
func TestNotifyText(t *testing.T) {
	api := rec("a1000001", "api", state.ActivityActive, time.Minute)
	ask := blocked(api)
	ask.Activity.State, ask.Activity.Question = state.ActivityWaitingInput, "Which \x1b]0;evil\abranch?"
	exit := rec("a1000002", "web", state.ActivityExited, time.Minute)
	exit.Pane.Dead, exit.Pane.ExitStatus = true, intp(3)
	for _, tt := range []struct {
		name    string
		content bool
		recs    []*state.Record
		want    string
	}{
		{"question", true, []*state.Record{ask}, "api needs you — Which branch?"},
		{"content off", false, []*state.Record{blocked(api)}, "api needs you — Needs input"},
		{"exit", true, []*state.Record{exit}, "web needs you — exited (3)"},
		{"two", true, []*state.Record{ask, exit}, "api and web need you"},
		{"four", true, []*state.Record{ask, exit, ask, ask}, "api, web and 2 more need you"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ds []state.Derived
			for _, r := range tt.recs {
				ds = append(ds, state.DeriveAt(r, fixedNow))
			}
			n := noticeFor(ds, tt.content, nil)
			if n.Body != tt.want {
				t.Errorf("body %q, want %q", n.Body, tt.want)
			}
			seq := terminalSeq(n, false)
			if strings.Count(seq, "\x1b") != 2 || strings.Count(seq, "\a") != 3 {
				t.Errorf("sequence %q carries control characters of its text", seq)
			}
		})
	}
}

// TestNotifyClockBack: a clock set back does not hold notifications back
// for as long as it jumped.
func TestNotifyClockBack(t *testing.T) {
	b := newNotifyBoard(t, Options{})
	api := rec("a1000001", "api", state.ActivityActive, time.Minute)
	b.cycle(fixedNow, api)
	b.cycle(fixedNow.Add(time.Second), blocked(api))
	back := fixedNow.Add(-time.Hour)
	b.cycle(back, api)
	if got := b.cycle(back.Add(time.Second), blocked(api)); got == "" {
		t.Error("after the clock went back an hour, entering Needs you told nobody")
	}
}

// An entry the 10 s limit held back is told once the limit is over, if the
// session still needs the user; not if it left Needs you meanwhile.
func TestNotifyHeldEntryToldLater(t *testing.T) {
	b := newNotifyBoard(t, Options{})
	api := rec("a1000001", "api", state.ActivityActive, time.Minute)
	web := rec("a1000002", "web", state.ActivityActive, time.Minute)
	at := fixedNow
	b.cycle(at, api, web)
	b.cycle(at.Add(time.Second), blocked(api), blocked(web)) // told
	b.cycle(at.Add(2*time.Second), api, web)
	b.cycle(at.Add(3*time.Second), blocked(api), blocked(web)) // held back, both
	b.cycle(at.Add(5*time.Second), blocked(api), web)          // web left Needs you
	if got := b.cycle(at.Add(10*time.Second), blocked(api), web); got != "" {
		t.Errorf("inside the limit: %q", got)
	}
	got := b.cycle(at.Add(11*time.Second), blocked(api), web)
	if !strings.Contains(got, "api needs you") || strings.Contains(got, "web") {
		t.Errorf("after the limit wrote %q, want api's held entry told, not web's", got)
	}
	if got := b.cycle(at.Add(12*time.Second), blocked(api), web); got != "" {
		t.Errorf("told twice: %q", got)
	}
}

// Inside tmux ($TMUX set) the OSCs go wrapped in tmux's passthrough DCS
// (ESC P tmux; … ESC \, each ESC inside doubled), which tmux hands on to
// the terminal when the user set allow-passthrough (unwrapped, tmux drops
// them); the bell stays outside, tmux rings it itself (trial 3, item 3).
func TestNotifyInsideTmuxWrapsOSC(t *testing.T) {
	b := newNotifyBoard(t, Options{TmuxEnv: "/tmp/tmux-1000/default,4242,0"})
	api := rec("a1000001", "api", state.ActivityActive, time.Minute)
	b.cycle(fixedNow, api)
	got := b.cycle(fixedNow.Add(time.Second), blocked(api))
	want := "\a\x1bPtmux;" +
		"\x1b\x1b]9;lanes: api needs you — Allow Bash: rm -rf build\a" +
		"\x1b\x1b]777;notify;lanes;api needs you — Allow Bash: rm -rf build\a" +
		"\x1b\\"
	if got != want {
		t.Errorf("inside tmux the board wrote %q, want %q", got, want)
	}
}

// Another host's session entering Needs you is told like this host's,
// named with its host and said as its host derived it; the tmux servers
// shown the message are this host's only.
func TestNotifyAnotherHostsSession(t *testing.T) {
	here := rec("a1000001", "api", state.ActivityActive, time.Minute)
	there := rec("a1000001", "api", state.ActivityActive, time.Minute) // the same id, on build
	there.Runtime.Socket = "remote-only"
	var n notifier
	mirror := func(r *state.Record, st state.Status, z state.Zone) state.Derived {
		return state.Mirrored(r, state.Derivation{Status: st, Zone: z, Since: fixedNow}, "build", false)
	}
	n.entered([]state.Derived{state.DeriveAt(here, fixedNow), mirror(there, state.StatusWorking, state.ZoneWorking)}, fixedNow, false)
	got := n.entered([]state.Derived{state.DeriveAt(here, fixedNow), mirror(there, state.StatusNeedsInput, state.ZoneNeedsYou)}, fixedNow.Add(time.Second), false)
	if len(got) != 1 || got[0].Host != "build" {
		t.Fatalf("entered %+v, want build's api alone (this host's api did not move)", got)
	}
	// The message goes to this host's servers, never to a socket name of
	// build's: those of this host's live sessions, else the default one.
	here.Runtime.Socket = "work"
	notice := noticeFor(got, true, []*state.Record{here})
	if notice.Body != "api@build needs you — Needs input" || !slices.Equal(notice.Sockets, []string{"work"}) {
		t.Errorf("notice %+v, want api@build's message on this host's server work", notice)
	}
	// Its jump goes to every host (a new-user trial: the hint said `lanes
	// next --attach`, which found nothing here).
	if notice.Jump != "lanes next --all-hosts --attach" {
		t.Errorf("jump %q, want lanes next --all-hosts --attach", notice.Jump)
	}
	if here := noticeFor([]state.Derived{state.DeriveAt(here, fixedNow)}, true, nil); here.Jump != "lanes next --attach" {
		t.Errorf("this host's notice jumps with %q", here.Jump)
	}
	if notice := noticeFor(got, true, nil); !slices.Equal(notice.Sockets, []string{""}) {
		t.Errorf("with no live session here, notice %+v, want the default server", notice)
	}
}
