package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"lanes/agent"
	"lanes/state"
	"lanes/state/store"
	"lanes/tmux"
)

// ErrDialogGone: the dialog the user answered is no longer the one the
// agent shows (answered in the pane, or another one opened).
var ErrDialogGone = errors.New("the dialog is gone")

// Answer presses the keys that answer the permission dialog seen shows,
// and says what was answered ("approved Bash: npm test in api"). seen is
// the record as the user saw it: the keys go only if the record read
// fresh now, after a cycle, still shows that same dialog (the same asking
// tool call, opened at the same time), so a stale board or a dialog
// answered meanwhile in the pane never gets a key meant for another.
func (s *Service) Answer(ctx context.Context, seen *state.Record, ans agent.Answer) (string, error) {
	if err := agent.Answerable(seen); err != nil {
		return "", err
	}
	if _, err := agent.KeysFor(seen.Agent, ans); err != nil {
		return "", err
	}
	cur, err := s.stillAsking(ctx, seen)
	if err != nil {
		return "", err
	}
	sent, unclaim, err := s.claimAnswer(cur)
	if err != nil {
		return "", fmt.Errorf("%w; nothing was sent", err)
	}
	// The record can lag the screen by a few seconds (a dialog answered
	// in the pane says so through no hook, a newer one opens before its
	// hook): the keys go only while the pane's newest dialog asks about
	// exactly this call, with the option they pick.
	// An agent may ignore keys for a moment after its dialog opens: the
	// keys wait that out (the check below reads the screen after it).
	if wait := min(cur.Activity.DialogAt.Add(agent.KeyGuard(cur.Agent)).Sub(s.now()), agent.KeyGuard(cur.Agent)); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			unclaim()
			return "", fmt.Errorf("%w; nothing was sent", ctx.Err())
		}
	}
	tc := s.Tmux(cur.Runtime.Socket)
	screen, err := captureDialog(ctx, tc, cur)
	if err != nil {
		unclaim()
		return "", fmt.Errorf("reading its pane before answering: %w; nothing was sent", err)
	}
	keys, err := agent.CheckDialog(cur.Agent, ans, cur.Activity.CallSum, string(screen))
	if err != nil {
		unclaim()
		var other *agent.OtherCallError
		switch {
		case errors.Is(err, agent.ErrNoDialogOnScreen):
			err = fmt.Errorf("%w: %w", ErrDialogGone, err)
		case errors.As(err, &other) && s.content():
			// Both, so the two can be told apart where they look alike.
			err = fmt.Errorf("%w; the card showed %s", err, toolOf(cur, true))
		}
		return "", fmt.Errorf("%w; nothing was sent — `lanes attach %s` to answer in its pane", err, cur.Name)
	}
	if keys[len(keys)-1] == "Enter" && agent.StyledDialog(cur.Agent) {
		keys, err = s.moveHighlight(ctx, tc, cur, ans, keys)
	}
	if err == nil {
		err = tc.SendKeys(ctx, cur.Runtime.PaneID, keys...)
	}
	switch {
	case errors.Is(err, errHighlightMoved):
		// Only the highlight moved: nothing was confirmed.
		unclaim()
		return "", fmt.Errorf("%w; nothing was confirmed — `lanes attach %s` to answer in its pane", err, cur.Name)
	case errors.Is(err, tmux.ErrNoSession), errors.Is(err, tmux.ErrNoServer):
		unclaim()
		return "", fmt.Errorf("its pane is gone (the session ended); nothing was sent")
	case errors.Is(err, tmux.ErrSynchronized):
		unclaim()
		return "", fmt.Errorf("%w; nothing was sent — answer in its pane (lanes attach %s), or turn synchronize-panes off", err, cur.Name)
	case err != nil:
		// The keys may have gone: the claim stays, so no retry doubles them.
		return "", fmt.Errorf("%w; look at the pane (lanes attach %s) before answering again", err, cur.Name)
	}
	return s.afterKeys(ctx, tc, cur, ans, sent, unclaim)
}

