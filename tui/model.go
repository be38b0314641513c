package tui

import (
	"context"
	"time"

	"lanes/internal/remote"
	"lanes/state"
	"lanes/tmux"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// statusLine is the one-line message at the bottom; it clears itself.
type statusLine struct {
	text  string
	isErr bool
	seq   int
}

// Model is the board's root model. Children are values; all I/O happens in
// Cmds, and View only arranges what Update stored.
type Model struct {
	ctx   context.Context
	o     Options
	spool <-chan struct{}
	pace  *pacer // nil: not run by Run, or Bubble Tea's ticker out of reach

	keys             keyTable
	help             help.Model
	isDark, themeSet bool // themeSet: --theme or `t` chose, ignore the terminal
	look             *look

	w, h            int
	mainH, previewH int
	sidebarOn       bool
	boardW          int

	now  time.Time
	recs []*state.Record
	// derived is recs derived at now, once a cycle (rebuild): the board,
	// the sidebar and the notifier all read it.
	derived  []state.Derived
	board    board
	sidebar  sidebar
	hist     history // loaded while the history overlay is open
	preview  preview
	showPrev bool
	showAll  bool
	filter   string

	// overlays are what is open over the board (overlay.go), the top one
	// with the keyboard; none: the board has it.
	overlays []layer

	footLine [footAnswer]string // the board's key line for each kind of card
	// answerLine is the key line of a card in a permission dialog, per agent.
	answerLine map[state.Agent]string

	status     statusLine
	lastErr    string // the last cycle or tmux error shown, so it shows once
	prsStopped string // why PRs from GitHub stopped coming, as last shown
	// busySince is when cycles began finding the store busy (zero: the
	// last one did not); a short spell keeps the records without a word.
	busySince time.Time
	// trouble is the error of the cycles that could not read the store,
	// until one can: the title says it, and the records are stale.
	trouble error
	readAt  time.Time // when a cycle last read the store
	// tmuxDownSince is when full cycles began finding the sessions' tmux
	// server silent, until one reads it: the title says it meanwhile;
	// tmuxDown is how (not running, or not answering).
	tmuxDownSince time.Time
	tmuxDown      error

	cycling               bool
	againFull, againSpool bool // asked for while a cycle was in flight
	tickGen               int
	animating             bool
	frame                 int
	capturing             string // the session whose pane a capture is reading

	pending pendingSel // a session just created, to select when it appears

	notifier notifier // who entered Needs you (docs/design.md §15)
	budgets  budgetWatch
	// spent is what sessions removed since yesterday spent: today's
	// total and budget count it (store.Tx.Spent).
	spent []state.Spent
	// today is what the sessions shown spent today, all and this host's
	// (spentToday, at each rebuild).
	today struct{ all, here state.Tokens }
	// voice is this board's claim to notify; quiet is set while another
	// board holds it (this one then tells nobody).
	voice *notifyLock
	quiet bool

	// Other hosts (docs/design.md §16): what each last said, their
	// statuses' channel, the host filter (0 all, 1 this host, 2+i host
	// i), and every host's sessions together (all; derived alone without
	// hosts).
	hosts   []hostView
	hostCh  <-chan remote.Status
	hostSel int
	all     []state.Derived
}

// New builds the board's model; spool signals spool writes (nil: none).
func New(ctx context.Context, o Options, spool <-chan struct{}) Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Tmux == nil {
		o.Tmux = tmux.New
	}
	m := Model{ctx: ctx, o: o, spool: spool, keys: newKeyTable(), help: help.New(),
		board: newBoard(), now: o.Now(), isDark: o.Theme != ThemeLight,
		themeSet: o.Theme == ThemeDark || o.Theme == ThemeLight,
		cycling:  true, // Init starts the first cycle, and cannot say so itself
		voice:    &notifyLock{}}
	if !o.NoNotify {
		m.voice = newNotifyLock(o.StateDir) // a board that tells nobody claims nothing
	}
	m.setLook()
	if len(o.Hosts) > 0 && o.Remote != nil {
		m.hosts = newHosts(o.Hosts)
		m.hostCh = o.Remote.Watch(ctx, o.Hosts)
	}
	if o.Warning != "" { // Init clears it in time
		m.flash(o.Warning, true)
	}
	return m
}

// setLook builds the styles for the current theme, once per change.
func (m *Model) setLook() {
	m.look = newLook(m.isDark, m.o.NoColor)
	m.help.Styles = m.look.help
	m.setHelpLines()
}

// Init asks the terminal for its background, runs the first cycle and
// starts watching the spool.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{cycleCmd(m.ctx, m.o.Collector, m.o.Now, false, m.voice), waitSpool(m.spool), waitHost(m.hostCh)}
	if !m.themeSet {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.status.text != "" {
		cmds = append(cmds, clearStatusCmd(m.status.seq))
	}
	return tea.Batch(cmds...)
}

