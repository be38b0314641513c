package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"

	tea "charm.land/bubbletea/v2"
)

// Messages: every one is the result of a Cmd, so Update only applies what
// they carry.
type (
	// cycleMsg is one collector cycle's result, and the time it ended;
	// ingest: it ingested the spool without reading tmux.
	cycleMsg struct {
		res    store.CycleResult
		err    error
		now    time.Time
		ingest bool
		quiet  bool // another board notifies (notifyLock)
	}
	// tickMsg asks for the next polling cycle; a stale gen is ignored.
	tickMsg struct{ gen int }
	// spoolMsg: a hook wrote to the spool (closed: the watch ended).
	spoolMsg struct{ closed bool }
	// frameMsg advances the breathing of active dots.
	frameMsg struct{}
	// previewMsg is a capture of session id's pane.
	previewMsg struct {
		id, name string
		out      []byte
		err      error
	}
	// historyMsg is session id's recent transitions.
	historyMsg struct {
		id  string
		at  time.Time
		trs []state.Transition
		err error
	}
	// actionMsg reports a finished action for the status bar.
	actionMsg struct {
		text string
		err  error
	}
	// createdMsg reports the new-session dialog's action.
	createdMsg struct {
		name, host string // host: another host's session
		err        error
	}
	// clearStatusMsg ends status message seq.
	clearStatusMsg struct{ seq int }
)

// Dialog results.
type (
	closeDialogMsg struct{}
	submitNewMsg   struct {
		name  string
		agent state.Agent
		dir   string
		args  []string
		// worktree: in a new git worktree (docs/design.md §12).
		worktree bool
		// host: on that other host ("" this one).
		host string
	}
	confirmedMsg  struct{ act pending }
	submitSendMsg struct {
		rec  state.Record
		text string
		host string // the session's host, "" for this one
	}
)

// pending is an action waiting for its confirmation, on a copy of the
// record as it was when asked.
type pending struct {
	do  *action
	rec state.Record
	// host is the session's host, "" for this one: another host's
	// sessions are acted on there, over ssh.
	host string
}

// action is a session command the board asks to confirm: what it asks,
// what it says when done (each with the session's name), whether it needs
// a live session or a terminated one, and what it runs.
type action struct {
	verb, question, detail, done string
	live                         bool
	run                          func(Actions, context.Context, *state.Record) error
	// say, when set, runs in place of run and its text is what is shown
	// when done; doing, when set, is what is shown while it runs.
	say   func(Actions, context.Context, *state.Record) (string, error)
	doing string
}

var (
	killAction = &action{verb: "kill", question: "Kill %s?",
		detail: "Its tmux session and agent end; the record stays in Done.",
		done:   "killed %s; its card moves to Done", live: true,
		run: func(a Actions, ctx context.Context, r *state.Record) error { return a.Kill(ctx, r, false) }}
	// killDownAction is the kill of a session whose tmux server does not
	// answer: what `lanes kill --yes` does, said before y.
	killDownAction = &action{verb: "kill", question: "Kill %s? tmux is not answering.",
		detail: "Its agent may still run if the server comes back. y marks it terminated anyway.",
		done:   "killed %s; its card moves to Done", live: true,
		run: func(a Actions, ctx context.Context, r *state.Record) error { return a.Kill(ctx, r, true) }}
	restartAction = &action{verb: "restart", question: "Restart %s?",
		detail: "The agent is killed and started again in the same pane.",
		done:   "restarted %s", live: true, run: Actions.Restart}
	removeAction = &action{verb: "remove", question: "Remove %s?",
		detail: "Its record, history and spool are deleted.",
		done:   "removed %s", live: false, run: Actions.Remove}
)

func cycleCmd(ctx context.Context, c Cycler, now func() time.Time, ingest bool, voice *notifyLock) tea.Cmd {
	return func() tea.Msg {
		res, err := c.Cycle(ctx)
		return cycleMsg{res: res, err: err, now: now(), ingest: ingest, quiet: !voice.take()}
	}
}

func tickCmd(gen int) tea.Cmd {
	return tea.Tick(CycleInterval, func(time.Time) tea.Msg { return tickMsg{gen} })
}