// afterKeys says what the keys did, as far as the pane shows in a moment:
// a step a moved highlight opened is left, a dialog still showing is said.
func (s *Service) afterKeys(ctx context.Context, tc *tmux.Client, cur *state.Record, ans agent.Answer, sent time.Time, unclaim func()) (string, error) {
	if agent.StyledDialog(cur.Agent) && s.steppedBack(ctx, tc, cur) {
		unclaim()
		return "", fmt.Errorf("%w as lanes confirmed: its Enter opened %s's \"always allow\" step, which lanes left with Esc, nothing allowed — answer again", errHighlightMoved, cur.Name)
	}
	said := fmt.Sprintf("%s %s in %s", answered[ans], toolOf(cur, s.content()), cur.Name)
	gone := s.recordAnswer(ctx, tc, cur, ans, sent)
	if took, ok := s.replied(ctx, cur, sent); ok {
		// The agent's own word wins over any look: the next call's
		// dialog, the same command again, may already show (the twelfth
		// re-run: "did not take" said of a yes that ran).
		if took == ans {
			return said, nil
		}
		_ = s.Update(cur.ID, func(r *state.Record, tx *store.Tx) error {
			return tx.AppendHistory(r.ID, state.Transition{At: s.now(), From: r.Activity.State, To: r.Activity.State, Source: "user",
				Detail: fmt.Sprintf("but its dialog took %s (its highlight moved)", agent.Words(cur.Agent)[took]) + state.DetailSep + toolOf(cur, true)})
		})
		return "", fmt.Errorf("%s's dialog took %q, not %q (its highlight moved in the pane as lanes confirmed): it %s %s — look at the pane (lanes attach %s)",
			cur.Name, agent.Words(cur.Agent)[took], agent.Words(cur.Agent)[ans], answered[took], toolOf(cur, s.content()), cur.Name)
	}
	switch {
	case !gone && agent.StyledDialog(cur.Agent):
		// OpenCode swallows a key pressed with another (the tenth and
		// eleventh re-runs: Esc with an arrow): the dialog takes an
		// answer again, and lanes says none took.
		unclaim()
		return "", fmt.Errorf("sent %s's keys, but its dialog still shows %v later: they did not take — answer again, or attach (lanes attach %s)", cur.Name, answerLook, cur.Name)
	case !gone:
		// (The keys went; whether they took, the pane did not say yet.)
		said += fmt.Sprintf(" — its dialog still showed %v later: look at the pane (lanes attach %s)", answerLook, cur.Name)
	}
	return said, nil
}

// replyLook bounds how long an answer waits for the agent to say which
// option its dialog took.
const replyLook = 2 * time.Second

