package tui

import (
	"errors"
	"slices"
	"time"

	"lanes/state"
	"lanes/state/store"
	"lanes/theme"

	tea "charm.land/bubbletea/v2"
)

// cycleKind says what a cycle reads: tmux and the spool, or the spool
// alone (Options.Ingest), which is all a hook line needs.
type cycleKind uint8

const (
	full cycleKind = iota
	spoolOnly
)

// cycle starts a collector cycle unless one is in flight; then the asked
// kind runs right after it. A full cycle makes the pending tick stale: its
// own result schedules the next.
func (m *Model) cycle(kind cycleKind) tea.Cmd {
	if kind == full {
		m.tickGen++
	}
	if m.cycling {
		if kind == full {
			m.againFull = true
		} else {
			m.againSpool = true
		}
		return nil
	}
	m.cycling = true
	c := m.o.Collector
	if kind == spoolOnly && m.o.Ingest != nil {
		c = m.o.Ingest
	}
	return cycleCmd(m.ctx, c, m.o.Now, kind == spoolOnly, m.voice)
}

// onCycle applies a cycle's records (or shows why there are none), then
// keeps the chain going: a cycle asked for meanwhile, else the next tick.
func (m Model) onCycle(msg cycleMsg) (tea.Model, tea.Cmd) {
	m.cycling = false
	m.now = msg.now
	var cmds []tea.Cmd
	busy := errors.Is(msg.err, store.ErrBusy)
	if !busy {
		m.busySince = time.Time{}
	} else if m.busySince.IsZero() {
		m.busySince = msg.now
	}
	switch {
	case busy && msg.now.Sub(m.busySince) < BusyQuiet:
		// Another process's cycle held the lock: the records shown are
		// its moment old, which says nothing worth a flash.
	case msg.err != nil:
		m.trouble = msg.err
		cmds = append(cmds, m.flashOnce("store: "+msg.err.Error()))
	default:
		m.trouble, m.readAt = nil, msg.now
		m.recs, m.spent = msg.res.Records, msg.res.Spent
		switch {
		case msg.ingest: // no tmux read: says nothing about tmux
		case msg.res.TmuxErr != nil && msg.res.Watching:
			if m.tmuxDownSince.IsZero() {
				m.tmuxDownSince = msg.now
			}
			m.tmuxDown = msg.res.TmuxErr
			if exited := m.serverExitNote(m.w); exited != "" {
				cmds = append(cmds, m.flashOnce(exited))
			} else {
				cmds = append(cmds, m.flashOnce("tmux is not answering: "+msg.res.TmuxErr.Error()))
			}
		default:
			m.lastErr, m.tmuxDownSince = "", time.Time{}
		}
		switch off := msg.res.PRsStopped; {
		case msg.ingest: // the ingest-only cycles run no poller: they say nothing of it
		case off != nil && off.Error() != m.prsStopped:
			m.prsStopped = off.Error()
			cmds = append(cmds, m.flash(off.Error()+"; PR badges keep their last state, and the board tries again every 5 minutes", true))
		case off == nil:
			m.prsStopped = ""
		}
		m.rebuild()
		cmds = append(cmds, m.hushed(msg.quiet), m.notify(msg.now), m.budgetNotify(msg.now))
		if !msg.ingest && (m.pending.host == "" || msg.now.After(m.pending.until)) {
			m.pending = pendingSel{} // found by now, or filtered out of sight
		}
	}
	if m.againFull {
		m.againFull, m.againSpool = false, false
		cmds = append(cmds, m.cycle(full)) // its result schedules the tick
	} else {
		if m.againSpool {
			m.againSpool = false
			cmds = append(cmds, m.cycle(spoolOnly))
		}
		if !msg.ingest {
			cmds = append(cmds, tickCmd(m.tickGen))
		}
	}
	if m.active() && !m.animating {
		m.animating = true
		cmds = append(cmds, frameCmd())
	}
	cmds = append(cmds, m.loadHistory(false))
	return m, tea.Batch(cmds...)
}

