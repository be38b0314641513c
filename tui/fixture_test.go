package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"lanes/agent"
	"lanes/state"
	"lanes/state/store"

	tea "charm.land/bubbletea/v2"
)

// fixedNow is the fixture's clock: every age on a golden is relative to it.
var fixedNow = time.Date(2026, 11, 29, 17, 0, 0, 0, time.UTC)

func ago(d time.Duration) time.Time { return fixedNow.Add(-d) }

func intp(n int) *int { return &n }

// rec builds a live, hook-capable record of the given activity.
func rec(id, name string, a state.Activity, since time.Duration) *state.Record {
	return &state.Record{
		ID: id, Name: name, Agent: state.AgentClaude, Dir: "/src/" + name,
		CreatedAt: ago(3 * time.Hour),
		Runtime: state.Runtime{TmuxSession: "lanes-" + name, SessionID: "$" + id[6:], PaneID: "%" + id[6:],
			Launch: "l" + id, PaneStartedAt: ago(3 * time.Hour)},
		Pane: state.Pane{PID: 100, WindowActivity: ago(5 * time.Second), ObservedAt: ago(time.Second)},
		Activity: state.ActivityFacts{State: a, Since: ago(since), Source: "hook:claude",
			FirstSignalAt: ago(3 * time.Hour), LastEventAt: ago(since), HooksReport: true},
	}
}

func withPR(r *state.Record, p state.PR) *state.Record {
	if p.Number == 0 {
		p.Number = 10 + len(r.PRs)
	}
	r.PRs = append(r.PRs, p)
	return r
}

func terminated(r *state.Record, reason string, at time.Duration) *state.Record {
	r.Runtime.Terminated, r.Runtime.TerminatedReason, r.Runtime.TerminatedAt = true, reason, ago(at)
	r.Activity.State, r.Activity.Since = state.ActivityExited, ago(at)
	return r
}

func openPR(review, ci, mergeable string) state.PR {
	return state.PR{State: state.PRStateOpen, Review: review, CI: ci, Mergeable: mergeable, Head: "feat", Base: "main"}
}

// fixture covers every status Derive returns, both marks of an idle turn,
// the silence and unreachable marks, both exit details, the idle stack,
// merged-but-live, and both kinds of Done (plus one past 24 h).
func fixture() []*state.Record {
	working := rec("a1000001", "api", state.ActivityActive, 2*time.Minute)
	working.Branch = "fix-login"
	silent := rec("a1000002", "ui-polish", state.ActivityActive, 30*time.Minute)
	silent.Activity.LastEventAt, silent.Pane.WindowActivity = ago(15*time.Minute), ago(5*time.Minute)
	failed := rec("b1000003", "build", state.ActivityIdle, 4*time.Minute)
	failed.Activity.Outcome = state.OutcomeFailure
	interrupted := rec("b1000004", "lint", state.ActivityIdle, 9*time.Minute)
	interrupted.Activity.Outcome = state.OutcomeCancellation
	exit3 := rec("c1000005", "crash", state.ActivityExited, 40*time.Second)
	exit3.Pane.Dead, exit3.Pane.ExitStatus = true, intp(3)
	killed := rec("c1000006", "oom", state.ActivityExited, 3*time.Minute)
	killed.Agent = state.AgentCodex
	killed.Pane.Dead, killed.Pane.ExitSignal = true, "SIGKILL"
	quiet := rec("c1000007", "quiet", state.ActivityIdle, 5*time.Minute)
	quiet.Activity.FirstSignalAt, quiet.Runtime.PaneStartedAt = time.Time{}, ago(5*time.Minute)
	lost := rec("c1000008", "lost", state.ActivityActive, time.Hour)
	lost.Runtime.UnreachableSince = ago(20 * time.Second)
	lost.Agent = state.AgentGemini
	landed := withPR(rec("e1000009", "landed", state.ActivityIdle, 50*time.Minute), state.PR{State: state.PRStateMerged})
	landed.Branch = "feat-cache"
	return []*state.Record{
		working, silent,
		rec("b1000001", "docs", state.ActivityIdle, time.Hour),
		failed, interrupted,
		rec("c1000001", "web", state.ActivityWaitingInput, 90*time.Second),
		rec("c1000002", "perm", state.ActivityBlocked, 20*time.Second),
		exit3, killed, quiet, lost,
		withPR(rec("c1000009", "flaky", state.ActivityIdle, 7*time.Minute), openPR(state.ReviewPending, state.CIFailing, state.MergeableUnknown)),
		withPR(rec("c100000a", "refactor", state.ActivityIdle, 2*time.Hour), openPR(state.ReviewChangesRequested, state.CIPassing, state.MergeableUnknown)),
		withPR(rec("c100000b", "rebase", state.ActivityIdle, 5*time.Second), openPR(state.ReviewApproved, state.CIPassing, state.MergeableNo)),
		withPR(rec("d1000001", "wip", state.ActivityIdle, 3*time.Hour), state.PR{State: state.PRStateDraft, Review: state.ReviewNone, CI: state.CIPending}),
		withPR(rec("d1000002", "review", state.ActivityIdle, 26*time.Hour), openPR(state.ReviewPending, state.CIPassing, state.MergeableUnknown)),
		withPR(rec("d1000003", "feature", state.ActivityIdle, 12*time.Minute), openPR(state.ReviewNone, state.CINone, state.MergeableUnknown)),
		withPR(rec("e1000001", "approve", state.ActivityIdle, 6*time.Minute), openPR(state.ReviewApproved, state.CIPassing, state.MergeableUnknown)),
		withPR(rec("e1000002", "ship", state.ActivityIdle, time.Minute), openPR(state.ReviewApproved, state.CIPassing, state.MergeableYes)),
		landed,
		terminated(withPR(rec("f1000001", "shipped", state.ActivityIdle, time.Hour), state.PR{State: state.PRStateMerged}), "agent exited cleanly (status 0)", 2*time.Hour),
		terminated(rec("f1000002", "old", state.ActivityIdle, time.Hour), "killed by user", 3*time.Hour),
		terminated(rec("f1000003", "ancient", state.ActivityIdle, time.Hour), "tmux session gone", 72*time.Hour),
	}
}