// replied is the answer cur's agent says its dialog took since sent,
// once its event comes (for at most replyLook), for an agent whose Enter
// takes the option drawn highlighted (OpenCode's permission.replied): a
// person may move the highlight in the instant between lanes' last look
// and its Enter (the eleventh hostile re-run's Left: yes rejected), and
// nothing can undo that, but lanes does not claim what did not happen.
// false: the agent said nothing.
func (s *Service) replied(ctx context.Context, cur *state.Record, sent time.Time) (agent.Answer, bool) {
	if !agent.StyledDialog(cur.Agent) {
		return "", false
	}
	for end := time.Now().Add(replyLook); ; {
		if res, err := s.Cycle(ctx); err == nil {
			if r, err := state.Resolve(res.Records, cur.ID); err == nil && r.Activity.Replied != "" && !r.Activity.RepliedAt.Before(sent) {
				return agent.Answer(r.Activity.Replied), true
			}
		}
		select {
		case <-ctx.Done():
			return "", false
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(end) {
			return "", false
		}
	}
}

// steppedBack looks, for a moment after the keys, for the step a dialog
// opens when Enter landed on another option than meant (a highlight
// moved in the last instant: the ninth hostile re-run's held Right), and
// leaves it with its key, nothing decided; true when it did.
func (s *Service) steppedBack(ctx context.Context, tc *tmux.Client, r *state.Record) bool {
	for end := time.Now().Add(answerLook); time.Now().Before(end); {
		b, err := captureDialog(ctx, tc, r)
		if err != nil {
			return false
		}
		if back := agent.SteppedInto(r.Agent, string(b)); back != nil {
			return tc.SendKeys(ctx, r.Runtime.PaneID, back...) == nil
		}
		if _, err := agent.CheckDialog(r.Agent, agent.No, r.Activity.CallSum, string(b)); err != nil {
			return false // the dialog is gone: answered as meant
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	return false
}

// stillAsking is seen's record read fresh after a cycle, if it still
// shows the dialog seen showed (the same asking tool call, opened at the
// same time).
func (s *Service) stillAsking(ctx context.Context, seen *state.Record) (*state.Record, error) {
	res, err := s.Cycle(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the session before answering: %w; nothing was sent", err)
	}
	cur, err := state.Resolve(res.Records, seen.ID)
	if err != nil {
		return nil, err
	}
	if err := agent.Answerable(cur); err != nil {
		if errors.Is(err, agent.ErrNoDialog) {
			return nil, fmt.Errorf("%w (answered meanwhile?); nothing was sent", ErrDialogGone)
		}
		return nil, err
	}
	if c, w := cur.Activity, seen.Activity; c.AskingTool != w.AskingTool || !c.DialogAt.Equal(w.DialogAt) ||
		c.Tool != w.Tool || c.ToolInput != w.ToolInput || c.Question != w.Question || c.CallSum != w.CallSum || c.DialogCall != w.DialogCall {
		return nil, fmt.Errorf("%w: it changed, and now asks about %s; nothing was sent — look again before answering",
			ErrDialogGone, toolOf(cur, s.content()))
	}
	return cur, nil
}

// claimAnswer takes cur's dialog for one answer before any key: a double
// tap (or a second lanes answer) finds it taken, even while the first is
// sending. unclaim gives it back.
func (s *Service) claimAnswer(cur *state.Record) (sent time.Time, unclaim func(), err error) {
	sent = s.now()
	if err := s.Update(cur.ID, func(r *state.Record, _ *store.Tx) error {
		switch ra := r.Activity; {
		case !ra.Dialog || !ra.DialogAt.Equal(cur.Activity.DialogAt):
			return fmt.Errorf("%w (answered meanwhile?)", ErrDialogGone)
		case !ra.AnsweredAt.IsZero():
			return agent.ErrAnswered
		}
		state.AnsweredFromLanes(r, sent)
		state.Seen(r, sent)
		return nil
	}); err != nil {
		return time.Time{}, nil, err
	}
	return sent, func() {
		_ = s.Update(cur.ID, func(r *state.Record, _ *store.Tx) error {
			if r.Activity.AnsweredAt.Equal(sent) {
				r.Activity.AnsweredAt = time.Time{}
			}
			return nil
		})
	}, nil
}

// recordAnswer says in the history what was answered, and has the card
// follow the screen at once: lanes' own look counts as the witness's
// (§11). A store that does not take it only makes the card slower to
// follow. It reports whether the pane showed the dialog go.
func (s *Service) recordAnswer(ctx context.Context, tc *tmux.Client, cur *state.Record, ans agent.Answer, sent time.Time) (gone bool) {
	after, at, gone := s.watchAnswer(ctx, tc, cur, ans)
	_ = s.Update(cur.ID, func(r *state.Record, tx *store.Tx) error {
		if !r.Activity.AnsweredAt.Equal(sent) {
			return nil // another dialog since, or none
		}
		said := state.Transition{At: sent, From: r.Activity.State, To: r.Activity.State, Source: "user",
			Detail: answered[ans] + " from lanes" + state.DetailSep + toolOf(cur, true)}
		if err := tx.AppendHistory(r.ID, said); err != nil {
			return err
		}
		if !gone {
			return nil
		}
		if tr := state.SeeScreen(r, after, at); tr != nil {
			return tx.AppendHistory(r.ID, *tr)
		}
		return nil
	})
	return gone
}

// content reports whether what the service says may say what agents do
// (LANES_CONTENT).
func (s *Service) content() bool { return !state.Off(s.getenv(state.EnvContent)) }

// answerLook bounds how long answer watches the pane for the dialog to go.
const answerLook = time.Second

// watchAnswer captures r's pane until the option just answered is gone
// from it (gone: the screen and when it was taken), for at most
// answerLook: an agent redraws within a few hundred milliseconds.
func (s *Service) watchAnswer(ctx context.Context, tc *tmux.Client, r *state.Record, ans agent.Answer) (screen string, at time.Time, gone bool) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for end := time.Now().Add(answerLook); time.Now().Before(end); {
		select {
		case <-ctx.Done():
			return "", time.Time{}, false
		case <-tick.C:
		}
		b, err := captureDialog(ctx, tc, r)
		if err != nil {
			return "", time.Time{}, false
		}
		if _, err := agent.CheckDialog(r.Agent, ans, r.Activity.CallSum, string(b)); err != nil {
			return string(b), s.now(), true
		}
	}
	return "", time.Time{}, false
}

// errHighlightMoved: after lanes moved a dialog's highlight, a fresh look
// did not show it on the option meant (a person moved it too).
var errHighlightMoved = errors.New("its highlight is not where lanes moved it (moved in the pane meanwhile?)")

// moveHighlight sends the moves of keys (all but the confirming last),
// if any, then looks until the pane shows the highlight on the option ans
// takes: a person may move it between lanes' look and its keys (the
// eighth hostile re-run's Right, 42 ms into an answer, made 'no' run the
// command; the tenth's Left, with no move to make, made 'yes' reject). It
// returns the key that confirms, from that fresh look.
func (s *Service) moveHighlight(ctx context.Context, tc *tmux.Client, r *state.Record, ans agent.Answer, keys []string) ([]string, error) {
	if moves := keys[:len(keys)-1]; len(moves) > 0 {
		if err := tc.SendKeys(ctx, r.Runtime.PaneID, moves...); err != nil {
			return nil, err
		}
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for end := time.Now().Add(answerLook); ; {
		b, err := captureDialog(ctx, tc, r)
		if err != nil {
			return nil, err
		}
		if now, err := agent.CheckDialog(r.Agent, ans, r.Activity.CallSum, string(b)); err == nil && len(now) == 1 {
			return now, nil
		}
		if time.Now().After(end) {
			return nil, errHighlightMoved
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}

// answered is what the confirmation says was done.
var answered = map[agent.Answer]string{agent.Yes: "approved", agent.No: "denied", agent.Always: "always allowed"}

// toolOf is the tool call a dialog asks about, as the card shows it
// (without content: only that it is a tool).
func toolOf(r *state.Record, content bool) string {
	if !content {
		return "the tool"
	}
	if s := state.CallLine(r); s != "" {
		return s
	}
	return "a tool"
}

// captureDialog is r's pane as agent.CheckDialog reads it: with its styles
// where only a colour says which option Enter takes.
func captureDialog(ctx context.Context, tc *tmux.Client, r *state.Record) ([]byte, error) {
	if agent.StyledDialog(r.Agent) {
		return tc.CaptureStyled(ctx, r.Runtime.PaneID)
	}
	return tc.CaptureText(ctx, r.Runtime.PaneID)
}