// rebuild re-sorts the board after new records, a filter or a toggle.
func (m *Model) rebuild() {
	m.derived = deriveAll(m.derived[:0], m.recs, m.now)
	ds := m.withHosts()
	// A session just created from the board becomes the selection once its
	// card arrives; the board's own reselect then finds its row.
	if i := slices.IndexFunc(ds, m.pending.is); i >= 0 {
		m.board.selKey, m.pending = sessionKey(ds[i]), pendingSel{}
	}
	m.board.set(ds, m.now, m.filter, m.showAll, !m.o.NoContent)
	m.sidebar.setRecords(ds)
	m.today.all, m.today.here = spentToday(ds, m.now)
}

// active reports whether an animated dot (theme says which: only active
// breathes) is on the board or in the sidebar; stale records never are.
func (m Model) active() bool {
	if m.stale() {
		return false
	}
	animates := func(r *state.Record, d state.Derivation) bool {
		return r.Live() && theme.ActivitySpec(dotActivity(r, d)).Animates
	}
	anim := func(it *item) bool { return animates(it.Rec, it.D) }
	if m.sidebarOn && slices.ContainsFunc(m.sidebar.live, anim) {
		return true
	}
	for i := range m.board.items {
		if anim(&m.board.items[i]) {
			return true
		}
	}
	return false
}

// flash shows a status-bar message that clears itself.
func (m *Model) flash(text string, isErr bool) tea.Cmd {
	// Its words may be other programs' (gh's, git's): printable only.
	m.status = statusLine{text: state.CleanText(text), isErr: isErr, seq: m.status.seq + 1}
	return clearStatusCmd(m.status.seq)
}

// flashOnce shows an error the first time it occurs, not every cycle.
func (m *Model) flashOnce(text string) tea.Cmd {
	if text == m.lastErr {
		return nil
	}
	m.lastErr = text
	return m.flash(text, true)
}

// capture refreshes the preview of the selected session, if shown.
func (m *Model) capture() tea.Cmd {
	sel := m.board.selected()
	// One capture per pane at a time; a slow host's holds no other card's.
	if !m.showPrev || sel != nil && m.capturing == sel.Rec.ID {
		return nil
	}
	if sel == nil {
		m.preview.clear("", "select a session to see its pane")
		return nil
	}
	r := sel.Rec
	if r.Runtime.Terminated || r.Runtime.PaneID == "" {
		m.preview.clear(r.Name, "no pane: the session has ended")
		return nil
	}
	m.capturing = r.ID
	return captureCmd(m.ctx, m.actionsOn(sel.Host), *r, sel.title())
}

// loadHistory fetches the selected session's transitions when the history
// is open and they changed (force: reload anyway).
func (m *Model) loadHistory(force bool) tea.Cmd {
	if !topIs[historyView](m) {
		return nil
	}
	sel := m.board.selected()
	if sel == nil {
		m.hist = history{}
		return nil
	}
	at, key := sel.Rec.Activity.Since, sel.key()
	if !force && key == m.hist.id && at.Equal(m.hist.at) {
		return nil
	}
	if key != m.hist.id {
		m.hist = history{}
		m.setTop(historyView{}) // another session's, from its newest
	}
	m.hist.id, m.hist.name, m.hist.at = key, sel.title(), at
	return historyCmd(m.ctx, m.actionsOn(sel.Host), sel.Rec.ID, key, at)
}

// pendingSel is a session just created from the board, to select when its
// card appears: this host's by the next full cycle, another host's when
// its stream brings it, until a little after.
type pendingSel struct {
	name, host string
	until      time.Time
}

// pendingWait is how long the board waits for another host's new session
// to reach it before it stops looking.
const pendingWait = 10 * time.Second

func (p pendingSel) is(d state.Derived) bool {
	return p.name != "" && d.Host == p.host && d.Rec.Name == p.name && d.Rec.Live()
}
