package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// run is one agent × scenario: a private world, a lanes session running the
// real agent, and a sampler reading `lanes ls --json` all along.
type run struct {
	a     agent
	w     *world.World
	srv   *modelserver.Server
	key   string // model server session key
	name  string // lanes session name
	pane  string
	quick bool

	mu      sync.Mutex
	samples []sample
	stop    chan struct{}
	done    chan struct{}

	t0, last time.Time // first action, last action
	base     int       // events lanes had counted at the last action
	started  time.Time // lanes new
	newArgs  []string  // lanes new's arguments
	witness  []time.Duration
	screens  map[string]string
	screen   string // last capture, for a failure's evidence
	notes    []string
}

type sample struct {
	at time.Time // when the ls call returned: the card was this by then
	s  world.Session
	ok bool // the session was listed
}

// errCannot: the agent cannot be driven through this scenario here; the
// message says why.
var errCannot = errors.New("cannot")

func cannot(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errCannot}, a...)...)
}

// sampleEvery is the ls polling period: fine enough for transitions of
// about a second, light enough beside a real agent on 2 cores.
const sampleEvery = 250 * time.Millisecond

func (r *run) startSampler() {
	r.stop, r.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(r.done)
		for {
			select {
			case <-r.stop:
				return
			default:
			}
			all, err := r.w.Ls()
			smp := sample{at: time.Now()}
			if err == nil {
				smp.s, smp.ok = all[r.name]
			}
			r.mu.Lock()
			r.samples = append(r.samples, smp)
			r.mu.Unlock()
			select {
			case <-r.stop:
				return
			case <-time.After(sampleEvery):
			}
		}
	}()
}

func (r *run) stopSampler() {
	if r.stop != nil {
		close(r.stop)
		<-r.done
		r.stop = nil
	}
}

// act marks the start of a human action: transitions are timed from it.
func (r *run) act() {
	r.last, r.base = time.Now(), counted(r.latest())
	if r.t0.IsZero() {
		r.t0 = r.last
	}
}