// emptyLaneFixture leaves In review empty.
func emptyLaneFixture() []*state.Record {
	return []*state.Record{
		rec("a1000001", "api", state.ActivityActive, 2*time.Minute),
		rec("b1000001", "docs", state.ActivityIdle, time.Hour),
		rec("c1000001", "web", state.ActivityWaitingInput, 90*time.Second),
		withPR(rec("e1000002", "ship", state.ActivityIdle, time.Minute), openPR(state.ReviewApproved, state.CIPassing, state.MergeableYes)),
		terminated(rec("f1000002", "old", state.ActivityIdle, time.Hour), "killed by user", 3*time.Hour),
	}
}

// fakeCycler returns the records it holds.
type fakeCycler struct {
	mu      sync.Mutex
	recs    []*state.Record
	tmuxErr error
	err     error
	n       int
}

func (f *fakeCycler) Cycle(context.Context) (store.CycleResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	if f.err != nil {
		return store.CycleResult{}, f.err
	}
	return store.CycleResult{Records: f.recs, TmuxErr: f.tmuxErr, At: fixedNow}, nil
}

// fakeActions records what the board asked for.
type fakeActions struct {
	mu    sync.Mutex
	calls []string
	hist  []state.Transition
}

func (f *fakeActions) note(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fakeActions) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeActions) Create(_ context.Context, name string, agent state.Agent, dir string, args []string, worktree bool) (*state.Record, error) {
	wt := ""
	if worktree {
		wt = " worktree"
	}
	f.note("create " + name + " " + string(agent) + " " + dir + strings.Join(append([]string{""}, args...), " |") + wt)
	if name == "taken" {
		return nil, errors.New(`a live session named "taken" exists`)
	}
	return &state.Record{Name: name}, nil
}

func (f *fakeActions) Kill(_ context.Context, r *state.Record, anyway bool) error {
	if !anyway {
		f.note("kill " + r.Name)
		return nil
	}
	f.note("kill " + r.Name + " anyway")
	if !r.Runtime.UnreachableSince.IsZero() {
		state.Terminate(r, state.KilledWhileDown, "user", fixedNow)
	}
	return nil
}

func (f *fakeActions) Restart(_ context.Context, r *state.Record) error {
	f.note("restart " + r.Name)
	return nil
}

func (f *fakeActions) Remove(_ context.Context, r *state.Record) error {
	f.note("remove " + r.Name)
	return nil
}