func frameCmd() tea.Cmd {
	return tea.Tick(FrameInterval, func(time.Time) tea.Msg { return frameMsg{} })
}

// waitSpool waits for the next spool signal; Update re-arms it.
func waitSpool(ch <-chan struct{}) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		_, ok := <-ch
		return spoolMsg{closed: !ok}
	}
}

func clearStatusCmd(seq int) tea.Cmd {
	return tea.Tick(StatusFor, func(time.Time) tea.Msg { return clearStatusMsg{seq} })
}

func captureCmd(ctx context.Context, a Actions, r state.Record, title string) tea.Cmd {
	return func() tea.Msg {
		out, err := a.Peek(ctx, &r)
		return previewMsg{id: r.ID, name: title, out: out, err: err}
	}
}

// historyCmd asks for session id's history; key is the card's (sessionKey).
func historyCmd(ctx context.Context, a Actions, id, key string, at time.Time) tea.Cmd {
	return func() tea.Msg {
		trs, err := a.History(ctx, id, historyN)
		return historyMsg{id: key, at: at, trs: trs, err: err}
	}
}

func createCmd(ctx context.Context, a Actions, s submitNewMsg) tea.Cmd {
	return func() tea.Msg {
		_, err := a.Create(ctx, s.name, s.agent, s.dir, s.args, s.worktree)
		return createdMsg{name: s.name, host: s.host, err: err}
	}
}

// actionCmd runs a confirmed kill, restart or remove.
func actionCmd(ctx context.Context, a Actions, p pending) tea.Cmd {
	return func() tea.Msg {
		r := p.rec
		if p.do.say != nil {
			text, err := p.do.say(a, ctx, &r)
			if err != nil {
				return actionMsg{err: fmt.Errorf("%s %s: %w", p.do.verb, r.Name, err)}
			}
			return actionMsg{text: text}
		}
		if err := p.do.run(a, ctx, &r); err != nil {
			return actionMsg{err: fmt.Errorf("%s %s: %w", p.do.verb, r.Name, err)}
		}
		// A live session that ends killed while tmux was down was only
		// marked so: saying "killed" would claim its agent stopped.
		if p.rec.Live() && r.Runtime.TerminatedReason == state.KilledWhileDown {
			return actionMsg{text: "marked " + r.Name + " terminated: tmux was not answering, so its agent was not stopped"}
		}
		return actionMsg{text: fmt.Sprintf(p.do.done, r.Name)}
	}
}

func sendCmd(ctx context.Context, a Actions, s submitSendMsg) tea.Cmd {
	return func() tea.Msg {
		r := s.rec
		if err := a.Send(ctx, &r, s.text, false); err != nil {
			return actionMsg{err: fmt.Errorf("send to %s: %w", r.Name, err)}
		}
		return actionMsg{text: "sent to " + r.Name}
	}
}

// attachCmd hands the terminal to the session: outside tmux by running
// tmux attach (the board resumes when the user detaches), inside the
// sessions' own server by switching the client, inside another server not
// at all (nesting would need $TMUX cleared and confuses everyone).
func attachCmd(ctx context.Context, c *tmux.Client, tmuxEnv string, r *state.Record) tea.Cmd {
	sid, name := r.Runtime.SessionID, r.Name
	if sid == "" {
		// Just started, its id not read yet: its session's name is held
		// by this record (the name is taken in the transaction that made
		// it), and the target is exact.
		sid = r.Runtime.TmuxSession
	}
	if tmuxEnv == "" {
		return tea.ExecProcess(c.AttachCmd(sid), func(err error) tea.Msg {
			if err != nil {
				return actionMsg{err: fmt.Errorf("attach %s: %w", name, err)}
			}
			return actionMsg{text: "detached from " + name}
		})
	}
	return func() tea.Msg {
		err := c.SwitchFrom(ctx, tmuxEnv, sid)
		switch {
		case errors.Is(err, tmux.ErrOtherServer):
			return actionMsg{err: fmt.Errorf("%s runs on another tmux server than this one: detach and run the board outside tmux, or `TMUX= lanes attach %s` to nest", name, name)}
		case err != nil:
			return actionMsg{err: fmt.Errorf("switch to %s: %w", name, err)}
		}
		return actionMsg{text: "switched to " + name}
	}
}