// expect waits until a sample taken after the last action satisfies pred,
// and returns how long after the action that was.
func (r *run) expect(what string, deadline time.Duration, pred func(world.Session) bool) (time.Duration, error) {
	from, end := r.last, time.Now().Add(deadline)
	seen := 0
	for {
		r.mu.Lock()
		smps := r.samples[seen:]
		seen = len(r.samples)
		r.mu.Unlock()
		for _, s := range smps {
			if s.ok && !s.at.Before(from) && pred(s.s) {
				return s.at.Sub(from), nil
			}
		}
		if time.Now().After(end) {
			return 0, fmt.Errorf("%s: not seen within %s (card: %s)", what, deadline, r.card())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// settled is expect for a state a hook event must bring: the sample must
// also count more events than lanes had at the action, so a card still
// showing the state from before the action does not pass.
func (r *run) settled(what string, deadline time.Duration, pred func(world.Session) bool) (time.Duration, error) {
	base := r.base
	return r.expect(what, deadline, func(s world.Session) bool { return counted(s) > base && pred(s) })
}

// witnessed is expect for a transition only the witness can make; its time
// goes into the witness latency figures.
func (r *run) witnessed(what string, deadline time.Duration, pred func(world.Session) bool) error {
	took, err := r.expect(what, deadline, pred)
	if err == nil {
		r.witness = append(r.witness, took)
	}
	return err
}

// hold checks that every sample for d satisfies pred.
func (r *run) hold(what string, d time.Duration, pred func(world.Session) bool) error {
	from, end := time.Now(), time.Now().Add(d)
	for time.Now().Before(end) {
		time.Sleep(100 * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.samples {
		if s.at.After(from) && s.at.Before(end) && (!s.ok || !pred(s.s)) {
			return fmt.Errorf("%s: broken %.1fs in (card: %s)", what, s.at.Sub(from).Seconds(), label(s.s))
		}
	}
	return nil
}

// card is the latest sampled card.
func (r *run) card() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.samples) - 1; i >= 0; i-- {
		if r.samples[i].ok {
			return label(r.samples[i].s)
		}
	}
	return "(not listed)"
}

// latest is the latest sampled record of the session.
func (r *run) latest() world.Session {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.samples) - 1; i >= 0; i-- {
		if r.samples[i].ok {
			return r.samples[i].s
		}
	}
	return world.Session{}
}

// label is a card as the walk shows it: status, detail, marks.
func label(s world.Session) string {
	l := s.Status
	switch {
	case s.IsTerminated && s.TerminatedReason != nil:
		l += "(" + *s.TerminatedReason + ")"
	case s.Status == "exited":
		l += "(" + exitDetail(s) + ")"
	}
	for _, m := range s.Marks {
		l += "+" + m
	}
	return l
}

func exitDetail(s world.Session) string {
	var e struct {
		Status *int    `json:"status"`
		Signal *string `json:"signal"`
	}
	if s.Exit == nil || json.Unmarshal(*s.Exit, &e) != nil {
		return "unknown"
	}
	switch {
	case e.Signal != nil:
		return *e.Signal
	case e.Status != nil:
		return fmt.Sprint(*e.Status)
	}
	return "unknown"
}

// walk is the card's history from the first action: each new label and
// when it first showed, e.g. "needs_input 0.4s → working 1.8s → idle 22.1s".
func (r *run) walk() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var parts []string
	prev := ""
	if r.t0.IsZero() {
		return "" // no human action was taken (a CANNOT before any)
	}
	for _, s := range r.samples {
		if !s.ok || s.at.Before(r.t0) {
			continue
		}
		if l := label(s.s); l != prev {
			parts = append(parts, fmt.Sprintf("%s %.1fs", l, s.at.Sub(r.t0).Seconds()))
			prev = l
		}
	}
	return strings.Join(parts, " → ")
}

func is(status string, marks ...string) func(world.Session) bool {
	return func(s world.Session) bool {
		if s.Status != status {
			return false
		}
		for _, m := range marks {
			found := false
			for _, have := range s.Marks {
				found = found || have == m
			}
			if !found {
				return false
			}
		}
		return true
	}
}

// capture is the agent's pane as text; at a named step it is also kept as
// a fixture screen.
func (r *run) capture(step string) string {
	out, _ := r.w.Tmux(r.w.Socket, "capture-pane", "-p", "-J", "-t", r.pane)
	r.screen = out
	if step != "" {
		r.screens[step] = out
	}
	return out
}

// waitScreen waits until the pane shows one of markers.
func (r *run) waitScreen(what string, deadline time.Duration, markers []string) error {
	ok := world.Poll(deadline, 250*time.Millisecond, func() bool { return hasAny(r.capture(""), markers) })
	if !ok {
		return fmt.Errorf("%s: the screen never showed %q within %s", what, markers, deadline)
	}
	return nil
}

// waitReady waits for the idle prompt to show in two captures a second
// apart: Gemini and Codex drop keys typed before their prompt settles.
func (r *run) waitReady(deadline time.Duration) error {
	end := time.Now().Add(deadline)
	for {
		if err := r.waitScreen("the agent's prompt", time.Until(end), r.a.ready); err != nil {
			return err
		}
		time.Sleep(time.Second)
		if hasAny(r.capture(""), r.a.ready) && !hasAny(r.screen, r.a.dialog) {
			return nil
		}
	}
}

func hasAny(screen string, markers []string) bool {
	for _, m := range markers {
		if strings.Contains(screen, m) {
			return true
		}
	}
	return false
}

// send is `lanes send`; it returns the exit code.
func (r *run) send(text string) (int, string) {
	r.act()
	res := r.w.Lanes("", "send", r.name, "--", text)
	return res.Code, strings.TrimSpace(res.Stderr)
}

// prompt sends text and requires lanes to take it and the agent to start
// on it (a hook event or a model request). A prompt lanes said it sent and
// the agent never started on is lanes losing the user's words: the row
// fails, saying whether the text stood unsent in the agent's input box.
// A slash command need start no turn; it only must not stand unsent.
func (r *run) prompt(text string) error {
	turns := r.turnsServed()
	if code, msg := r.send(text); code != 0 {
		return fmt.Errorf("lanes send %q: exit %d: %s (card: %s)", text, code, msg, r.card())
	}
	base := r.base
	slash := strings.HasPrefix(text, "/")
	wait := 15 * time.Second
	if slash {
		wait = 5 * time.Second
	}
	if world.Poll(wait, 200*time.Millisecond, func() bool {
		return r.turnsServed() > turns || counted(r.latest()) > base
	}) {
		return nil
	}
	screen := r.capture("")
	unsent := !hasAny(screen, r.a.ready) && strings.Contains(screen, text)
	switch {
	case slash && !unsent:
		return nil
	case unsent:
		return fmt.Errorf("lanes send %q: exit 0, but the text stands unsent in the agent's input box after %v", text, wait)
	}
	return fmt.Errorf("lanes send %q: exit 0, but the agent started no turn in %v and the text is not on its screen", text, wait)
}

// key presses one tmux key in the agent's pane, as a human would.
func (r *run) press(k string) error {
	r.act()
	// "Escape Escape" is two presses, apart as a human makes them (OpenCode
	// interrupts on a second Esc; two in one burst read as one key).
	keys := strings.Fields(k)
	for _, key := range keys[:len(keys)-1] {
		if out, err := r.w.Tmux(r.w.Socket, "send-keys", "-t", r.pane, key); err != nil {
			return fmt.Errorf("pressing %s: %v %s", key, err, out)
		}
		time.Sleep(300 * time.Millisecond)
	}
	k = keys[len(keys)-1]
	if out, err := r.w.Tmux(r.w.Socket, "send-keys", "-t", r.pane, k); err != nil {
		return fmt.Errorf("pressing %s: %v %s", k, err, out)
	}
	return nil
}

// panePID is the pid of the process lanes started in the pane.
func (r *run) panePID() (int, error) {
	out, err := r.w.Tmux(r.w.Socket, "display-message", "-p", "-t", r.pane, "#{pane_pid}")
	if err != nil {
		return 0, fmt.Errorf("reading the pane's pid: %v %s", err, out)
	}
	var pid int
	_, err = fmt.Sscan(out, &pid)
	return pid, err
}

// killTree SIGKILLs pid's descendants, then pid: the agent dies at once,
// as in a crash or the OOM killer, with no child left holding the pane open.
func killTree(pid int) {
	out, _ := exec.Command("pgrep", "-P", fmt.Sprint(pid)).Output()
	for _, f := range strings.Fields(string(out)) {
		var child int
		if _, err := fmt.Sscan(f, &child); err == nil {
			killTree(child)
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