func (f *fakeActions) CleanUp(_ context.Context, r *state.Record) (string, error) {
	f.note("clean up " + r.Name)
	return "removed " + r.Name + " (its PR merged)", nil
}

func (f *fakeActions) Send(_ context.Context, r *state.Record, text string, force bool) error {
	f.note("send " + r.Name + " " + text)
	return state.CanSend(r, force)
}

// Answer notes the dialog identity the board passed (the card's asking
// tool and dialog time) and says what the real one says.
func (f *fakeActions) Answer(_ context.Context, r *state.Record, ans agent.Answer) (string, error) {
	f.note("answer " + r.Name + " " + string(ans) + " " + r.Activity.AskingTool + " " + r.Activity.DialogAt.Format(time.RFC3339))
	if err := agent.Answerable(r); err != nil {
		return "", err
	}
	return "approved " + state.CallLine(r) + " in " + r.Name, nil
}

// Diff says what the fake checkout changed: a stat and a few lines.
func (f *fakeActions) Diff(_ context.Context, r *state.Record) ([]byte, error) {
	f.note("diff " + r.Name)
	var b strings.Builder
	b.WriteString(" app.go | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\ndiff --git a/app.go b/app.go\n@@ -1 +1 @@\n-old\n+new \x1b]52;c;aGk=\x07line\n")
	for i := range 60 {
		fmt.Fprintf(&b, " context %d\n", i)
	}
	return []byte(b.String()), nil
}

func (f *fakeActions) Seen(_ context.Context, r *state.Record) error {
	f.note("seen " + r.Name)
	return nil
}

func (f *fakeActions) Mute(_ context.Context, r *state.Record, on bool) error {
	f.note(fmt.Sprintf("mute %s %v", r.Name, on))
	r.Muted = on
	return nil
}

func (f *fakeActions) History(context.Context, string, int) ([]state.Transition, error) {
	return f.hist, nil
}

// loaded is a model that has seen one cycle of recs in a w×h terminal.
func loaded(recs []*state.Record, themeName string, w, h int) Model {
	m := New(context.Background(), Options{
		Collector: &fakeCycler{recs: recs}, Actions: &fakeActions{},
		Theme: themeName, Now: func() time.Time { return fixedNow }, Dir: "/src",
	}, nil)
	m = step(m, tea.WindowSizeMsg{Width: w, Height: h})
	return step(m, cycleMsg{res: store.CycleResult{Records: recs, At: fixedNow}, now: fixedNow})
}

// step applies one message, dropping the commands.
func step(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		m = step(m, keyMsg(k))
	}
	return m
}

// keyMsg builds the key press that String()s as k.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// OpenPR says which URL it would open, as the real one does with no
// browser; a card without a PR URL gets the real one's refusal.
func (f *fakeActions) OpenPR(_ context.Context, r *state.Record) (string, error) {
	f.note("open-pr " + r.Name)
	p, ok := state.BadgePR(r.PRs)
	if !ok || p.URL == "" {
		return "", errors.New("no PR with a URL")
	}
	return fmt.Sprintf("no browser: PR #%d %s", p.Number, p.URL), nil
}

// CreatePR "creates" PR #42 on the session's branch.
func (f *fakeActions) CreatePR(_ context.Context, r *state.Record) (string, error) {
	f.note("create-pr " + r.Name + " " + r.Branch)
	return "PR created: https://github.com/o/r/pull/42", nil
}

// RestorePlan shows the agent resuming its session id, as the real one
// does for a gone session; a session ended otherwise gets its refusal.
func (f *fakeActions) RestorePlan(_ context.Context, r *state.Record) ([]string, error) {
	if err := state.Restorable(r, true); err != nil {
		return nil, err
	}
	return []string{string(r.Agent), "--resume", "0b7e3c2a-5d1f-4e8a-9c6b-2f4a8e1d7c35"}, nil
}

// Restore "restores" it.
func (f *fakeActions) Restore(_ context.Context, r *state.Record) (string, error) {
	f.note("restore " + r.Name)
	return "restored " + r.Name + ": resumed", nil
}

func (f *fakeActions) Peek(_ context.Context, r *state.Record) ([]byte, error) {
	f.note("peek " + r.Name)
	return []byte("the pane of " + r.Name + "\n"), nil
}
