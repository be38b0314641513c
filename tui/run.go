package tui

import (
	"context"
	"errors"
	"strconv"
	"time"

	"lanes/agent"
	"lanes/internal/remote"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Cycler runs one collector cycle; *store.Collector is one.
type Cycler interface {
	Cycle(ctx context.Context) (store.CycleResult, error)
}

// Actions are the session commands the board offers. The session service
// (internal/session) implements them, the same code `lanes new`, `kill`,
// `restart`, `rm` and `send` run, so the board and the command line can
// never disagree. Each runs in a tea.Cmd, off the event loop, on a copy of
// the record.
type Actions interface {
	// Create starts a session; args go to the agent, or are the command
	// itself for a custom one. With worktree, it starts in a new git
	// worktree of dir's repository on branch lanes/NAME (`lanes new
	// --worktree`).
	Create(ctx context.Context, name string, ag state.Agent, dir string, args []string, worktree bool) (*state.Record, error)
	// Kill ends a live session; when its tmux server does not answer it
	// refuses, unless anyway: then the record is marked terminated
	// (state.KilledWhileDown) though its agent may run on. r becomes the
	// record as stored.
	Kill(ctx context.Context, r *state.Record, anyway bool) error
	Restart(ctx context.Context, r *state.Record) error
	Remove(ctx context.Context, r *state.Record) error
	// CleanUp is the one step after r's PR merged: it ends r when it
	// runs, removes its worktree when clean and its record, and says what
	// it did (`lanes rm NAME --merged`).
	CleanUp(ctx context.Context, r *state.Record) (string, error)
	Send(ctx context.Context, r *state.Record, text string, force bool) error
	// Answer answers the permission dialog r shows (r as the card showed
	// it: its dialog is the one meant) and says what it answered; it sends
	// nothing unless the session, read fresh, shows that same dialog.
	Answer(ctx context.Context, r *state.Record, answer agent.Answer) (string, error)
	// Peek is what the session's pane shows now, with tmux's colours.
	Peek(ctx context.Context, r *state.Record) ([]byte, error)
	// Diff is what the session's checkout changed against its base: `git
	// diff --stat`, then the diff, without colour.
	Diff(ctx context.Context, r *state.Record) ([]byte, error)
	// Mute stores whether the session is muted: on, entering Needs you
	// notifies nobody. r becomes the record as stored.
	Mute(ctx context.Context, r *state.Record, on bool) error
	// History is up to n of the session's latest transitions, oldest first.
	History(ctx context.Context, id string, n int) ([]state.Transition, error)
	// Seen records that the human looked at r (docs/design.md §4).
	Seen(ctx context.Context, r *state.Record) error
	// OpenPR opens the URL of the PR r's badge speaks for in a browser,
	// without waiting for it, and says what it did (or shows the URL,
	// when no browser can be run).
	OpenPR(ctx context.Context, r *state.Record) (string, error)
	// CreatePR runs state.PRCreate for r's branch, records the new PR as
	// `lanes pr` does, and says its URL.
	CreatePR(ctx context.Context, r *state.Record) (string, error)
	// RestorePlan is the agent's command `lanes restore` would run for r,
	// whose tmux session is gone, or why r cannot be restored; Restore
	// restores it and says how (resumed, or started afresh).
	RestorePlan(ctx context.Context, r *state.Record) ([]string, error)
	Restore(ctx context.Context, r *state.Record) (string, error)
}

// Theme names accepted by Options.Theme.
const (
	ThemeAuto  = "auto"
	ThemeDark  = "dark"
	ThemeLight = "light"
)

// Options configure the board.
type Options struct {
	// Collector runs full cycles: the tmux read and the spool.
	Collector Cycler
	// Ingest, when set, runs the cycles a spool write asks for: the spool
	// alone, without a tmux read, so a busy agent's hooks cost no tmux exec
	// and reach the screen sooner. Nil: Collector runs those too.
	Ingest  Cycler
	Actions Actions
	// Tmux returns the client for a session's server (its Runtime.Socket):
	// the preview captures and enter attaches through it.
	Tmux func(socket string) *tmux.Client
	// StateDir is watched for spool writes, so a hook line moves its card
	// at once instead of at the next tick. Empty: ticks only.
	StateDir string
	// Wake, when set, asks for a cycle of Ingest's kind as a spool write
	// does: the collector has something taken beside its cycles to apply
	// (the witness's captures).
	Wake <-chan struct{}
	// Theme is auto (ask the terminal), dark or light.
	Theme string
	// NoColor draws without colour (NO_COLOR): glyphs, labels, bold and
	// border shapes carry everything.
	NoColor bool
	// NoContent hides what the cards and notifications say (the tool,
	// the question, the last message): LANES_CONTENT=off, for people who
	// screen-share.
	NoContent bool
	// TmuxEnv is $TMUX: inside the sessions' own server enter switches the
	// client, outside any tmux it attaches, inside another it explains.
	TmuxEnv string
	// Dir is the new-session dialog's default directory.
	Dir string
	// Agent is the new-session dialog's first choice (the caller picks one
	// that is installed); the dialog then remembers the last one used.
	Agent state.Agent
	// BranchPrefix starts the branch of a worktree the dialog makes here
	// (the config file's worktree.branch_prefix; "": lanes/).
	BranchPrefix string
	// UsageTopLine: the top line says what the agents spent today
	// (usage.top_line); Budgets notify once when crossed (usage.go).
	UsageTopLine bool
	Budgets      state.Budgets
	// NoNotify: LANES_NOTIFY=off, no notification about any session.
	NoNotify bool
	// NotifyWays are how the board notifies (NotifyWays' names; nil: all).
	NotifyWays []string
	// SaveTheme keeps the theme t picks ("dark" or "light") for the next
	// board (the config file); nil keeps it for this board only.
	SaveTheme func(theme string) error
	// Notify tells the world outside the board's terminal that sessions
	// entered Needs you; Run uses Outside when nil (New: nobody).
	Notify func(context.Context, Notice)
	// Hosts are the other hosts whose sessions the board shows beside
	// this one's, reached through Remote (docs/design.md §16). None: the
	// board runs no ssh and shows this host alone.
	Hosts  []remote.Host
	Remote Remote
	// Warning is said once on the bottom line when the board starts
	// (lines of the hosts file it skipped).
	Warning string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// ProgramOptions are added to the program's own (tests set input and
	// output here).
	ProgramOptions []tea.ProgramOption
}

// Timing of the board's work.
const (
	// CycleInterval is the polling tick; a spool write cycles at once.
	CycleInterval = time.Second
	// BusyQuiet: cycles that find the store busy keep the records without
	// a word until it has been busy this long (a cycle waits about 1 s for
	// the lock, so this is the second busy cycle in a row).
	BusyQuiet = 2 * time.Second
	// FrameInterval paces the breathing of active dots; the animation
	// ticks only while an active session is on screen.
	FrameInterval = 500 * time.Millisecond
	// StatusFor is how long a status-bar message stays.
	StatusFor = 4 * time.Second
)

// Run opens the board in the alternate screen and returns when the user
// quits or ctx ends.
func Run(ctx context.Context, o Options) error {
	ctx, cancel := context.WithCancel(ctx) // ends the spool watch with the board
	defer cancel()
	var spool <-chan struct{}
	var watchErr error
	if o.StateDir != "" {
		spool, watchErr = store.WatchSpool(ctx, o.StateDir)
	}
	m := New(ctx, o, either(ctx, spool, o.Wake))
	defer m.voice.release()
	if m.o.Notify == nil {
		m.o.Notify = Outside(m.o.Tmux, m.o.NotifyWays)
	}
	if watchErr != nil {
		m.status = statusLine{text: "live updates off (" + watchErr.Error() + "); polling every second", isErr: true}
	}
	m.pace = newPacer()
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(m.pace.fps())}
	if len(o.ProgramOptions) == 0 {
		// Lip Gloss detected the terminal's colours at init, for the same
		// stdout and environment; inside tmux that ran `tmux info`, which
		// Bubble Tea would run again (at 1,000 sessions on that server, a
		// tenth of the board's start).
		opts = append(opts, tea.WithColorProfile(lipgloss.Writer.Profile))
	}
	opts = append(opts, o.ProgramOptions...)
	var model tea.Model = m
	if m.pace != nil {
		model = paced{m, m.pace}
	} else {
		// Never a silent fallback: the idle board costs more, and says why.
		m.status = statusLine{text: "this Bubble Tea hides its renderer's ticker: the board redraws at a fixed " +
			strconv.Itoa(paceFallbackFPS) + " fps (more idle CPU); rebuild lanes with the Bubble Tea in go.mod", isErr: true}
		model = m
	}
	p := tea.NewProgram(model, opts...)
	if m.pace != nil {
		m.pace.prog = p
	}
	_, err := p.Run()
	fromOutside := ctx.Err() != nil
	cancel()
	awaitHosts(m.hostCh, 3*time.Second) // no ssh of the board's outlives it
	if errors.Is(err, tea.ErrProgramKilled) && fromOutside {
		return nil // interrupted from outside: a normal way to leave
	}
	return err
}

// either signals when a or b does (a nil one never does), coalescing as
// they do; it closes when a closes (the spool watch ended). It stops with
// ctx.
func either(ctx context.Context, a, b <-chan struct{}) <-chan struct{} {
	if b == nil {
		return a
	}
	out := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-a:
				if !ok {
					// The spool watch ended: what b wakes for is then
					// applied by the next full cycle, a second later.
					close(out)
					return
				}
			case _, ok := <-b:
				if !ok {
					b = nil
					continue
				}
			}
			select {
			case out <- struct{}{}:
			default:
			}
		}
	}()
	return out
}