// Update applies one message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		if !m.themeSet && msg.IsDark() != m.isDark {
			m.isDark = msg.IsDark()
			m.setLook()
		}
		return m, nil
	case cycleMsg:
		return m.onCycle(msg)
	case tickMsg:
		if msg.gen != m.tickGen {
			return m, nil // a full cycle ran meanwhile and scheduled its own
		}
		return m, tea.Batch(m.cycle(full), m.capture())
	case spoolMsg:
		if msg.closed {
			return m, nil
		}
		return m, tea.Batch(m.cycle(spoolOnly), waitSpool(m.spool))
	case frameMsg:
		if !m.active() {
			m.animating = false
			return m, nil
		}
		m.frame++
		return m, frameCmd()
	case hostMsg:
		return m.onHost(msg)
	case previewMsg:
		return m.onPreview(msg)
	case diffMsg:
		return m.toTop(msg)
	case historyMsg:
		m.onHistory(msg)
		return m, nil
	case restorePlanMsg:
		return m, m.restorePlanned(msg)
	case actionMsg:
		if msg.err != nil {
			return m, tea.Batch(m.flash(msg.err.Error(), true), m.cycle(full))
		}
		return m, tea.Batch(m.flash(msg.text, false), m.cycle(full))
	case createdMsg:
		return m.onCreated(msg)
	case clearStatusMsg:
		if msg.seq == m.status.seq {
			m.status.text = ""
		}
		return m, nil
	case closeDialogMsg:
		m.pop()
		return m, nil
	case submitNewMsg:
		return m.onSubmitNew(msg)
	case confirmedMsg:
		return m.onConfirmed(msg)
	case submitSendMsg:
		return m.onSubmitSend(msg)
	case tea.KeyPressMsg:
		return m.onKey(msg)
	}
	return m.toTop(msg) // cursor blinks, pastes
}

// onPreview shows a capture of the selected pane, unless the selection
// moved while it was taken (then it takes another).
func (m Model) onPreview(msg previewMsg) (tea.Model, tea.Cmd) {
	if m.capturing == msg.id {
		m.capturing = ""
	}
	sel := m.board.selected()
	switch {
	case !m.showPrev || sel == nil:
		return m, nil
	case sel.Rec.ID != msg.id:
		return m, m.capture()
	}
	m.preview.setContent(msg.name, msg.out, msg.err)
	return m, nil
}

// onHistory takes only the answer to the latest request: an older one
// arriving late must not replace newer history.
func (m *Model) onHistory(msg historyMsg) {
	if msg.id != m.hist.id || !msg.at.Equal(m.hist.at) {
		return
	}
	m.hist.trs, m.hist.err = msg.trs, ""
	if msg.err != nil {
		m.hist.err = msg.err.Error()
	}
}

// onCreated ends the new-session dialog with its session started, or shows
// why not where it was typed (or in the status line, the dialog gone).
func (m Model) onCreated(msg createdMsg) (tea.Model, tea.Cmd) {
	d, open := m.top().(newDialog)
	switch {
	case msg.err != nil && open:
		d.busy, d.err = false, msg.err.Error()
		m.setTop(d)
		return m, nil
	case msg.err != nil:
		return m, m.flash("new "+msg.name+": "+msg.err.Error(), true)
	}
	closeTop[newDialog](&m)
	m.pending = pendingSel{name: msg.name, host: msg.host, until: m.o.Now().Add(pendingWait)}
	what := msg.name
	if msg.host != "" {
		what += " on " + msg.host
	}
	return m, tea.Batch(m.flash("started "+what, false), m.cycle(full))
}

// onSubmitNew starts the session the new-session dialog asked for, here
// or on the host its filter shows.
func (m Model) onSubmitNew(msg submitNewMsg) (tea.Model, tea.Cmd) {
	m.o.Agent = msg.agent // the next dialog starts where this one ended
	return m, createCmd(m.ctx, m.actionsOn(msg.host), msg)
}

// onSubmitSend types the send dialog's prompt, unless the board cannot
// read the store now (refuseStale).
func (m Model) onSubmitSend(msg submitSendMsg) (tea.Model, tea.Cmd) {
	closeTop[sendDialog](&m)
	if cmd := m.refuseStale("send"); cmd != nil {
		return m, cmd
	}
	m.notifier.actedOn(sessionKey(state.Derived{Rec: &msg.rec, Host: msg.host}), m.o.Now())
	return m, sendCmd(m.ctx, m.actionsOn(msg.host), msg)
}

// onConfirmed runs the action a confirm dialog said yes to, unless the
// board cannot read the store now (refuseStale).
func (m Model) onConfirmed(msg confirmedMsg) (tea.Model, tea.Cmd) {
	closeTop[confirmDialog](&m)
	if cmd := m.refuseStale(msg.act.do.verb); cmd != nil {
		return m, cmd
	}
	m.notifier.actedOn(sessionKey(state.Derived{Rec: &msg.act.rec, Host: msg.act.host}), m.o.Now())
	doing := msg.act.do.verb + " " + msg.act.rec.Name + "…"
	if msg.act.do.doing != "" {
		doing = msg.act.do.doing
	}
	return m, tea.Batch(m.flash(doing, false), actionCmd(m.ctx, m.actionsOn(msg.act.host), msg.act))
}
